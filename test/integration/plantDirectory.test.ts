import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ListQuery, SortOrder } from '../../api/index.ts';
import type { Db } from '../../server/db/database.ts';
import {
  loadPlants,
  OVER_LIMIT_MS,
  RELOAD_UNUSED_MS,
} from '../../server/features/plants/plantDirectory.ts';
import type { PlantFilters } from '../../server/features/plants/plantFilters.ts';
import { plantListPage, rememberedPageQuery } from '../../server/features/plants/plantList.ts';
import { toPlant } from '../../server/features/plants/plantStore.ts';
import { answersFromMemory } from '../../server/features/plants/rememberedPlants.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { TestServer } from '../support/testServer.ts';

/**
 * `GET /plants` from the plants kept in memory (server/features/plants/plantDirectory.ts), on
 * both engines: every answer byte for byte the database's, for the same plants and any query;
 * the organization's version (migration 0021) moving with every write to its plants and with
 * nothing else; and the route answering from memory only while that version stands.
 */

let server: TestServer;
let db: Db;
let installer: string;
let outsider: string;
let clockMs = Date.parse('2026-03-29T00:30:00Z');

/** Letters that lower to others, LIKE's specials, an astral character, accents, a space. */
const CHARACTERS = ['a', 'B', 'b', 'ö', 'Ö', 'ß', 'Ж', '😀', '日', '1', '-', ' ', '%', '_', '"'];
const text = (min: number, max: number, characters = CHARACTERS) =>
  fc
    .array(fc.constantFrom(...characters), { minLength: min, maxLength: max })
    .map((c) => c.join(''))
    .filter((value) => value.trim() === value && value.length > 0);

async function organizationOf(plantUuid: string, on = db): Promise<string> {
  const { rows } = await sql<{ organization_uuid: string }>`
    select organization_uuid from plants where plant_uuid = ${plantUuid}`.execute(on);
  return rows[0]!.organization_uuid;
}

async function versionOf(organization: string): Promise<number> {
  const { rows } = await sql<{ version: number }>`
    select version from plant_list_versions where organization_uuid = ${organization}`.execute(db);
  return Number(rows[0]?.version ?? 0);
}

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(clockMs) });
  db = server.server.context.db;
  installer = await server.tokenFor('installer');
  outsider = await server.tokenFor('outsider');
});

afterAll(async () => {
  await server?.close();
});

describe('the plants in memory answer as the database does', () => {
  test('byte for byte, for any search, sort, page, and lists of plants and external ids', async () => {
    const specs = fc.sample(
      fc.record({
        name: text(1, 24),
        externalIds: fc.uniqueArray(
          text(
            1,
            20,
            CHARACTERS.filter((c) => c !== ' '),
          ),
          {
            maxLength: 2,
          },
        ),
        renamed: fc.boolean(),
      }),
      { numRuns: 40, seed: 29 },
    );
    const taken = new Set<string>();
    const created: { plantUuid: string; name: string; externalIds: string[] }[] = [];
    for (const [index, spec] of specs.entries()) {
      // createdAt and updatedAt tie in runs of three.
      if (index % 3 === 0) clockMs += 1000;
      const externalIds = spec.externalIds.filter((id) => !taken.has(id) && taken.add(id));
      created.push(await createPlant(server, installer, { name: spec.name, externalIds }));
      await createPlant(server, outsider, { name: spec.name });
    }
    for (const [index, spec] of specs.entries()) {
      if (!spec.renamed) continue;
      clockMs += 500;
      const renamed = await server.request('PUT', `/plants/${created[index]!.plantUuid}`, {
        token: installer,
        body: { name: `${spec.name.toUpperCase()} ß` },
      });
      expectStatus(renamed, 200, 'rename');
    }
    const organization = await organizationOf(created[0]!.plantUuid);
    const remembered = await loadPlants(db, organization);
    expect(remembered.version).toBe(await versionOf(organization));
    const uuids = created.map((plant) => plant.plantUuid);
    const ids = [...taken];
    const term = fc.oneof(
      text(1, 4),
      text(15, 20),
      fc
        .tuple(fc.constantFrom(...specs), fc.nat(), fc.nat({ max: 20 }), fc.boolean())
        .map(([spec, from, length, upper]) => {
          const source = [spec.name, ...spec.externalIds][from % (1 + spec.externalIds.length)]!;
          const start = from % source.length;
          const piece = source.slice(start, start + 1 + length);
          return upper ? piece.toUpperCase() : piece;
        }),
    );
    const order: fc.Arbitrary<SortOrder> = fc.record({
      property: fc.constantFrom('name', 'createdAt', 'updatedAt', 'plantUuid'),
      direction: fc.constantFrom('asc', 'desc'),
    });
    const query: fc.Arbitrary<ListQuery & PlantFilters> = fc.record(
      {
        search: term,
        sort: fc.array(order, { minLength: 1, maxLength: 2 }),
        page: fc.nat({ max: 8 }),
        size: fc.integer({ min: 1, max: 7 }),
        plantUuids: fc.subarray([...uuids, '00000000-0000-4000-8000-000000000000']),
        externalIds: fc.subarray([...ids, 'no such id']),
      },
      { requiredKeys: [] },
    );
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(query, async (asked) => {
        if (!answersFromMemory(asked)) return;
        answered++;
        const { rows, page } = await plantListPage(db, organization, asked);
        const fromDatabase = JSON.stringify({ content: rows.map(toPlant), page });
        expect(remembered.pageJson(rememberedPageQuery(asked))).toBe(fromDatabase);
      }),
      { numRuns: 300, seed: 29 },
    );
    expect(answered).toBeGreaterThan(250);
  }, 120_000);
});

