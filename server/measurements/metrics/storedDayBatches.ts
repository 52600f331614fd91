import type pg from 'pg';
import type { Db } from '../../db/database.ts';
import { CoalescedReads } from '../../db/coalescedReads.ts';
import { directPoolOf } from '../../db/fastQuery.ts';
import { sharedWritesOf } from '../../db/sharedWrites.ts';
import { DAY_MS } from '../hourDayPacking.ts';
import type { StoredDayPoints } from './hourPointsJson.ts';
import type { TimeRange } from './localTime.ts';

/**
 * A sensor's stored hourly points of some UTC days (`hourPointsJson.ts`), on PostgreSQL read
 * together with the reads other requests ask at the same time (`CoalescedReads`): each
 * statement is a round trip whose fixed cost on our side (mostly the socket write that wakes
 * the backend) is as much as decoding a month of days.
 *
 * Each day is read once per statement, however many of its asks hold it: concurrent requests
 * for one plant's histories ask overlapping windows (30-day windows a day apart share 29 days),
 * and the bytes of a day's points were most of what a read cost, to the backend writing them
 * and to us reading and decoding them (52 KiB for 30 days, per ask, when each ask's days came
 * joined into one text). So a sensor's asked days are read as the fewest ranges that cover
 * them, a row per day, and each ask takes its own days from them.
 *
 * One of its rows is the cluster's snapshot, as coarseRollupBatches.ts reads it: the history
 * routes then skip the catch-up before the request (answersAsOfArrival.ts).
 */

interface DaysAsk {
  sensorUuid: string;
  days: TimeRange;
}

const SNAPSHOT_ROW = -1;

/**
 * Arrays `unnest`ed from sub-selects and one lateral range of the primary key per range of
 * days, for the reasons coarseRollupBatches.ts gives: the generic plan is kept whatever the
 * batch's size. `offset 0` keeps the lateral select a range of the key per range: flattened
 * into a join, its generic plan hashed the ranges and read the whole table. The rows come in no
 * particular order: each names its range and day.
 */
export const STORED_DAYS_READ = `select q.range, d.day_start, d.points
    from unnest((select $1::int4[]), (select $2::text[]), (select $3::int8[]), (select $4::int8[]))
      as q(range, sensor_uuid, from_ms, to_ms)
    cross join lateral (
      select d.day_start, d.points from sensor_hour_day_points as d
      where d.sensor_uuid = q.sensor_uuid and d.day_start >= q.from_ms and d.day_start < q.to_ms
      offset 0
    ) as d
    union all
    select ${SNAPSHOT_ROW}, null, pg_current_snapshot()::text`;

const STATEMENT = { name: 'plantdesk_stored_day_points', text: STORED_DAYS_READ };

/** Per sensor, the fewest ranges of days that cover its asks' days (asks' days are whole). */
export function rangesOf(asks: readonly DaysAsk[]): DaysAsk[] {
  const bySensor = new Map<string, TimeRange[]>();
  for (const ask of asks) {
    if (ask.days.end <= ask.days.start) continue;
    let days = bySensor.get(ask.sensorUuid);
    if (!days) bySensor.set(ask.sensorUuid, (days = []));
    days.push(ask.days);
  }
  const ranges: DaysAsk[] = [];
  for (const [sensorUuid, days] of bySensor) {
    days.sort((a, b) => a.start - b.start);
    let current = { ...days[0]! };
    for (const next of days) {
      if (next.start <= current.end) current.end = Math.max(current.end, next.end);
      else {
        ranges.push({ sensorUuid, days: current });
        current = { ...next };
      }
    }
    ranges.push({ sensorUuid, days: current });
  }
  return ranges;
}

async function readAll(pool: pg.Pool, asks: readonly DaysAsk[]): Promise<StoredDayPoints[][]> {
  const ranges = rangesOf(asks);
  const sentAt = performance.now();
  const { rows } = await pool.query<unknown[]>({
    ...STATEMENT,
    values: [
      ranges.map((_, index) => index),
      ranges.map((range) => range.sensorUuid),
      ranges.map((range) => range.days.start),
      ranges.map((range) => range.days.end),
    ],
    rowMode: 'array',
  });
  /** Per sensor, its days' points by day. */
  const found = new Map<string, Map<number, string>>();
  for (const [range, dayStart, points] of rows) {
    if (range === SNAPSHOT_ROW) {
      sharedWritesOf(pool)?.observe(points as string, sentAt);
      continue;
    }
    const sensorUuid = ranges[range as number]!.sensorUuid;
    let days = found.get(sensorUuid);
    if (!days) found.set(sensorUuid, (days = new Map()));
    days.set(dayStart as number, points as string);
  }
  return asks.map(({ sensorUuid, days }) => {
    const stored: StoredDayPoints[] = [];
    const sensorDays = found.get(sensorUuid);
    if (!sensorDays) return stored;
    for (let dayStart = days.start; dayStart < days.end; dayStart += DAY_MS) {
      const points = sensorDays.get(dayStart);
      if (points !== undefined) stored.push({ dayStart, points });
    }
    return stored;
  });
}

const readers = new WeakMap<pg.Pool, CoalescedReads<DaysAsk, StoredDayPoints[]>>();

/**
 * The sensor's stored days in `days` (whole UTC days) that have a row, oldest first, on
 * PostgreSQL outside a transaction; undefined elsewhere, for the caller to read the rows itself.
 */
export function coalescedStoredDays(
  db: Db,
  sensorUuid: string,
  days: TimeRange,
): Promise<StoredDayPoints[]> | undefined {
  const pool = directPoolOf(db);
  if (!pool) return undefined;
  let reader = readers.get(pool);
  if (!reader) {
    reader = new CoalescedReads((asks) => readAll(pool, asks));
    readers.set(pool, reader);
  }
  return reader.read({ sensorUuid, days });
}
