import type pg from 'pg';
import type { Db } from '../../db/database.ts';
import { CoalescedReads } from '../../db/coalescedReads.ts';
import { directPoolOf } from '../../db/fastQuery.ts';
import { sharedWritesOf } from '../../db/sharedWrites.ts';
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
 * Rows as `rollupSlots` reads them: [sensor_uuid, rows], one per sensor, its rows packed in one
 * bytea (decoding a row per hour or day costs node-postgres more than the rest of the request),
 * each row as big-endian 8-byte fields: hours as start (int8), energy, covered (float8), days
 * the same and their end (int8), a missing energy as 0. Bytes rather than text: neither side
 * writes or parses the shortest decimal of each double (`unpackRollupRows`, rollupSlots.ts).
 */
type Tuple = unknown[];

/** The ask of the row that carries the statement's snapshot rather than rollups. */
const SNAPSHOT_ROW = -1;

/**
 * A lateral subquery per ask stays an index lookup (an aggregate is never flattened into the
 * outer query, where the generic plan would hash the asks and scan the table); it answers null
 * for a sensor without rows, which then has no row, as in its own query.
 *
 * Each array is `unnest`ed from a sub-select: the planner sizes an `unnest` of a constant array
 * by its length, so in a custom plan a batch of fewer than 10 asks (most batches) looked cheaper
 * than the generic plan (sized at 10), and PostgreSQL planned the statement afresh on every
 * execution, which was most of its backend CPU (about 65 of 90 µs for one ask). A sub-select's
 * value is unknown to both plans, which are then sized alike (10 rows), and the generic plan is
 * kept from the sixth execution on. (Sized by `generate_subscripts` instead, at 1000 rows, the
 * hourly read cost enough to be JIT-compiled: milliseconds per execution.)
 *
 * Its first row (ask SNAPSHOT_ROW) is the cluster's transaction snapshot as the statement saw it,
 * compared as the catch-up before a request compares it (sharedWrites.ts): the requests whose
 * asks it answers then need no catch-up of their own (answersAsOfArrival.ts).
 */
const packedRead = (table: string, start: string, more: readonly string[] = []) =>
  `select q.ask, q.sensor_uuid, p.packed
    from unnest((select $1::int4[]), (select $2::text[]), (select $3::int8[]), (select $4::int8[]))
      as q(ask, sensor_uuid, from_ms, to_ms)
    cross join lateral (
      select string_agg(
          ${[
            `int8send(r.${start})`,
            'float8send(coalesce(r.energy_kwh, 0))',
            'float8send(r.covered_seconds)',
            ...more.map((field) => `int8send(${field})`),
          ].join(' || ')},
          ''::bytea order by r.${start}) as packed
      from ${table} as r
      where r.sensor_uuid = q.sensor_uuid and r.${start} >= q.from_ms and r.${start} < q.to_ms
    ) as p
    where p.packed is not null
    union all
    select ${SNAPSHOT_ROW}, pg_current_snapshot()::text, null
    order by ask, sensor_uuid`;

export const COARSE_READS: Readonly<Record<CoarseTable, string>> = {
  hours: packedRead('sensor_hourly_rollups', 'hour_start'),
  days: packedRead('sensor_daily_rollups', 'day_start', ['r.day_end']),
};

// Fixed text: a named statement, parsed once per connection.
const statementOf = (which: CoarseTable) => ({
  name: `plantdesk_coarse_rollups_${which}`,
  text: COARSE_READS[which],
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
  const sentAt = performance.now();
  const { rows } = await pool.query<unknown[]>({
    ...statementOf(which),
    values: [askIndexes, sensorUuids, froms, tos],
    rowMode: 'array',
  });
  const answers = asks.map((): Tuple[] => []);
  for (const row of rows) {
    if (row[0] === SNAPSHOT_ROW) sharedWritesOf(pool)?.observe(row[1] as string, sentAt);
    else answers[row[0] as number]!.push(row.slice(1));
  }
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
