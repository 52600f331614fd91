import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { directPoolOf } from '../../server/db/fastQuery.ts';
import { createPlant, expectStatus } from '../support/entities.ts';
import { testEngine } from '../support/testDatabases.ts';
import { newPlantBody, TestServer } from '../support/testServer.ts';

/**
 * `GET /plants?search=` through its index (migration 0007: FTS5 trigrams on SQLite, pg_trgm on
 * PostgreSQL): the same case-insensitive substring matches as a scan, kept current as plants are
 * renamed, re-identified and deleted.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await TestServer.start();
  token = await server.tokenFor('installer');
});

afterAll(async () => {
  await server?.close();
});

async function found(term: string): Promise<string[]> {
  const response = await server.request('GET', '/plants', {
    token,
    query: { search: term, size: 200, sort: 'name,asc' },
  });
  const body = expectStatus(response, 200, `search ${term}`);
  return (body.content as { name: string }[]).map((plant) => plant.name);
}

describe('the plant search', () => {
  test('finds a substring of a name or an external id, in any case, Unicode included', async () => {
    await createPlant(server, token, { name: 'Größe Ölmühle', externalIds: ['SITE-Ä1', 'q"x'] });
    await createPlant(server, token, { name: 'Rooftop 100%_west', externalIds: ['INV-77'] });
    expect(await found('GRÖSSE')).toEqual([]);
    expect(await found('größe')).toEqual(['Größe Ölmühle']);
    expect(await found('ÖLMÜ')).toEqual(['Größe Ölmühle']);
    expect(await found('site-ä')).toEqual(['Größe Ölmühle']);
    expect(await found('q"x')).toEqual(['Größe Ölmühle']);
    expect(await found('0%_')).toEqual(['Rooftop 100%_west']);
    expect(await found('%_w')).toEqual(['Rooftop 100%_west']);
    expect(await found('0_%')).toEqual([]);
    expect(await found('inv-7')).toEqual(['Rooftop 100%_west']);
    // Shorter than a trigram: still a substring search.
    expect(await found('öl')).toEqual(['Größe Ölmühle']);
    expect(await found('7')).toEqual(['Rooftop 100%_west']);
    // Words out of order, or an FTS5 operator, are not a substring.
    expect(await found('ölmühle größe')).toEqual([]);
    expect(await found('größe OR rooftop')).toEqual([]);
  });

  test('follows renames, new external ids and deletions', async () => {
    const plant = await createPlant(server, token, { name: 'Old Barn', externalIds: ['BARN-1'] });
    const path = `/plants/${plant.plantUuid}`;
    expectStatus(
      await server.request('PUT', path, {
        token,
        body: { name: 'New Stable', externalIds: ['STABLE-9'] },
      }),
      200,
      'update plant',
    );
    expect(await found('old barn')).toEqual([]);
    expect(await found('barn-1')).toEqual([]);
    expect(await found('new stab')).toEqual(['New Stable']);
    expect(await found('stable-9')).toEqual(['New Stable']);
    expectStatus(await server.request('DELETE', path, { token }), 204, 'delete plant');
    expect(await found('stable')).toEqual([]);
  });

  test('is answered from the index', async () => {
    const db = server.server.context.db;
    if (testEngine() === 'postgres') {
      const { rows } = await sql<{ indexname: string }>`
        select indexname from pg_indexes where indexname like '%_search_trgm'`.execute(db);
      expect(rows.map((row) => row.indexname).sort()).toEqual([
        'plant_external_ids_search_trgm',
        'plants_search_trgm',
      ]);
      return;
    }
    const { rows } = await sql<{ detail: string }>`
      explain query plan select r.plant_uuid from plant_search s
      join plant_search_rows r on r.id = s.rowid where plant_search match '"abc"'`.execute(db);
    expect(rows.map((row) => row.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
  });
});

/**
 * On PostgreSQL concurrent lists go together in one statement (server/db/coalescedStatements.ts)
 * whose rows are handed back list by list: each must still get the page it gets alone.
 */
