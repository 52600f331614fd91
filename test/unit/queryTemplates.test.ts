import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openSqliteDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { rowsOf } from '../../server/db/fastQuery.ts';
import { templateQuery } from '../../server/db/queryTemplates.ts';

let opened: OpenedDatabase;

beforeEach(async () => {
  opened = await openSqliteDatabase(':memory:');
  await opened.db
    .insertInto('settings')
    .values(['a', 'b', 'c', 'd'].map((key, index) => ({ key, value: String(index) })))
    .execute();
});

afterEach(async () => {
  await opened.close();
});

/** Keys among `keys` (when given), above `after`, at most `limit`: shaped by `keys`' length. */
function settings(keys: string[] | undefined, after: string, limit: number) {
  const db = opened.db;
  let builds = 0;
  const query = templateQuery(
    db,
    `settings ${keys?.length ?? 'all'}`,
    { keys, after, limit },
    (v) => {
      builds += 1;
      let chosen = db.selectFrom('settings').select('key').where('key', '>', v.after);
      if (v.keys) chosen = chosen.where('key', 'in', v.keys);
      // A constant of the builder's own stays as it is.
      return chosen.where('value', '!=', 'never').orderBy('key').limit(v.limit);
    },
  );
  return { rows: () => rowsOf(db, query).then((rows) => rows.map((row) => row.key)), builds };
}

describe('templateQuery', () => {
  test('builds each shape once and runs it with each call’s values, arrays included', async () => {
    const first = settings(undefined, 'a', 2);
    expect(first.builds).toBe(1);
    expect(await first.rows()).toEqual(['b', 'c']);
    const again = settings(undefined, 'b', 10);
    expect(again.builds).toBe(0);
    expect(await again.rows()).toEqual(['c', 'd']);
    const listed = settings(['a', 'd'], '', 10);
    expect(listed.builds).toBe(1);
    expect(await listed.rows()).toEqual(['a', 'd']);
    const otherList = settings(['b', 'c'], 'b', 10);
    expect(otherList.builds).toBe(0);
    expect(await otherList.rows()).toEqual(['c']);
  });

  test('refuses a builder that transforms a value or leaves one out', () => {
    const db = opened.db;
    expect(() =>
      templateQuery(db, 'lowered', { key: 'A' }, (v) =>
        db.selectFrom('settings').select('key').where('key', '=', v.key.toLowerCase()),
      ),
    ).toThrow(/every value must be used/);
    expect(() =>
      templateQuery(db, 'unused', { key: 'a', other: 'b' }, (v) =>
        db.selectFrom('settings').select('key').where('key', '=', v.key),
      ),
    ).toThrow(/every value must be used/);
  });
});
