import type pg from 'pg';
import type { Db } from '../../db/database.ts';
import { CoalescedReads } from '../../db/coalescedReads.ts';
import { directPoolOf } from '../../db/fastQuery.ts';
import type { TimeRange } from './localTime.ts';

/**
 * The hourly or daily rollup rows of some sensors over a range, on PostgreSQL read together with
 * those other requests ask at the same time (`CoalescedReads`): one statement for several
 * requests' rows, each request getting exactly the rows, in the order, of its own query
 * `select ... where sensor_uuid in (...) and start >= from and start < to order by sensor_uuid,
 * start` (for hours, of `packedHourlySlots`'s). Each ask is a row of the arrays the statement
 * unnests; an index lookup on the table's primary key per ask and sensor.
 */

export type CoarseTable = 'hours' | 'days';

interface CoarseAsk {
  sensorUuids: readonly string[];
  range: TimeRange;
}

/**
 * Rows as `rollupSlots` reads them: days as [sensor_uuid, day_start, energy_kwh, covered_seconds,
 * day_end], one per day; hours as [sensor_uuid, hours], one per sensor, its hours packed in one
 * text as `packedHourlySlots` packs them (decoding a row per hour costs node-postgres more).
 */
type Tuple = unknown[];

// A lateral subquery stays a lookup per ask (an aggregate is never flattened; the days' `offset
// 0` keeps theirs from it): flattened, the generic plan hashes the asks and scans the table.
// The hours' aggregate answers null for a sensor without rows, which has no row in its own query.
const ASKS = `unnest($1::int4[], $2::text[], $3::int8[], $4::int8[])
        as q(ask, sensor_uuid, from_ms, to_ms)`;
const READS: Record<CoarseTable, string> = {
  hours: `select q.ask, q.sensor_uuid, r.hours
      from ${ASKS}
      cross join lateral (
        select string_agg(
          h.hour_start::text || ' ' || coalesce(h.energy_kwh, 0)::text || ' ' ||
            h.covered_seconds::text,
          ' ' order by h.hour_start) as hours
        from sensor_hourly_rollups as h
        where h.sensor_uuid = q.sensor_uuid and h.hour_start >= q.from_ms
          and h.hour_start < q.to_ms
      ) as r
      where r.hours is not null
      order by q.ask, q.sensor_uuid`,
  days: `select q.ask, r.sensor_uuid, r.day_start, r.energy_kwh, r.covered_seconds, r.day_end
      from ${ASKS}
      cross join lateral (
        select * from sensor_daily_rollups as r
        where r.sensor_uuid = q.sensor_uuid and r.day_start >= q.from_ms
          and r.day_start < q.to_ms
        offset 0
      ) as r
      order by q.ask, r.sensor_uuid, r.day_start`,
};

// Fixed text: a named statement, parsed once per connection.
const statementOf = (which: CoarseTable) => ({
  name: `plantdesk_coarse_rollups_${which}`,
  text: READS[which],
});

async function readAll(
  pool: pg.Pool,
  which: CoarseTable,
  asks: readonly CoarseAsk[],
): Promise<Tuple[][]> {
  const askIndexes: number[] = [];
  const sensorUuids: string[] = [];
  const froms: number[] = [];
  const tos: number[] = [];
  asks.forEach((ask, index) => {
    for (const sensorUuid of new Set(ask.sensorUuids)) {
      askIndexes.push(index);
      sensorUuids.push(sensorUuid);
      froms.push(ask.range.start);
      tos.push(ask.range.end);
    }
  });
  const { rows } = await pool.query<unknown[]>({
    ...statementOf(which),
    values: [askIndexes, sensorUuids, froms, tos],
    rowMode: 'array',
  });
  const answers = asks.map((): Tuple[] => []);
  for (const row of rows) answers[row[0] as number]!.push(row.slice(1));
  return answers;
}

const readers = new WeakMap<pg.Pool, Record<CoarseTable, CoalescedReads<CoarseAsk, Tuple[]>>>();

/**
 * The rows, on PostgreSQL outside a transaction; undefined elsewhere, for the caller to read
 * them itself (SQLite answers synchronously: there is nothing to gather).
 */
export function coalescedCoarseRows(
  db: Db,
  which: CoarseTable,
  sensorUuids: readonly string[],
  range: TimeRange,
): Promise<Tuple[]> | undefined {
  const pool = directPoolOf(db);
  if (!pool) return undefined;
  let byTable = readers.get(pool);
  if (!byTable) {
    const reader = (table: CoarseTable) =>
      new CoalescedReads<CoarseAsk, Tuple[]>((asks) => readAll(pool, table, asks));
    byTable = { hours: reader('hours'), days: reader('days') };
    readers.set(pool, byTable);
  }
  return byTable[which].read({ sensorUuids, range });
}