describe('concurrent searches', () => {
  test('are each answered as alone, on PostgreSQL in statements of several lists', async () => {
    const numbers = Array.from({ length: 12 }, (_, index) => String(index).padStart(2, '0'));
    for (const number of numbers) {
      await createPlant(server, token, {
        name: `Concurrent ${number} Farm`,
        externalIds: [`CC-${number}`],
      });
    }
    const terms = [...numbers.map((number) => `concurrent ${number}`), 'cc-0', 'concurrent', 'co'];
    const asks = [...terms, 'nothing such'].flatMap((search) =>
      [0, 1].map((page) => ({ search, size: 5, page, sort: 'name,desc' })),
    );
    const pool = directPoolOf(server.server.context.db);
    const statements: { text: string; values: unknown[][] }[] = [];
    if (pool) {
      const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
      vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
        const config = args[0] as { name?: string; text: string; values: unknown[][] };
        if (config?.name?.startsWith('plantdesk_coalesced_')) statements.push(config);
        return query(...args);
      }) as typeof pool.query);
    }
    const list = async (query: (typeof asks)[number]) =>
      expectStatus(await server.request('GET', '/plants', { token, query }), 200, query.search);
    try {
      const together = await Promise.all(asks.map(list));
      const alone: unknown[] = [];
      for (const ask of asks) alone.push(await list(ask));
      expect(together).toEqual(alone);
      // Whether asks meet in one statement depends on their arriving while one is in flight: on a
      // loaded machine a round can be served one by one, so a few rounds are allowed.
      for (let round = 0; pool && round < 5 && !batched(statements); round++) {
        await Promise.all(asks.map(list));
      }
    } finally {
      vi.restoreAllMocks();
    }
    const counts = (await Promise.all(asks.map(list))).map((body) => body.page.totalElements);
    expect(counts.slice(0, 2)).toEqual([1, 1]);
    expect(counts.slice(-8)).toEqual([10, 10, 12, 12, 12, 12, 0, 0]);
    if (!pool) return;
    expect(batched(statements)).toBe(true);
    // Batches of any size keep the generic plan: planning a search costs a millisecond.
    const { text, values } = statements[0]!;
    const client = await pool.connect();
    try {
      for (let run = 0; run < 8; run++) {
        const size = 1 + (run % 3);
        const batch = values.map((column) => Array.from({ length: size }, () => column[0]));
        await client.query({ name: 'probe_coalesced_list', text, values: batch });
      }
      const { rows } = await client.query(
        `select generic_plans, custom_plans from pg_prepared_statements where name = $1`,
        ['probe_coalesced_list'],
      );
      expect(rows[0]).toEqual({ generic_plans: 3, custom_plans: 5 });
    } finally {
      client.release(true);
    }
  });
});

/** Texts from few characters (cases, Unicode, LIKE and FTS5 specials), so terms often match. */
const CHARACTERS = ['a', 'B', 'b', 'ö', 'Ö', 'ß', '1', '2', '-', ' ', '%', '_', '"', '*'];
const text = (maxLength: number, characters = CHARACTERS) =>
  fc.array(fc.constantFrom(...characters), { minLength: 1, maxLength }).map((c) => c.join(''));
const plantArbitrary = fc.record({
  // Names and external ids are trimmed: spaces inside names only.
  name: text(8).filter((name) => name.trim() === name),
  externalIds: fc.uniqueArray(
    text(
      6,
      CHARACTERS.filter((c) => c !== ' '),
    ),
    { maxLength: 2 },
  ),
});

interface Listed {
  plantUuid: string;
  name: string;
  externalIds: string[];
}

