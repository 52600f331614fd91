import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { readingMonthOfPartition } from '../db/readingMonths.ts';
import { readingPartitionsOf } from '../db/readingPartitions.ts';
import { bucketStartOf } from './rollups.ts';

/**
 * Raw retention (`--raw-retention-days N`): raw readings older than N days go, their 15-minute
 * rollups (and whatever is rolled up from them) stay, so every metric of those days answers as
 * before; only raw-sample views (`seconds`/`minutes` history) have nothing left there.
 *
 * The horizon is rounded down to a 15-minute bucket start: a bucket is either wholly before it
 * (its rollup is final: writes at or after the horizon never recompute it, since the store
 * recomputes from the bucket of the reading before the new ones, and there is none before the
 * horizon any more) or wholly after it. Readings older than the horizon are refused by the
 * readings route (422).
 *
 * PostgreSQL detaches and drops every monthly partition that ends at or before the horizon, then
 * deletes the boundary month's rows older than the horizon, so both engines keep exactly the
 * readings at or after it. SQLite deletes in batches of DELETE_BATCH rows per sensor, yielding
 * between them, so that requests are served meanwhile.
 */

const DAY_MS = 86_400_000;
const DELETE_BATCH = 5_000;

/** The first instant whose raw readings are kept. */
export function rawRetentionHorizon(nowMs: number, days: number): number {
  return bucketStartOf(nowMs - days * DAY_MS);
}

export interface RetentionResult {
  horizonMs: number;
  /** Monthly partitions dropped whole (PostgreSQL). */
  partitionsDropped: string[];
  /** Rows deleted one by one: SQLite's, and PostgreSQL's boundary month's. */
  readingsDeleted: number;
}

/** Drops the raw readings taken before `horizonMs`. */
export async function dropRawReadingsBefore(db: Db, horizonMs: number): Promise<RetentionResult> {
  const postgres = engineOf(db) === 'postgres';
  const partitionsDropped = postgres ? await dropMonthsBefore(db, horizonMs) : [];
  const sensors = await db.selectFrom('sensors').select('sensor_uuid').execute();
  let readingsDeleted = 0;
  for (const { sensor_uuid: sensorUuid } of sensors) {
    readingsDeleted += postgres
      ? await deleteOlder(db, sensorUuid, horizonMs)
      : await deleteOlderInBatches(db, sensorUuid, horizonMs);
  }
  return { horizonMs, partitionsDropped, readingsDeleted };
}

async function dropMonthsBefore(db: Db, horizonMs: number): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name
    from pg_inherits
    join pg_class child on child.oid = pg_inherits.inhrelid
    join pg_class parent on parent.oid = pg_inherits.inhparent
    where parent.relname = 'readings' and parent.relnamespace = current_schema()::regnamespace
    order by child.relname`.execute(db);
  const dropped: string[] = [];
  for (const { name } of rows) {
    const month = readingMonthOfPartition(name);
    if (!month || month.endMs > horizonMs) continue;
    // Each its own short statement: detaching locks `readings` only for a moment. Another
    // instance may have dropped it meanwhile, hence `if exists` and the check of the detach.
    try {
      await sql`alter table readings detach partition ${sql.id(name)}`.execute(db);
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
    }
    await sql`drop table if exists ${sql.id(name)}`.execute(db);
    readingPartitionsOf(db)?.forget(month);
    dropped.push(name);
  }
  return dropped;
}

const UNDEFINED_TABLE = '42P01';

/** PostgreSQL: only the boundary month is left to search (partition pruning). */
async function deleteOlder(db: Db, sensorUuid: string, horizonMs: number): Promise<number> {
  const { numDeletedRows } = await db
    .deleteFrom('readings')
    .where('sensor_uuid', '=', sensorUuid)
    .where('taken_at', '<', horizonMs)
    .executeTakeFirst();
  return Number(numDeletedRows);
}

async function deleteOlderInBatches(
  db: Db,
  sensorUuid: string,
  horizonMs: number,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    // The primary key's range (sensor_uuid, taken_at < horizon), a batch at a time.
    const { numAffectedRows } = await sql`delete from readings where rowid in (
        select rowid from readings
        where sensor_uuid = ${sensorUuid} and taken_at < ${horizonMs}
        order by taken_at limit ${DELETE_BATCH})`.execute(db);
    const batch = Number(numAffectedRows ?? 0);
    deleted += batch;
    if (batch < DELETE_BATCH) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
