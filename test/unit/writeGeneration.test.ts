import { sql } from 'kysely';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openSqliteDatabase, type OpenedDatabase } from '../../server/db/database.ts';

let opened: OpenedDatabase;

beforeEach(async () => {
  opened = await openSqliteDatabase(':memory:');
});

afterEach(async () => {
  await opened.close();
});

test('reads leave the write generation alone; every kind of write moves it', async () => {
  const { db, writes } = opened;
  const start = writes.value;
  await db.selectFrom('settings').selectAll().execute();
  expect(writes.value).toBe(start);

  await db.insertInto('settings').values({ key: 'k', value: '1' }).execute();
  const afterInsert = writes.value;
  expect(afterInsert).toBeGreaterThan(start);

  await db.updateTable('settings').set({ value: '2' }).where('key', '=', 'k').execute();
  expect(writes.value).toBeGreaterThan(afterInsert);

  const beforeTransaction = writes.value;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('settings').where('key', '=', 'k').execute();
  });
  expect(writes.value).toBeGreaterThan(beforeTransaction);

  const beforeRaw = writes.value;
  await sql`delete from settings`.execute(db);
  expect(writes.value).toBeGreaterThan(beforeRaw);
});
