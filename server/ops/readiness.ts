import { sql } from 'kysely';
import { type Db, migratorOf } from '../db/database.ts';

export interface Readiness {
  status: 'ready' | 'not ready';
  /** `ok` when a trivial query answers. */
  database: 'ok' | 'unavailable';
  /** `unknown` when the database cannot be asked. */
  migrations: 'applied' | 'pending' | 'unknown';
}

/** Whether this server can answer requests: its database answers and is fully migrated. */
export async function checkReadiness(db: Db): Promise<Readiness> {
  try {
    // A select built as one, not raw SQL: raw SQL counts as a write (writeGeneration.ts), and a
    // probe every few seconds would empty every instance's caches each time.
    await db.selectNoFrom(sql<number>`1`.as('one')).execute();
  } catch {
    return { status: 'not ready', database: 'unavailable', migrations: 'unknown' };
  }
  let migrations: Readiness['migrations'];
  try {
    const known = await migratorOf(db).getMigrations();
    migrations = known.every((migration) => migration.executedAt !== undefined)
      ? 'applied'
      : 'pending';
  } catch {
    migrations = 'unknown';
  }
  const ready = migrations === 'applied';
  return { status: ready ? 'ready' : 'not ready', database: 'ok', migrations };
}
