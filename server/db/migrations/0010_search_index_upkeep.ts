import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';
import { POSTGRES_SEARCH_INDEXES } from './0007_plant_search.ts';

/**
 * The plant search's trigram GIN indexes (migration 0007) without GIN's pending list, on
 * PostgreSQL. With `fastupdate` on (the default) new entries wait in an unsorted list that every
 * search reads in full until a VACUUM files them: after plants are added in numbers (2,000
 * through the API, in the search benchmark) each search read all of them, and the planner, which
 * counts that list into the index's cost, scanned both tables instead (about 1.5 ms against 0.1 ms
 * for both indexes; see README, Performance). Filing each entry as it is written costs a little
 * more per plant write, which is rare next to searches. Entries already waiting are filed now.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  for (const index of POSTGRES_SEARCH_INDEXES) {
    // Absent where pg_trgm was not available (0007 then left the search scanning).
    const { rows } = await sql<{ present: boolean }>`
      select to_regclass(${index}) is not null as present`.execute(db);
    if (!rows[0]?.present) continue;
    await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}
