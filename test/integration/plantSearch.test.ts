import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPlant, expectStatus } from '../support/entities.ts';
import { testEngine } from '../support/testDatabases.ts';
import { TestServer } from '../support/testServer.ts';

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
