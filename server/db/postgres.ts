import {
  Kysely,
  PostgresDialect,
  type CompiledQuery,
  type KyselyPlugin,
  type LogEvent,
} from 'kysely';
import pg from 'pg';
import type { StatementObserver } from './nodeSqlite.ts';
import type { Database } from './tables.ts';
import { notifyingDialect } from './writeNotifications.ts';

/**
 * PostgreSQL's answers in the shapes SQLite gives. `pg` hands bigint (int8) and numeric values
 * over as strings, since they may not fit a double; here every bigint is a count or an epoch
 * millisecond (`readings.taken_at`, `sensor_rollups.bucket_start`, `count(*)`, `sum()` of
 * integers), all far below 2^53, and numeric only appears as `sum()` of a bigint column. So both
 * become numbers, and a value that would lose precision is an error rather than a wrong number.
 */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

function safeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} exceeds 2^53`);
  return value;
}

export const NUMBER_TYPES = new pg.TypeOverrides();
NUMBER_TYPES.setTypeParser(INT8_OID, safeInteger);
NUMBER_TYPES.setTypeParser(NUMERIC_OID, (text: string) => Number(text));

/** A pool of connections to `url`, answering numbers as above. */
export function postgresPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, types: NUMBER_TYPES });
  // An idle connection that the server drops (a restart, a network cut) must not crash the
  // process: the pool discards it and opens another on the next query.
  pool.on('error', () => {});
  return pool;
}

/**
 * Kysely over `pool`. With `instanceId`, every write is notified to the other server instances
 * on the database (server/db/writeNotifications.ts); with `observe`, every statement is timed
 * (metrics), as `NodeSqliteDatabase` does on SQLite.
 */
export function postgresKysely(
  pool: pg.Pool,
  plugins: KyselyPlugin[],
  instanceId?: string,
  observe?: StatementObserver,
): Kysely<Database> {
  const dialect = new PostgresDialect({ pool });
  return new Kysely<Database>({
    dialect: instanceId === undefined ? dialect : notifyingDialect(dialect, instanceId),
    plugins,
    ...(observe && {
      log: (event: LogEvent) =>
        observe(kindOf(event.query), event.queryDurationMillis / 1000, event.level === 'error'),
    }),
  });
}

/** A select reads; anything else (a RETURNING insert included) counts as a write. */
function kindOf(query: CompiledQuery): 'read' | 'write' {
  if (query.query.kind === 'SelectQueryNode') return 'read';
  return query.query.kind === 'RawNode' && /^\s*select\b/i.test(query.sql) ? 'read' : 'write';
}