describe('the plant search, as a property', () => {
  test("finds exactly the caller's plants a naive case-insensitive substring filter finds, paged", async () => {
    const outsider = await server.tokenFor('outsider');
    // Plants of two organizations: the caller must never find the other's.
    const [ours, theirs] = fc.sample(fc.array(plantArbitrary, { minLength: 25, maxLength: 25 }), {
      numRuns: 2,
      seed: 13,
    });
    // External ids are unique per organization: later duplicates are dropped.
    const distinct = (plants: typeof ours) => {
      const taken = new Set<string>();
      return plants!.map((plant) => ({
        ...plant,
        externalIds: plant.externalIds.filter((id) => !taken.has(id) && taken.add(id)),
      }));
    };
    for (const plant of distinct(ours)) await createPlant(server, token, plant);
    for (const plant of distinct(theirs)) await createPlant(server, outsider, plant);
    const everything = await list(token, { size: 200 });
    const contains = (value: string, term: string) =>
      value.toLowerCase().includes(term.toLowerCase());
    const naive = (term: string) =>
      everything.content.filter(
        (plant) => contains(plant.name, term) || plant.externalIds.some((id) => contains(id, term)),
      );
    const term = fc.oneof(
      text(4),
      // A piece of a stored text, its case changed: a term that matches something.
      fc
        .tuple(fc.constantFrom(...everything.content), fc.nat(), fc.nat(), fc.boolean())
        .map(([plant, from, length, upper]) => {
          const source = [plant.name, ...plant.externalIds][from % (1 + plant.externalIds.length)]!;
          const start = from % source.length;
          const piece = source.slice(start, start + 1 + (length % 5));
          return upper ? piece.toUpperCase() : piece;
        }),
    );
    await fc.assert(
      fc.asyncProperty(term, fc.integer({ min: 1, max: 4 }), async (searched, size) => {
        const expected = naive(searched).map((plant) => plant.plantUuid);
        const all = await list(token, { search: searched, size: 200 });
        expect(all.content.map((plant) => plant.plantUuid).sort()).toEqual([...expected].sort());
        expect(all.page.totalElements).toBe(expected.length);
        await expectPaged((query) => list(token, query), { search: searched }, all.content, size);
      }),
      { numRuns: 60, seed: 13 },
    );
  }, 60_000);
});

/**
 * Wider texts than above: LIKE's and GLOB's specials, both quotes, a backslash, letters that
 * lower to others (ASCII, Latin, Cyrillic), a character without case, an astral one (two UTF-16
 * units) and the code points at the ends of the suffixes' ranges (migration 0017); names long
 * enough that terms longer than a suffix (32 characters) go to the trigram indexes instead.
 */
const WIDE = ['a', 'B', '0', '%', '_', '"', "'", '\\', '*', '[', '?', ' ', '-', 'Ö', 'ö', 'ß', 'Ж'];
const WIDE_MORE = ['ж', '日', '😀', '\uD7FF', '\uE000', '\u{10FFFF}'];
const wide = (minLength: number, maxLength: number) =>
  fc
    .array(fc.constantFrom(...WIDE, ...WIDE_MORE), { minLength, maxLength })
    .map((characters) => characters.join(''))
    .filter((value) => value.trim() === value && value.length > 0);

