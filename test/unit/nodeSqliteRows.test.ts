import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { NodeSqliteDatabase } from '../../server/db/nodeSqlite.ts';

let sqlite: NodeSqliteDatabase;

beforeEach(() => {
  sqlite = new NodeSqliteDatabase(new DatabaseSync(':memory:'));
  sqlite.raw.exec('create table t (a text, b real, c integer, d blob)');
  sqlite.raw
    .prepare('insert into t values (?, ?, ?, ?)')
    .run('x"y', 1.5, 7, new Uint8Array([1, 2]));
  sqlite.raw.prepare('insert into t values (?, ?, ?, ?)').run(null, -0, 9007199254740991, null);
});

afterEach(() => sqlite.close());

/** Keys in order with their values: what a row answers, whatever its prototype. */
const entriesOf = (rows: readonly object[]) => rows.map((row) => Object.entries(row));

describe('NodeSqliteDatabase.allRows', () => {
  test.each([
    ['every column', 'select * from t order by rowid'],
    ['a later column of the same name wins in the first one’s place', 'select a, b as a, c from t'],
    ['a quoted name', `select 'q' as "we""ird", null as n`],
    ['a name the object literal would take as the prototype', 'select 1 as "__proto__", 2 as b'],
    ['no row', 'select * from t where 0'],
  ])('answers the keys and values node:sqlite does: %s', (_, sql) => {
    const native = sqlite.prepare(sql).all([]) as object[];
    const rows = sqlite.allRows(sql, []);
    expect(entriesOf(rows)).toEqual(entriesOf(native));
    expect(JSON.stringify(rows)).toBe(JSON.stringify(native));
  });

  test('binds the parameters, and each run reads afresh', () => {
    const sql = 'select a, c from t where c = ?';
    expect(sqlite.allRows(sql, [7])).toEqual([{ a: 'x"y', c: 7 }]);
    sqlite.raw.prepare('update t set a = ? where c = 7').run('changed');
    expect(sqlite.allRows(sql, [7])).toEqual([{ a: 'changed', c: 7 }]);
    expect(sqlite.allRows(sql, [8])).toEqual([]);
  });

  test('a column named __proto__ is an own key, not the prototype', () => {
    const [row] = sqlite.allRows('select 1 as "__proto__"', []);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row!)).toEqual(['__proto__']);
  });
});
