import type pg from 'pg';
import type { Db } from '../../db/database.ts';
import { CoalescedReads } from '../../db/coalescedReads.ts';
import { directPoolOf } from '../../db/fastQuery.ts';
import { sharedWritesOf } from '../../db/sharedWrites.ts';
import type { TimeRange } from './localTime.ts';

/**
 * A sensor's stored hourly points of some UTC days (`hourPointsJson.ts`), on PostgreSQL read as
 * one text, their days' texts joined by commas in day order, together with the reads other
 * requests ask at the same time (`CoalescedReads`). Each statement is a round trip whose fixed
 * cost on our side (mostly the socket write that wakes the backend) was as much as decoding the
 * ~31 rows a 30-day window had come as; one row per ask decodes in one piece as well.
 *
 * Its first row is the cluster's snapshot, as coarseRollupBatches.ts reads it: the history
 * routes then skip the catch-up before the request (answersAsOfArrival.ts).
 */

export interface StoredDaysText {
  /** How many of the asked days have a row. */
  days: number;
  /** Their points, day after day, commas between (empty when there are none). */
  points: string;
}

interface DaysAsk {
  sensorUuid: string;
  days: TimeRange;
}

const SNAPSHOT_ROW = -1;

/**
 * Arrays `unnest`ed from sub-selects and one lateral aggregate per ask, for the reasons
 * coarseRollupBatches.ts gives: the generic plan is kept, and each ask stays a range of the
 * primary key. The rows come in no particular order (each names its ask): sorting them copied
 * every ask's text, some 52 KiB for 30 days, once more in the backend (a fifth of its CPU
 * per ask).
 */
export const STORED_DAYS_READ = `select q.ask, p.days, p.points
    from unnest((select $1::int4[]), (select $2::text[]), (select $3::int8[]), (select $4::int8[]))
      as q(ask, sensor_uuid, from_ms, to_ms)
    cross join lateral (
      select count(*)::int4 as days, coalesce(string_agg(d.points, ',' order by d.day_start), '') as points
      from sensor_hour_day_points as d
      where d.sensor_uuid = q.sensor_uuid and d.day_start >= q.from_ms and d.day_start < q.to_ms
    ) as p
    union all
    select ${SNAPSHOT_ROW}, null, pg_current_snapshot()::text`;

const STATEMENT = { name: 'plantdesk_stored_day_points', text: STORED_DAYS_READ };

async function readAll(pool: pg.Pool, asks: readonly DaysAsk[]): Promise<StoredDaysText[]> {
  const sentAt = performance.now();
  const { rows } = await pool.query<unknown[]>({
    ...STATEMENT,
    values: [
      asks.map((_, index) => index),
      asks.map((ask) => ask.sensorUuid),
      asks.map((ask) => ask.days.start),
      asks.map((ask) => ask.days.end),
    ],
    rowMode: 'array',
  });
  const answers: StoredDaysText[] = new Array(asks.length);
  for (const [ask, days, points] of rows) {
    if (ask === SNAPSHOT_ROW) sharedWritesOf(pool)?.observe(points as string, sentAt);
    else answers[ask as number] = { days: days as number, points: points as string };
  }
  return answers;
}

const readers = new WeakMap<pg.Pool, CoalescedReads<DaysAsk, StoredDaysText>>();

/**
 * The text of the sensor's stored days in `days` (whole UTC days), on PostgreSQL outside a
 * transaction; undefined elsewhere, for the caller to read the rows itself.
 */
export function coalescedStoredDays(
  db: Db,
  sensorUuid: string,
  days: TimeRange,
): Promise<StoredDaysText> | undefined {
  const pool = directPoolOf(db);
  if (!pool) return undefined;
  let reader = readers.get(pool);
  if (!reader) {
    reader = new CoalescedReads((asks) => readAll(pool, asks));
    readers.set(pool, reader);
  }
  return reader.read({ sensorUuid, days });
}
