import type pg from 'pg';
import type { Db } from '../../db/database.ts';
import { CoalescedReads } from '../../db/coalescedReads.ts';
import { directPoolOf } from '../../db/fastQuery.ts';
import type { TimeRange } from './localTime.ts';

/**
 * The hours packed by UTC day (`hourDays.ts`) or the daily rollup rows of some sensors over a
 * range, on PostgreSQL read together with those other requests ask at the same time (`CoalescedReads`): one statement for several
 * requests' rows, each request getting exactly the rows, in the order, of its own query
 * `select ... where sensor_uuid in (...) and start >= from and start < to order by sensor_uuid,
 * start`. Each ask is a row of the arrays the statement unnests; an index lookup on the table's
 * primary key per ask and sensor.
 */

export type CoarseTable = 'hourDays' | 'days';

interface CoarseAsk {
  sensorUuids: readonly string[];
  range: TimeRange;
}

/** Rows as `rollupSlots` reads them: [sensor_uuid, start, ...the table's columns]. */
type Tuple = unknown[];

const columns: Record<CoarseTable, { table: string; start: string; select: string }> = {
  hourDays: {
    table: 'sensor_hour_days',
    start: 'day_start',
    select: 'r.sensor_uuid, r.day_start, r.hours',
  },
  days: {
    table: 'sensor_daily_rollups',
    start: 'day_start',
    select: 'r.sensor_uuid, r.day_start, r.energy_kwh, r.covered_seconds, r.day_end',
  },
};

// Fixed text: a named statement, parsed once per connection. `offset 0` keeps the lateral
// subquery a lookup per ask: flattened, the generic plan hashes the asks and scans the table.
const statementOf = (which: CoarseTable) => {
  const { table, start, select } = columns[which];
  return {
    name: `plantdesk_coarse_rollups_${which}`,
    text: `select q.ask, ${select}
      from unnest($1::int4[], $2::text[], $3::int8[], $4::int8[])
        as q(ask, sensor_uuid, from_ms, to_ms)
      cross join lateral (
        select * from ${table} as r
        where r.sensor_uuid = q.sensor_uuid and r.${start} >= q.from_ms and r.${start} < q.to_ms
        offset 0
      ) as r
      order by q.ask, r.sensor_uuid, r.${start}`,
  };
};

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
    byTable = { hourDays: reader('hourDays'), days: reader('days') };
    readers.set(pool, byTable);
  }
  return byTable[which].read({ sensorUuids, range });
}
