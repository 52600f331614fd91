import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { SortOrder } from '../../api/index.ts';
import type { PlantRow } from '../../server/db/tables.ts';
import {
  answersFromMemory,
  RememberedPlants,
  type LoadedPlant,
  type PlantSortProperty,
} from '../../server/features/plants/rememberedPlants.ts';

/**
 * The plant list from memory against crafted plants: which plants a term finds (short and long
 * terms, astral characters, terms longer than the index's pieces), the order of every sort with
 * its ties, the filters together, and pages up to and past the end. The ranks stand for the
 * database's order, as plantDirectory.ts reads them; integration/plantDirectory.test.ts holds the
 * answers against the database's on both engines.
 */

const uuid = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

function plant(index: number, name: string, externalIds: string[] = []): LoadedPlant {
  const row: PlantRow = {
    plant_uuid: uuid(index),
    organization_uuid: 'org',
    name,
    latitude: 45,
    longitude: 9,
    timezone: 'Europe/Rome',
    altitude_m: null,
    pv_peak_power_kw: null,
    pv_tilt_deg: null,
    pv_azimuth_deg: null,
    pv_losses_percent: null,
    external_ids: JSON.stringify(externalIds),
    metadata: '{}',
    created_at: `2026-03-0${1 + (index % 3)}T00:00:00.000Z`,
    updated_at: `2026-04-0${1 + (index % 2)}T00:00:00.000Z`,
  };
  return {
    row,
    ranks: { plantUuid: 0, name: 0, createdAt: 0, updatedAt: 0 },
    externalIds,
    loweredTexts: [name.toLowerCase(), ...externalIds.map((id) => id.toLowerCase())],
  };
}

/** Dense ranks as a database with code point order gives them. */
function ranked(plants: LoadedPlant[]): LoadedPlant[] {
  const keys: Record<PlantSortProperty, (plant: LoadedPlant) => string> = {
    plantUuid: (p) => p.row.plant_uuid,
    name: (p) => p.row.name.toLowerCase(),
    createdAt: (p) => p.row.created_at,
    updatedAt: (p) => p.row.updated_at,
  };
  const ranks = plants.map(() => ({}) as Record<PlantSortProperty, number>);
  for (const [property, key] of Object.entries(keys) as [PlantSortProperty, typeof keys.name][]) {
    const distinct = [...new Set(plants.map(key))].sort(byCodePoints);
    plants.forEach((p, index) => (ranks[index]![property] = distinct.indexOf(key(p)) + 1));
  }
  return plants.map((p, index) => ({ ...p, ranks: ranks[index]! }));
}

const byCodePoints = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

const NAME_ASC: SortOrder[] = [{ property: 'name', direction: 'asc' }];

function listed(
  plants: RememberedPlants,
  query: Partial<Parameters<RememberedPlants['pageJson']>[0]>,
) {
  const json = plants.pageJson({ sort: NAME_ASC, number: 0, size: 20, ...query });
  return JSON.parse(json) as {
    content: { plantUuid: string; name: string }[];
    page: { number: number; size: number; totalElements: number; totalPages: number };
  };
}
const names = (answer: ReturnType<typeof listed>) => answer.content.map((p) => p.name);

const CRAFTED = ranked([
  plant(1, 'Rooftop Nord', ['SITE-001', 'inv-7']),
  plant(2, 'rooftop süd', ['SITE-002']),
  plant(3, 'Solar 😀 Farm'),
  plant(4, 'Barn', ['x😀y']),
  plant(5, 'A very long plant name that goes well past sixteen units', [
    'LONG-ID-0000000000000042',
  ]),
  plant(6, 'Ölmühle'),
  plant(7, 'barn'),
]);