describe("an organization's version", () => {
  test('moves with every write to its plants and their external ids, and with nothing else', async () => {
    const plant = await createPlant(server, installer, { externalIds: ['VERSION-1'] });
    const organization = await organizationOf(plant.plantUuid);
    const other = await organizationOf((await createPlant(server, outsider)).plantUuid);
    let ours = await versionOf(organization);
    const theirs = await versionOf(other);
    const moved = async (what: string) => {
      const now = await versionOf(organization);
      expect(now, what).toBeGreaterThan(ours);
      ours = now;
    };
    const path = `/plants/${plant.plantUuid}`;
    const put = async (body: Record<string, unknown>) =>
      expectStatus(await server.request('PUT', path, { token: installer, body }), 200, 'update');
    await put({ name: 'Versioned' });
    await moved('renamed');
    await put({ externalIds: ['VERSION-1', 'VERSION-2'] });
    await moved('external ids');
    await put({ metadata: { note: 'x' } });
    await moved('metadata');
    await createPlant(server, installer);
    await moved('created');

    const catalog = await server.catalog('/sensor-types', 'sensorTypeUuid');
    const dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
    const sensor = await createSensor(server, installer, plant.plantUuid, {
      name: 'Meter',
      sensorTypeUuid: catalog.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER_CONSUMPTION ?? Object.values(dataTypes)[0]],
      samplingIntervalSeconds: 60,
    });
    const readings = await server.request(
      'POST',
      `/plants/${plant.plantUuid}/sensors/${sensor.sensorUuid}/readings`,
      { token: installer, body: { readings: [{ timestamp: '2026-03-28T10:00:00Z', value: 1 }] } },
    );
    expectStatus(readings, 202, 'readings');
    expect(await versionOf(organization), 'a sensor and readings').toBe(ours);

    expectStatus(await server.request('DELETE', path, { token: installer }), 204, 'delete');
    await moved('deleted');
    expect(await versionOf(other), "the other organization's").toBe(theirs);
  });
});

