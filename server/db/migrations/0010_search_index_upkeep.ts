import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';
import { POSTGRES_SEARCH_INDEXES } from './0007_plant_search.ts';

/**
 * The plant search's indexes (migration 0007), kept cheap to read after plants are added in
 * numbers.
 *
 * PostgreSQL: the trigram GIN indexes without GIN's pending list. With `fastupdate` on (the default) new entries wait in an unsorted list that every
 * search reads in full until a VACUUM files them: after plants are added in numbers (2,000
 * through the API, in the search benchmark) each search read all of them, and the planner, which
 * counts that list into the index's cost, scanned both tables instead (about 1.5 ms against 0.1 ms
 * for both indexes; see README, Performance). Filing each entry as it is written costs a little
 * more per plant write, which is rare next to searches. Entries already waiting are filed now.
 *
 * SQLite: the FTS5 trigram table written in pages of 256 bytes rather than 4,050, so that its
 * doclist index can skip most of a common trigram's long list (`sit` of every `site-…` id) when a
 * rare one (`234`) decides: `site-01234` among 2,000 plants about 20 µs instead of 120 µs, merged
 * (features/plants/searchIndexUpkeep.ts keeps it merged). Rewritten merged now, in the new pages.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  return engine === 'postgres' ? upOnPostgres(db) : upOnSqlite(db);
}

async function upOnSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`insert into plant_search (plant_search, rank) values ('pgsz', 256)`.execute(db);
  await sql`insert into plant_search (plant_search) values ('optimize')`.execute(db);
}

async function upOnPostgres(db: Kysely<unknown>): Promise<void> {
  for (const index of POSTGRES_SEARCH_INDEXES) {
    // Absent where pg_trgm was not available (0007 then left the search scanning).
    const { rows } = await sql<{ present: boolean }>`
      select to_regclass(${index}) is not null as present`.execute(db);
    if (!rows[0]?.present) continue;
    await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}
