import { PostgresAdapter, type DialectAdapter } from 'kysely';

/**
 * The two database engines: SQLite (`node:sqlite`, a file or `:memory:`; the default and the
 * Local sandbox's) and PostgreSQL (a `postgres://` URL, for a server shared by a team).
 */
export type Engine = 'sqlite' | 'postgres';

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** Which engine a `--db` value names: a `postgres://` URL, else an SQLite path or `:memory:`. */
export function engineOfLocation(location: string): Engine {
  return POSTGRES_URL.test(location) ? 'postgres' : 'sqlite';
}

/**
 * The engine behind a Kysely handle, a transaction's included: for the few statements that
 * must be written differently for each (see sqlDialect.ts).
 */
export function engineOf(db: { getExecutor(): { adapter: DialectAdapter } }): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A `postgres://` URL without its password, for logs and error messages. */
export function redactedLocation(location: string): string {
  if (engineOfLocation(location) === 'sqlite') return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}