describe('the plant list route', () => {
  test('answers from memory while the version stands, and from the database once it moved', async () => {
    const directory = server.server.context.plantDirectory;
    const plant = await createPlant(server, installer, { name: 'Kept Plant' });
    const organization = await organizationOf(plant.plantUuid);
    const names = async (search: string) => {
      const response = await server.request('GET', '/plants', {
        token: installer,
        query: { search },
      });
      return (expectStatus(response, 200, 'list').content as { name: string }[]).map(
        (listed) => listed.name,
      );
    };
    const before = { ...directory.counts };
    expect(await names('kept pl')).toEqual(['Kept Plant']);
    expect(directory.counts.fromDatabase).toBe(before.fromDatabase + 1);
    await directory.settled();
    expect(directory.rememberedVersion(organization)).toBe(await versionOf(organization));
    expect(await names('kept pl')).toEqual(['Kept Plant']);
    expect(directory.counts.fromMemory).toBe(before.fromMemory + 1);

    const renamed = await server.request('PUT', `/plants/${plant.plantUuid}`, {
      token: installer,
      body: { name: 'Kept Plant renamed' },
    });
    expectStatus(renamed, 200, 'rename');
    // The very next list: the version moved, so the database answers.
    expect(await names('kept pl')).toEqual(['Kept Plant renamed']);
    expect(directory.counts.fromDatabase).toBe(before.fromDatabase + 2);
    await directory.settled();
    expect(await names('renamed')).toEqual(['Kept Plant renamed']);
    expect(directory.counts.fromMemory).toBe(before.fromMemory + 2);
  });

  /** A server of its own with directory limits, its two organizations, and a list per role. */
  async function limited(limits: {
    maxPlants?: number;
    maxOrganizations?: number;
    maxKeptPlants?: number;
    clockMs?: () => number;
  }) {
    const small = await TestServer.start({ plantDirectory: limits });
    const tokens = {
      own: await small.tokenFor('installer'),
      others: await small.tokenFor('outsider'),
    };
    const plant = await createPlant(small, tokens.others);
    const organizations = {
      others: await organizationOf(plant.plantUuid, small.server.context.db),
      // Demo Home is the installer's.
      own: await organizationOf(
        (
          expectStatus(await small.request('GET', '/plants', { token: tokens.own }), 200, 'list')
            .content[0] as { plantUuid: string }
        ).plantUuid,
        small.server.context.db,
      ),
    };
    const directory = small.server.context.plantDirectory;
    /** Lists twice, the plants read in between: the total, and whether it came from memory. */
    const listed = async (who: 'own' | 'others') => {
      const read = async () =>
        expectStatus(await small.request('GET', '/plants', { token: tokens[who] }), 200, 'list')
          .page.totalElements as number;
      await read();
      await directory.settled();
      const before = directory.counts.fromMemory;
      const total = await read();
      return { total, fromMemory: directory.counts.fromMemory > before };
    };
    const kept = (who: 'own' | 'others') =>
      directory.rememberedVersion(organizations[who]) !== undefined;
    return { small, tokens, listed, kept };
  }

  test('keeps no organization of more plants than its limit, nor more organizations', async () => {
    let nowMs = 0;
    const { small, tokens, listed, kept } = await limited({
      maxPlants: 2,
      maxOrganizations: 1,
      clockMs: () => nowMs,
    });
    try {
      expect(await listed('others')).toEqual({ total: 1, fromMemory: true });
      expect(await listed('own')).toEqual({ total: 1, fromMemory: true });
      // One organization kept: the one listed last.
      expect([kept('own'), kept('others')]).toEqual([true, false]);
      // Three plants: over the limit, answered from the database and no longer kept.
      const added = [];
      for (let index = 0; index < 2; index++) added.push(await createPlant(small, tokens.own));
      const counted = small.server.context.plantDirectory.counts;
      expect(await listed('own')).toEqual({ total: 3, fromMemory: false });
      expect(kept('own')).toBe(false);
      // Found over the limit, it is not even asked about for a while.
      const asked = counted.fromDatabase;
      expect(await listed('own')).toEqual({ total: 3, fromMemory: false });
      expect(counted.fromDatabase).toBe(asked);
      // Back within the limit, it is kept again once that while is over.
      await small.request('DELETE', `/plants/${added[0].plantUuid}`, { token: tokens.own });
      nowMs += OVER_LIMIT_MS;
      expect(await listed('own')).toEqual({ total: 2, fromMemory: true });
    } finally {
      await small.close();
    }
  });

  test('keeps no more plants in all than its limit', async () => {
    const { small, tokens, listed, kept } = await limited({ maxKeptPlants: 2 });
    try {
      expect(await listed('others')).toEqual({ total: 1, fromMemory: true });
      expect(await listed('own')).toEqual({ total: 1, fromMemory: true });
      expect([kept('own'), kept('others')]).toEqual([true, true]);
      await createPlant(small, tokens.others);
      // Two plants of theirs and one of ours would be three: ours, listed less recently, go.
      expect(await listed('others')).toEqual({ total: 2, fromMemory: true });
      expect([kept('own'), kept('others')]).toEqual([false, true]);
    } finally {
      await small.close();
    }
  });

  test('plants no request used are read again only after a pause', async () => {
    let nowMs = 0;
    const own = await TestServer.start({ plantDirectory: { clockMs: () => nowMs } });
    try {
      const token = await own.tokenFor('installer');
      const directory = own.server.context.plantDirectory;
      const list = async () =>
        expectStatus(await own.request('GET', '/plants', { token }), 200, 'list');
      await list();
      await directory.settled();
      expect(directory.counts.loads).toBe(1);
      // Changed before any list used them: the next reading waits.
      await createPlant(own, token);
      await list();
      await directory.settled();
      expect(directory.counts.loads).toBe(1);
      nowMs += RELOAD_UNUSED_MS;
      await list();
      await directory.settled();
      expect(directory.counts.loads).toBe(2);
      // Used, then changed: read again at once.
      await list();
      expect(directory.counts.fromMemory).toBe(1);
      await createPlant(own, token);
      const answer = await list();
      await directory.settled();
      expect(directory.counts.loads).toBe(3);
      expect((await list()).page.totalElements).toBe(answer.page.totalElements);
      expect(directory.counts.fromMemory).toBe(2);
    } finally {
      await own.close();
    }
  });
});