describe('the plant search over wide texts, as a property', () => {
  test('finds what a naive case-insensitive substring filter finds, for terms of 1 to 40 characters', async () => {
    const own = await TestServer.start();
    try {
      const caller = await own.tokenFor('installer');
      const plants = fc.sample(
        fc.record({
          name: wide(1, 48),
          externalIds: fc.uniqueArray(wide(1, 12), { maxLength: 2 }),
        }),
        { numRuns: 30, seed: 21 },
      );
      const taken = new Set<string>();
      for (const plant of plants) {
        const externalIds = plant.externalIds.filter((id) => !taken.has(id) && taken.add(id));
        await createPlant(own, caller, { name: plant.name, externalIds });
      }
      const read = async (query: Record<string, string | number>) =>
        expectStatus<ListPage>(
          await own.request('GET', '/plants', { token: caller, query }),
          200,
          `list ${JSON.stringify(query)}`,
        );
      const everything = (await read({ size: 200 })).content;
      const contains = (value: string, term: string) =>
        value.toLowerCase().includes(term.toLowerCase());
      const term = fc.oneof(
        wide(1, 2),
        wide(3, 6),
        // A piece of a stored text, 1 to 40 characters, its case changed: a term that matches.
        fc
          .tuple(fc.constantFrom(...everything), fc.nat(), fc.nat(), fc.boolean())
          .map(([plant, from, length, upper]) => {
            const source = [plant.name, ...plant.externalIds][
              from % (1 + plant.externalIds.length)
            ]!;
            const characters = [...source];
            const start = from % characters.length;
            const piece = characters.slice(start, start + 1 + (length % 40)).join('');
            return upper ? piece.toUpperCase() : piece;
          })
          .filter((piece) => piece.trim().length > 0),
      );
      await fc.assert(
        fc.asyncProperty(term, fc.integer({ min: 1, max: 3 }), async (searched, size) => {
          const expected = everything.filter(
            (plant) =>
              contains(plant.name, searched) ||
              plant.externalIds.some((id) => contains(id, searched)),
          );
          const all = await read({ search: searched, size: 200 });
          expect(all.content.map((plant) => plant.plantUuid).sort()).toEqual(
            expected.map((plant) => plant.plantUuid).sort(),
          );
          expect(all.page.totalElements).toBe(expected.length);
          await expectPaged(read, { search: searched }, all.content, size);
        }),
        { numRuns: 60, seed: 21 },
      );
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe('the unsearched list, as a property', () => {
  test('every sort, both ways, pages through the whole list as sorting it would, ties by plant', async () => {
    // A clock of its own that moves every third plant: createdAt and updatedAt tie in runs.
    let time = Date.parse('2026-03-01T10:00:00Z');
    const own = await TestServer.start({ now: () => new Date(time) });
    try {
      const caller = await own.tokenFor('installer');
      // Few names, cases mixed: lower(name) ties often.
      const names = fc.sample(fc.constantFrom('b', 'B', 'ö', 'Ö', 'a b', 'A B', 'a', '1'), {
        numRuns: 20,
        seed: 15,
      });
      for (const [index, name] of names.entries()) {
        if (index % 3 === 0) time += 1000;
        expectStatus(
          await own.request('POST', '/plants', { token: caller, body: newPlantBody({ name }) }),
          201,
          'create plant',
        );
      }
      const read = async (query: Record<string, string | number>) =>
        expectStatus<ListPage>(
          await own.request('GET', '/plants', { token: caller, query }),
          200,
          `list ${JSON.stringify(query)}`,
        );
      const everything = (await read({ size: 200, sort: 'plantUuid' })).content;
      const keys: Record<string, (plant: Listed & Record<string, unknown>) => string> = {
        name: (plant) => plant.name.toLowerCase(),
        createdAt: (plant) => String(plant.createdAt),
        updatedAt: (plant) => String(plant.updatedAt),
        plantUuid: (plant) => plant.plantUuid,
      };
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(keys)),
          fc.constantFrom('asc', 'desc'),
          fc.integer({ min: 1, max: 7 }),
          async (property, direction, size) => {
            const key = keys[property]!;
            const sign = direction === 'asc' ? 1 : -1;
            // Code point order, as SQLite's BINARY and PostgreSQL's C.UTF-8 compare.
            const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
            const expected = [...everything].sort(
              (a, b) =>
                sign * compare(key(a as never), key(b as never)) ||
                compare(a.plantUuid, b.plantUuid),
            );
            await expectPaged(read, { sort: `${property},${direction}` }, expected, size);
          },
        ),
        { numRuns: 20, seed: 15 },
      );
    } finally {
      await own.close();
    }
  }, 60_000);
});

interface ListPage {
  content: Listed[];
  page: Record<string, number>;
}

/** Every page is its slice of the whole, sorted list, with the whole's total; past the end, none. */
async function expectPaged(
  read: (query: Record<string, string | number>) => Promise<ListPage>,
  query: Record<string, string>,
  whole: readonly Listed[],
  size: number,
): Promise<void> {
  const pages = Math.ceil(whole.length / size);
  for (let number = 0; number <= pages; number += 1) {
    const page = await read({ ...query, size, page: number });
    expect(page.content).toEqual(whole.slice(number * size, (number + 1) * size));
    expect(page.page).toEqual({ number, size, totalElements: whole.length, totalPages: pages });
  }
}

async function list(caller: string, query: Record<string, string | number>): Promise<ListPage> {
  const response = await server.request('GET', '/plants', { token: caller, query });
  return expectStatus(response, 200, `list ${JSON.stringify(query)}`);
}

/** Some statement answered more than one list. */
const batched = (statements: { values: unknown[][] }[]) =>
  statements.some((statement) => statement.values[0]!.length > 1);
