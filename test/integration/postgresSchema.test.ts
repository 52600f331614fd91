import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { engineOf } from '../../server/db/engine.ts';
import {
  POSTGRES_SEARCH_INDEXES,
  SQLITE_SEARCH_PREFIX,
} from '../../server/db/migrations/0007_plant_search.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../support/testDatabases.ts';

/**
 * The same migrations make the same schema on both engines: tables, columns in order with their
 * types and nullability, and the indexes they create. Runs under `npm run test:postgres`.
 */

type Column = { table: string; name: string; type: string; notNull: boolean };

async function sqliteColumns(opened: OpenedDatabase): Promise<Column[]> {
  const { rows } = await sql<{
    table: string;
    name: string;
    type: string;
    notnull: number;
    pk: number;
  }>`
    select m.name as "table", c.name, c.type, c."notnull", c.pk
    from sqlite_master m join pragma_table_info(m.name) c
    where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like 'kysely_%'
    order by m.name, c.cid`.execute(opened.db);
  // SQLite lets a non-integer primary key column hold null; PostgreSQL makes it not null.
  return rows.filter(notSqliteSearch).map((row) => ({
    table: row.table,
    name: row.name,
    type: row.type.toLowerCase(),
    notNull: row.notnull === 1 || row.pk > 0,
  }));
}

async function postgresColumns(opened: OpenedDatabase): Promise<Column[]> {
  const { rows } = await sql<{ table: string; name: string; type: string; nullable: string }>`
    select table_name as "table", column_name as name, data_type as type, is_nullable as nullable
    from information_schema.columns
    where table_schema = 'public' and table_name not like 'kysely_%'
      -- readings' monthly partitions (0008) are PostgreSQL's storage of one table.
      and table_name not in (select relname from pg_class where relispartition)
    order by table_name collate "C", ordinal_position`.execute(opened.db);
  return rows.map((row) => ({
    table: row.table,
    name: row.name,
    // The one type spelt differently (0014's packed hours): the same bytes on both engines.
    type: row.type === 'bytea' ? 'blob' : row.type,
    notNull: row.nullable === 'NO',
  }));
}

async function sqliteIndexes(opened: OpenedDatabase): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'index' and sql is not null order by name`.execute(
    opened.db,
  );
  return rows.filter((row) => notSqliteSearch({ table: row.name })).map((row) => row.name);
}

/** The plant search's own tables on SQLite, where PostgreSQL has indexes instead (0007). */
const notSqliteSearch = (row: { table: string }) => !row.table.startsWith(SQLITE_SEARCH_PREFIX);

/** Indexes made by `create index`, not those behind a primary key or unique constraint. */
async function postgresIndexes(opened: OpenedDatabase): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select i.relname as name from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_namespace n on n.oid = i.relnamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
    order by i.relname collate "C"`.execute(opened.db);
  return rows.map((row) => row.name).filter((name) => !POSTGRES_SEARCH_INDEXES.includes(name));
}

describe.skipIf(testEngine() !== 'postgres')('the schema on PostgreSQL', () => {
  let database: TestDatabase;
  let postgres: OpenedDatabase;
  let sqlite: OpenedDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    postgres = await openDatabase(database.url);
    sqlite = await openDatabase(':memory:');
  });
  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
    await database?.drop();
  });

  test('opens on PostgreSQL for a postgres:// URL', () => {
    expect(postgres.engine).toBe('postgres');
    expect(engineOf(postgres.db)).toBe('postgres');
    expect(engineOf(sqlite.db)).toBe('sqlite');
  });

  // In any order: SQLite's rebuild in 0004 put device_types.description before category, where
  // PostgreSQL, altering in place, keeps 0001's order. Rows are read by column name, never by
  // position, so the order changes no answer.
  test('has the tables and columns SQLite has, of the same types', async () => {
    const byName = (columns: Column[]) =>
      columns.toSorted((a, b) => `${a.table}.${a.name}`.localeCompare(`${b.table}.${b.name}`));
    expect(byName(await postgresColumns(postgres))).toEqual(byName(await sqliteColumns(sqlite)));
  });

  test('has the indexes SQLite has', async () => {
    expect(await postgresIndexes(postgres)).toEqual(await sqliteIndexes(sqlite));
  });

  test("has each engine's own plant search index (0007)", async () => {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where indexname like '%_search_trgm'
      order by indexname collate "C"`.execute(postgres.db);
    expect(rows.map((row) => row.name)).toEqual(POSTGRES_SEARCH_INDEXES);
    const { rows: tables } = await sql<{ name: string }>`
      select name from sqlite_master where name in ('plant_search', 'plant_search_rows')
      order by name`.execute(sqlite.db);
    expect(tables.map((row) => row.name)).toEqual(['plant_search', 'plant_search_rows']);
  });

  test('answers bigint columns and counts as numbers', async () => {
    const row = await sql<{ big: unknown; total: unknown; summed: unknown }>`
      select cast(1795610291148 as bigint) as big, count(*) as total,
        sum(cast(2 as bigint)) as summed`.execute(postgres.db);
    expect(row.rows[0]).toEqual({ big: 1795610291148, total: 1, summed: 2 });
  });

  test('migrates once: opening the database again changes nothing', async () => {
    const again = await openDatabase(database.url);
    try {
      expect(await postgresColumns(again)).toEqual(await postgresColumns(postgres));
    } finally {
      await again.close();
    }
  });
});
