import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * Indexes for the plant list's substring search (`GET /plants?search=`: the term anywhere in the
 * name or an external id, ignoring case; see features/plants/plantSearch.ts). Each engine has
 * its own kind, so the schemas differ here on purpose (postgresSchema.test.ts knows):
 *
 * - PostgreSQL: trigram GIN indexes (pg_trgm) on lower(name) and lower(external_id), which
 *   serve `lower(column) LIKE '%term%'` as it is written. pg_trgm ships with PostgreSQL and is a
 *   trusted extension (a database owner may create it); where it is not available the search
 *   still answers, by scanning.
 * - SQLite: an FTS5 table with the trigram tokenizer over the same lowered texts, kept by
 *   triggers. Lowered with the server's lower() (JavaScript's Unicode folding, registered on every
 *   connection, see database.ts), and matched case-sensitively, so a match is exactly a substring
 *   of lower(text), as the scan finds. Its rows are numbered by `plant_search_rows`, whose
 *   INTEGER PRIMARY KEY a VACUUM keeps (an implicit rowid it may renumber), and which finds a
 *   plant's rows to delete by index.
 */

/** What only SQLite has: the search table, its FTS5 shadow tables, their index. */
export const SQLITE_SEARCH_PREFIX = 'plant_search';
/** What only PostgreSQL has. */
export const POSTGRES_SEARCH_INDEXES = ['plant_external_ids_search_trgm', 'plants_search_trgm'];

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  return engine === 'postgres' ? upOnPostgres(db) : upOnSqlite(db);
}

async function upOnPostgres(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ available: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available`.execute(
    db,
  );
  if (!rows[0]?.available) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index plants_search_trgm on plants using gin (lower(name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index plant_external_ids_search_trgm on plant_external_ids
    using gin (lower(external_id) gin_trgm_ops)`.execute(db);
}

async function upOnSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`create table plant_search_rows (
    id integer primary key,
    plant_uuid text not null,
    external_id text
  )`.execute(db);
  await sql`create index plant_search_rows_plant on plant_search_rows (plant_uuid, external_id)`.execute(
    db,
  );
  await sql`create virtual table plant_search using fts5(
    text, tokenize = 'trigram case_sensitive 1'
  )`.execute(db);

  // A row for each name (external_id null) and each external id.
  const addName = `
    insert into plant_search_rows (plant_uuid, external_id) values (new.plant_uuid, null);
    insert into plant_search (rowid, text) values (last_insert_rowid(), lower(new.name));`;
  const dropName = `
    delete from plant_search where rowid in (select id from plant_search_rows
      where plant_uuid = old.plant_uuid and external_id is null);
    delete from plant_search_rows where plant_uuid = old.plant_uuid and external_id is null;`;
  const addExternalId = `
    insert into plant_search_rows (plant_uuid, external_id) values (new.plant_uuid, new.external_id);
    insert into plant_search (rowid, text) values (last_insert_rowid(), lower(new.external_id));`;
  const dropExternalId = `
    delete from plant_search where rowid in (select id from plant_search_rows
      where plant_uuid = old.plant_uuid and external_id = old.external_id);
    delete from plant_search_rows where plant_uuid = old.plant_uuid and external_id = old.external_id;`;
  const triggers = [
    `create trigger plant_search_plant_insert after insert on plants begin ${addName} end`,
    `create trigger plant_search_plant_rename after update of name on plants begin ${dropName} ${addName} end`,
    `create trigger plant_search_plant_delete after delete on plants begin ${dropName} end`,
    `create trigger plant_search_external_id_insert after insert on plant_external_ids begin ${addExternalId} end`,
    `create trigger plant_search_external_id_update after update of plant_uuid, external_id on plant_external_ids begin ${dropExternalId} ${addExternalId} end`,
    `create trigger plant_search_external_id_delete after delete on plant_external_ids begin ${dropExternalId} end`,
  ];
  for (const trigger of triggers) await sql.raw(trigger).execute(db);

  // The plants already there.
  await sql`insert into plant_search_rows (plant_uuid, external_id)
    select plant_uuid, null from plants
    union all select plant_uuid, external_id from plant_external_ids`.execute(db);
  await sql`insert into plant_search (rowid, text)
    select r.id, lower(coalesce(r.external_id, p.name))
    from plant_search_rows r join plants p on p.plant_uuid = r.plant_uuid`.execute(db);
}
