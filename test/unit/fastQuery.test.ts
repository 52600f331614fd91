import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openSqliteDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { reusableQuery, rowsOf, tuplesOf } from '../../server/db/fastQuery.ts';

let opened: OpenedDatabase;

beforeEach(async () => {
  opened = await openSqliteDatabase(':memory:');
  await opened.db
    .insertInto('settings')
    .values([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
    ])
    .execute();
});

afterEach(async () => {
  await opened.close();
});

const settingByKey = reusableQuery((db, key: string) =>
  db.selectFrom('settings').select(['key', 'value']).where('key', '=', key),
);

describe('reusableQuery', () => {
  test('runs the compiled shape with each call’s own values', async () => {
    expect(await settingByKey(opened.db, 'a')).toEqual([{ key: 'a', value: '1' }]);
    expect(await settingByKey(opened.db, 'b')).toEqual([{ key: 'b', value: '2' }]);
    expect(await settingByKey(opened.db, 'missing')).toEqual([]);
  });

  test('keeps the builder’s own constants next to the arguments', async () => {
    const between = reusableQuery((db, low: string, high: string) =>
      db
        .selectFrom('settings')
        .select('key')
        .where('key', '>=', low)
        .where('key', '<=', high)
        .where('value', '!=', 'never')
        .orderBy('key'),
    );
    expect(await between(opened.db, 'a', 'b')).toEqual([{ key: 'a' }, { key: 'b' }]);
    expect(await between(opened.db, 'b', 'z')).toEqual([{ key: 'b' }]);
  });

  test('refuses, at its first call, a builder that does not bind every argument', () => {
    const unbound = reusableQuery((db, _key: string) => db.selectFrom('settings').select('key'));
    expect(() => unbound(opened.db, 'a')).toThrow(/bound value/);
  });
});

describe('rowsOf', () => {
  test('does not read another request’s uncommitted writes while its transaction is open', async () => {
    const { db } = opened;
    const query = db.selectFrom('settings').select('value').where('key', '=', 'a').compile();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writer = db.transaction().execute(async (trx) => {
      await trx
        .updateTable('settings')
        .set({ value: 'uncommitted' })
        .where('key', '=', 'a')
        .execute();
      await held;
      throw new Error('roll back');
    });
    // Let the transaction reach its write.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const reading = rowsOf(db, query);
    release();
    await expect(writer).rejects.toThrow('roll back');
    expect(await reading).toEqual([{ value: '1' }]);
  });

  test('inside a transaction, reads that transaction’s own writes', async () => {
    const { db } = opened;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('settings').set({ value: 'mine' }).where('key', '=', 'b').execute();
      const query = trx.selectFrom('settings').select('value').where('key', '=', 'b').compile();
      expect(await rowsOf(trx, query)).toEqual([{ value: 'mine' }]);
    });
  });
});

describe('tuplesOf', () => {
  const settings = (db: OpenedDatabase['db']) =>
    db.selectFrom('settings').select(['value', 'key']).orderBy('key').compile();

  test('answers the rows as arrays in select order, directly or through Kysely', async () => {
    const { db } = opened;
    expect(await tuplesOf(db, settings(db))).toEqual([
      ['1', 'a'],
      ['2', 'b'],
    ]);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('settings').set({ value: 'mine' }).where('key', '=', 'b').execute();
      expect(await tuplesOf(trx, settings(trx))).toEqual([
        ['1', 'a'],
        ['mine', 'b'],
      ]);
    });
  });
});
