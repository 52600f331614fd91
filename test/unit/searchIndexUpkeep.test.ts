import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openSqliteDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { createOrganization } from '../../server/features/auth/userStore.ts';
import { insertPlant } from '../../server/features/plants/plantStore.ts';
import { SearchIndexUpkeep } from '../../server/features/plants/searchIndexUpkeep.ts';

let opened: OpenedDatabase;
const NOW = '2026-11-21T10:00:00.000Z';

beforeEach(async () => {
  opened = await openSqliteDatabase(':memory:');
  const organization = await createOrganization(opened.db, 'Org', NOW);
  // One transaction each, as through the API: each leaves a small b-tree of its own.
  for (let index = 0; index < 40; index++) {
    const number = String(index).padStart(5, '0');
    await insertPlant(
      opened.db,
      organization,
      {
        name: `Fleet plant ${number}`,
        externalIds: [`SITE-${number}`],
        location: { latitude: 1, longitude: 2, timezone: 'UTC' },
      },
      NOW,
    );
  }
});

afterEach(async () => {
  await opened.close();
});

/** Whether one more round of merging (a page) still finds work: FTS5's own test. */
async function mergeLeft(): Promise<boolean> {
  const total = async () =>
    (await sql<{ n: number }>`select total_changes() as n`.execute(opened.db)).rows[0]!.n;
  const before = await total();
  await sql`insert into plant_search (plant_search, rank) values ('merge', -1)`.execute(opened.db);
  return (await total()) - before >= 2;
}

const found = async (phrase: string) =>
  (
    await sql<{ rowid: number }>`select rowid from plant_search where plant_search match ${phrase}
      order by rowid`.execute(opened.db)
  ).rows.map((row) => row.rowid);

describe('SearchIndexUpkeep', () => {
  test('merges the search table once writing pauses, finding the same rows', async () => {
    const before = await Promise.all(['"site-00012"', '"plant"', '"00"'].map(found));
    expect(await mergeLeft()).toBe(true);
    const upkeep = new SearchIndexUpkeep(opened.db, 10);
    const generation = opened.writes.value;
    upkeep.noteWrite();
    upkeep.noteWrite();
    await upkeep.settled();
    // Merging changes no answer: caches keyed on the write generation stay valid.
    expect(opened.writes.value).toBe(generation);
    expect(await mergeLeft()).toBe(false);
    expect(await Promise.all(['"site-00012"', '"plant"', '"00"'].map(found))).toEqual(before);
    expect(before[0]).toHaveLength(1);
    expect(before[1]).toHaveLength(40);
    await upkeep.stop();
  });

  test('once stopped, starts nothing', async () => {
    const upkeep = new SearchIndexUpkeep(opened.db, 10);
    await upkeep.stop();
    upkeep.noteWrite();
    await upkeep.settled();
    expect(await mergeLeft()).toBe(true);
  });
});
