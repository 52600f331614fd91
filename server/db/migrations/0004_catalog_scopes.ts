import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * Catalog entries of one organization. The reference catalogs (sensor types, device types, load
 * signatures) were one list shared by every organization; an entry now belongs either to all
 * (`organization_uuid` null: the shared reference entries, written only with a platform
 * permission) or to the organization that added it, and only it sees it. A code is unique within
 * its scope, so each catalog's unique column constraint becomes a unique index over
 * (scope, code): SQLite cannot drop a column constraint, so the three tables are rebuilt, with
 * foreign keys off while the rows move (the documented procedure, outside a transaction).
 */

type TableBuilder = ReturnType<Kysely<unknown>['schema']['createTable']>;

/** The table as 0001 made it, without the unique code, with the owning organization. */
function scopedTable(
  db: Kysely<unknown>,
  table: string,
  idColumn: string,
  ownColumns: (builder: TableBuilder) => TableBuilder,
): Promise<void> {
  const start = db.schema
    .createTable(`${table}_scoped`)
    .addColumn(idColumn, 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text');
  return ownColumns(start)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('organization_uuid', 'text', (c) => c.references('organizations.organization_uuid'))
    .execute();
}

const SCOPED_TABLES: {
  table: string;
  idColumn: string;
  ownColumns: (builder: TableBuilder) => TableBuilder;
  columns: string;
}[] = [
  {
    table: 'sensor_types',
    idColumn: 'sensor_type_uuid',
    ownColumns: (builder) => builder,
    columns: 'sensor_type_uuid, code, name, description, created_at, updated_at',
  },
  {
    table: 'device_types',
    idColumn: 'device_type_uuid',
    ownColumns: (builder) => builder.addColumn('category', 'text', (c) => c.notNull()),
    columns: 'device_type_uuid, code, name, category, description, created_at, updated_at',
  },
  {
    table: 'load_signatures',
    idColumn: 'load_signature_uuid',
    ownColumns: (builder) =>
      builder
        .addColumn('device_type_uuid', 'text', (c) => c.references('device_types.device_type_uuid'))
        .addColumn('hourly_profile', 'text', (c) => c.notNull())
        .addColumn('typical_daily_kwh', 'double precision'),
    columns:
      'load_signature_uuid, code, name, description, device_type_uuid, hourly_profile, typical_daily_kwh, created_at, updated_at',
  },
];

async function hasScopeColumn(db: Kysely<unknown>, table: string): Promise<boolean> {
  const { rows } = await sql<{
    name: string;
  }>`select name from pragma_table_info(${table})`.execute(db);
  return rows.some((row) => row.name === 'organization_uuid');
}

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  return engine === 'postgres' ? upOnPostgres(db) : upOnSqlite(db);
}

/**
 * PostgreSQL alters the tables in place (the migrator runs it in a transaction), leaving the
 * same columns and indexes as the rebuild on SQLite. One difference: device_types keeps 0001's
 * column order (category before description), which the rebuild swapped; nothing reads columns
 * by position. A column's unique constraint is named `<table>_code_key` there.
 */
async function upOnPostgres(db: Kysely<unknown>): Promise<void> {
  for (const { table } of SCOPED_TABLES) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_code_key`)}`.execute(
      db,
    );
    await db.schema
      .alterTable(table)
      .addColumn('organization_uuid', 'text', (c) =>
        c.references('organizations.organization_uuid'),
      )
      .execute();
    await scopeIndexes(db, table);
  }
}

// The indentation inside the statements is as released: SQLite keeps an index's text as written.
async function scopeIndexes(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`create unique index ${sql.id(`${table}_code_in_scope`)}
          on ${sql.table(table)} (coalesce(organization_uuid, ''), code)`.execute(db);
  await sql`create index ${sql.id(`${table}_organization`)}
          on ${sql.table(table)} (organization_uuid)`.execute(db);
}

async function upOnSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      for (const { table, idColumn, ownColumns, columns } of SCOPED_TABLES) {
        // A run cut short after its commit but before the migration was recorded is done.
        if (await hasScopeColumn(db, table)) continue;
        await scopedTable(db, table, idColumn, ownColumns);
        await sql`insert into ${sql.table(`${table}_scoped`)} (${sql.raw(columns)})
          select ${sql.raw(columns)} from ${sql.table(table)}`.execute(db);
        await sql`drop table ${sql.table(table)}`.execute(db);
        await sql`alter table ${sql.table(`${table}_scoped`)} rename to ${sql.table(table)}`.execute(
          db,
        );
        await scopeIndexes(db, table);
      }
      const { rows } = await sql`PRAGMA foreign_key_check`.execute(db);
      if (rows.length > 0)
        throw new Error(`Foreign keys broken by the rebuild: ${JSON.stringify(rows)}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