describe('the plant list from memory', () => {
  const plants = new RememberedPlants(3, CRAFTED);

  test('finds a term in a name or an external id, lowered, short or long', () => {
    expect(names(listed(plants, { search: 'ROOF' }))).toEqual(['Rooftop Nord', 'rooftop süd']);
    expect(names(listed(plants, { search: 'site-002' }))).toEqual(['rooftop süd']);
    expect(names(listed(plants, { search: 'ö' }))).toEqual(['Ölmühle']);
    expect(names(listed(plants, { search: 'r' })).length).toBe(6);
    // Longer than the index's pieces: the candidates' texts are read whole.
    expect(names(listed(plants, { search: 'plant name that goes well past' }))).toEqual([
      'A very long plant name that goes well past sixteen units',
    ]);
    expect(listed(plants, { search: 'plant name that goes well past seventeen' }).content).toEqual(
      [],
    );
    expect(names(listed(plants, { search: 'long-id-0000000000000042' }))).toHaveLength(1);
    expect(names(listed(plants, { search: 'long-id-0000000000000043' }))).toEqual([]);
  });

  test('astral characters match whole, never by half', () => {
    expect(names(listed(plants, { search: '😀' }))).toEqual(['Barn', 'Solar 😀 Farm']);
    expect(names(listed(plants, { search: '😀y' }))).toEqual(['Barn']);
    // Half a character is never searched in memory: the database answers it.
    expect(answersFromMemory({ search: '\uDE00' })).toBe(false);
    expect(answersFromMemory({ search: 'a\u0000' })).toBe(false);
    expect(answersFromMemory({ search: '😀' })).toBe(true);
  });

  test('orders ties by plant, whichever way the sort goes', () => {
    const both = (direction: 'asc' | 'desc') =>
      listed(plants, { search: 'barn', sort: [{ property: 'name', direction }] }).content.map(
        (p) => p.plantUuid,
      );
    expect(both('asc')).toEqual([uuid(4), uuid(7)]);
    expect(both('desc')).toEqual([uuid(4), uuid(7)]);
    const byCreation = listed(plants, {
      sort: [
        { property: 'createdAt', direction: 'desc' },
        { property: 'updatedAt', direction: 'asc' },
      ],
    }).content.map((p) => p.plantUuid);
    expect(byCreation).toEqual([2, 5, 4, 1, 7, 6, 3].map(uuid));
    const byPlant = listed(plants, { sort: [{ property: 'plantUuid', direction: 'desc' }] });
    expect(byPlant.content.map((p) => p.plantUuid)).toEqual([7, 6, 5, 4, 3, 2, 1].map(uuid));
  });

  test('applies every filter together', () => {
    const answer = listed(plants, {
      plantUuids: [uuid(1), uuid(2), uuid(3), uuid(1), uuid(99)],
      externalIds: ['SITE-001', 'SITE-002', 'site-003'],
      search: 'roof',
    });
    expect(names(answer)).toEqual(['Rooftop Nord', 'rooftop süd']);
    expect(answer.page.totalElements).toBe(2);
    // External ids match exactly, not ignoring case.
    expect(listed(plants, { externalIds: ['site-001'] }).content).toEqual([]);
    expect(names(listed(plants, { externalIds: ['x😀y'] }))).toEqual(['Barn']);
  });

  test('pages up to and past the end, with the total', () => {
    const second = listed(plants, { number: 1, size: 3 });
    // Code point order of the lowered names: ö after every ASCII letter.
    expect(names(second)).toEqual(['Rooftop Nord', 'rooftop süd', 'Solar 😀 Farm']);
    expect(second.page).toEqual({ number: 1, size: 3, totalElements: 7, totalPages: 3 });
    const past = listed(plants, { number: 5, size: 3, search: 'r' });
    expect(past.content).toEqual([]);
    expect(past.page).toEqual({ number: 5, size: 3, totalElements: 6, totalPages: 2 });
  });

  test('answers an organization without plants', () => {
    const none = new RememberedPlants(0, []);
    expect(none.size).toBe(0);
    expect(none.pageJson({ sort: NAME_ASC, number: 0, size: 20, search: 'a' })).toBe(
      '{"content":[],"page":{"number":0,"size":20,"totalElements":0,"totalPages":0}}',
    );
  });
});

describe('the search from memory, as a property', () => {
  const CHARACTERS = ['a', 'B', 'ö', 'Ö', '-', ' ', '😀', '日', '0'];
  const text = (max: number) =>
    fc
      .array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: max })
      .map((c) => c.join(''));

  test('finds what a naive lowered substring filter finds, for terms of any length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text(24), fc.array(text(20), { maxLength: 2 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.nat(),
        fc.nat({ max: 30 }),
        fc.boolean(),
        (specs, from, length, upper) => {
          const loaded = ranked(specs.map(([name, ids], index) => plant(index, name, ids)));
          const plants = new RememberedPlants(1, loaded);
          const source = specs[from % specs.length]![0];
          const piece = source.slice(from % source.length, (from % source.length) + 1 + length);
          const term = upper ? piece.toUpperCase() : piece;
          if (!answersFromMemory({ search: term })) return;
          const lowered = term.toLowerCase();
          const expected = loaded
            .filter((p) => p.loweredTexts.some((t) => t.includes(lowered)))
            .map((p) => p.row.plant_uuid)
            .sort();
          const answer = listed(plants, { search: term, size: 100 });
          expect(answer.content.map((p) => p.plantUuid).sort()).toEqual(expected);
          expect(answer.page.totalElements).toBe(expected.length);
        },
      ),
      { numRuns: 300, seed: 21 },
    );
  });
});
