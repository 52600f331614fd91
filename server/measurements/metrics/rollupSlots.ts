import { sql, type CompiledQuery, type Compilable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { fixedShape, rowsOf, tuplesNow, tuplesOf } from '../../db/fastQuery.ts';
import { NeumaierSum } from '../neumaierSum.ts';
import { forEachPackedHour, utcDaysOf } from '../hourDayPacking.ts';
import { coalescedCoarseRows } from './coarseRollupBatches.ts';
import { HOUR_MS, type TimeRange } from './localTime.ts';

/**
 * Rollups of several sensors summed per sensor over "slots": the longest step that cuts no
 * requested bucket, so SQLite hands back one row per sensor and hour (or day) rather than one
 * per 15 minutes. A local day of 23, 24 or 25 hours is a whole number of hours, so daily
 * series in DST zones group by hour, and in zones without DST by day.
 */

export const ROLLUP_MS = 900_000;

export interface SlotRow {
  sensorUuid: string;
  slotStart: number;
  energyKwh: number;
  coveredSeconds: number;
}

const greatestCommonDivisor = (a: number, b: number): number =>
  b === 0 ? a : greatestCommonDivisor(b, a % b);

/** Consecutive buckets, oldest first, with starts and ends on the 15-minute grid. */
export function slotStepFor(buckets: readonly TimeRange[]): number {
  const first = buckets[0]?.start ?? 0;
  const length = (buckets[0]?.end ?? 0) - first;
  // Buckets of one length end at its multiples, so their greatest common divisor is that length.
  if (
    buckets.every(
      (bucket, index) =>
        bucket.start === first + index * length && bucket.end === bucket.start + length,
    )
  ) {
    return length > 0 && length % ROLLUP_MS === 0 && first % ROLLUP_MS === 0 ? length : ROLLUP_MS;
  }
  let step = 0;
  for (const bucket of buckets) step = greatestCommonDivisor(step, bucket.end - first);
  return step > 0 && step % ROLLUP_MS === 0 && first % ROLLUP_MS === 0 ? step : ROLLUP_MS;
}

// bucket_start >= first: the remainder is never negative, where SQL's % differs from a modulo.
const slotStartOf = (first: number, step: number) =>
  sql<number>`bucket_start - ((bucket_start - ${first}) % ${step})`;

/**
 * Energy and covered seconds per sensor and slot over `range`, from the coarsest rollups that
 * answer exactly (one query, two when daily rows do not fit): local-day rows when every slot is
 * a local day of the plant's zone, UTC-hour rows when every slot is a UTC hour, else 15-minute
 * rows, summed per slot in SQL. A coarse row is the sum SQL made of its 15-minute rows
 * (`coarseRollups.ts`), so the three paths answer the same. With the step of one rollup bucket,
 * the rows come in time order (slot by slot, sensors in any order).
 */
export async function rollupSlots(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
  step: number,
): Promise<SlotRow[]> {
  if (sensorUuids.length === 0 || range.end <= range.start) return [];
  if (step === HOUR_MS && range.start % HOUR_MS === 0) {
    return hourlySlots(db, sensorUuids, range);
  }
  if (step > HOUR_MS && step % ROLLUP_MS === 0) {
    const days = await dailySlots(db, sensorUuids, range, step);
    if (days) return days;
  }
  return quarterSlots(db, sensorUuids, range, step);
}

/** The 15-minute path: what every slot read before coarser rollups existed. */
export async function quarterSlots(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
  step: number,
): Promise<SlotRow[]> {
  if (sensorUuids.length === 0 || range.end <= range.start) return [];
  const inRange = db
    .selectFrom('sensor_rollups')
    .where('sensor_uuid', 'in', [...sensorUuids])
    .where('bucket_start', '>=', range.start)
    .where('bucket_start', '<', range.end);
  if (step !== ROLLUP_MS && engineOf(db) === 'postgres') {
    const quarters = inRange
      .select(['sensor_uuid', 'bucket_start', 'energy_kwh', 'covered_seconds'])
      .orderBy('sensor_uuid')
      .orderBy('bucket_start');
    return slotsSummedAsSqlite(await rowsOf(db, quarters.compile()), range.start, step);
  }
  const query =
    step === ROLLUP_MS
      ? inRange
          .select(['sensor_uuid', 'bucket_start as slot_start', 'energy_kwh', 'covered_seconds'])
          .orderBy('bucket_start')
      : inRange
          .select((eb) => [
            'sensor_uuid',
            slotStartOf(range.start, step).as('slot_start'),
            eb.fn.sum<number | null>('energy_kwh').as('energy_kwh'),
            eb.fn.sum<number>('covered_seconds').as('covered_seconds'),
          ])
          // By the output column: PostgreSQL cannot tell that the expression with its own
          // parameters repeated in GROUP BY is the one selected.
          .groupBy(['sensor_uuid', sql<number>`slot_start`]);
  return slotRowsOf(await rowsOf(db, query.compile()));
}

/** Slots of one UTC hour each, in (sensor, hour) order, one per hourly rollup row. */
async function hourlySlots(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
): Promise<SlotRow[]> {
  const slots: SlotRow[] = [];
  await forEachStoredHour(
    db,
    sensorUuids,
    range,
    (sensorUuid, slotStart, energyKwh, coveredSeconds) =>
      slots.push({ sensorUuid, slotStart, energyKwh, coveredSeconds }),
  );
  return slots;
}

/**
 * The hourly energy routes' 24 hours on PostgreSQL, read together with other requests'
 * (`CoalescedReads`); longer spans, and every span on SQLite, read the hours packed by day.
 */
const COALESCED_HOURS_SPAN = 24 * HOUR_MS;

/**
 * Each hourly rollup row of the sensors in `range` (whole UTC hours), in (sensor, hour) order,
 * its energy null as 0: from the hours packed by UTC day (`hourDays.ts`), a row per sensor and
 * day rather than per hour, but for a day's hours on PostgreSQL, read coalesced. On SQLite's own
 * connection every row is passed before this returns, and it returns nothing: the hourly answers
 * go on without a promise; otherwise it returns the promise of the rows passed.
 */
export function forEachStoredHour(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
  each: (sensorUuid: string, hourStart: number, energyKwh: number, coveredSeconds: number) => void,
): Promise<void> | undefined {
  if (sensorUuids.length === 0 || range.end <= range.start) return undefined;
  const coalesced =
    range.end - range.start <= COALESCED_HOURS_SPAN
      ? coalescedCoarseRows(db, 'hours', sensorUuids, range)
      : undefined;
  if (coalesced) {
    return coalesced.then((rows) => {
      for (const [sensorUuid, packed] of rows) {
        unpackRollupRows(packed as Buffer, 3, (bytes, offset) =>
          each(
            sensorUuid as string,
            int8At(bytes, offset),
            bytes.readDoubleBE(offset + 8),
            bytes.readDoubleBE(offset + 16),
          ),
        );
      }
    });
  }
  const days = utcDaysOf(range);
  const query = compiledOnce(
    db,
    'hour days',
    () =>
      db
        .selectFrom('sensor_hour_days')
        .select(['sensor_uuid', 'day_start', 'hours'])
        .where('sensor_uuid', 'in', [...sensorUuids])
        .where('day_start', '>=', days.start)
        .where('day_start', '<', days.end)
        .orderBy('sensor_uuid')
        .orderBy('day_start'),
    [...sensorUuids, days.start, days.end],
  );
  const rows = tuplesNow(db, query);
  if (rows) {
    eachPackedHour(rows, range, each);
    return undefined;
  }
  return tuplesOf(db, query).then((tuples) => eachPackedHour(tuples, range, each));
}

/** The hours in `range` of [sensor_uuid, day_start, hours] rows of `sensor_hour_days`. */
function eachPackedHour(
  rows: readonly unknown[][],
  range: TimeRange,
  each: (sensorUuid: string, hourStart: number, energyKwh: number, coveredSeconds: number) => void,
): void {
  for (const [sensorUuid, dayStart, hours] of rows) {
    // Number(): PostgreSQL answers bigint columns as strings.
    forEachPackedHour(
      Number(dayStart),
      hours as Uint8Array,
      range.start,
      range.end,
      (hourStart, energyKwh, coveredSeconds) =>
        each(sensorUuid as string, hourStart, energyKwh, coveredSeconds),
    );
  }
}

/** Each row of `width` 8-byte fields packed by the coalesced reads (coarseRollupBatches.ts). */
function unpackRollupRows(
  packed: Buffer,
  width: number,
  each: (bytes: Buffer, offset: number) => void,
): void {
  const rowBytes = width * 8;
  for (let offset = 0; offset + rowBytes <= packed.length; offset += rowBytes) each(packed, offset);
}

/** A big-endian int8 (an epoch millisecond, below 2^53 in magnitude) as a number. */
const int8At = (bytes: Buffer, offset: number): number =>
  bytes.readInt32BE(offset) * 2 ** 32 + bytes.readUInt32BE(offset + 4);

/** Packed days as the tuples of their own query: [sensor, start, energy, covered, end]. */
function unpackDayTuples(packed: readonly unknown[][]): unknown[][] {
  const tuples: unknown[][] = [];
  for (const [sensorUuid, rows] of packed) {
    unpackRollupRows(rows as Buffer, 4, (bytes, offset) =>
      tuples.push([
        sensorUuid,
        int8At(bytes, offset),
        bytes.readDoubleBE(offset + 8),
        bytes.readDoubleBE(offset + 16),
        int8At(bytes, offset + 24),
      ]),
    );
  }
  return tuples;
}

/**
 * Slots that are local days, from the daily rows; undefined when some row is not one of the
 * slots (days of another zone than the slots'), for the caller to read 15-minute rows instead.
 */
async function dailySlots(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
  step: number,
): Promise<SlotRow[] | undefined> {
  const query = compiledOnce(
    db,
    'days',
    () =>
      db
        .selectFrom('sensor_daily_rollups')
        .select(['sensor_uuid', 'day_start', 'energy_kwh', 'covered_seconds', 'day_end'])
        .where('sensor_uuid', 'in', [...sensorUuids])
        .where('day_start', '>=', range.start)
        .where('day_start', '<', range.end)
        .orderBy('sensor_uuid')
        .orderBy('day_start'),
    [...sensorUuids, range.start, range.end],
  );
  const coalesced = coalescedCoarseRows(db, 'days', sensorUuids, range);
  const rows = coalesced ? unpackDayTuples(await coalesced) : await tuplesOf(db, query);
  const fits = rows.every((row) => {
    const start = Number(row[1]);
    return (start - range.start) % step === 0 && Number(row[4]) - start === step;
  });
  if (rows.length === 0 || !fits) return undefined;
  return rows.map(slotRowOfTuple);
}

/** By database handle, name, then number of parameters: no key text is made per read. */
const compiledQueries = new WeakMap<Db, Map<string, CompiledQuery[]>>();

/**
 * The query `build` makes, compiled once per database handle, name and number of parameters
 * (the sensors' count), then run with `parameters` in the order the compiled query binds them:
 * building and compiling it with Kysely costs more than reading a day's rows.
 */
export function compiledOnce(
  db: Db,
  name: string,
  build: () => Compilable<unknown>,
  parameters: readonly unknown[],
): CompiledQuery {
  let byName = compiledQueries.get(db);
  if (!byName) {
    byName = new Map();
    compiledQueries.set(db, byName);
  }
  let byCount = byName.get(name);
  if (!byCount) {
    byCount = [];
    byName.set(name, byCount);
  }
  let query = byCount[parameters.length];
  if (!query) {
    query = fixedShape(build().compile());
    if (query.parameters.some((value, index) => value !== parameters[index])) {
      throw new Error(`compiledOnce: ${name} binds its parameters in another order`);
    }
    byCount[parameters.length] = query;
  }
  return { ...query, parameters };
}

/** [sensor_uuid, slot start, energy_kwh, covered_seconds], as the coarse reads select them. */
const slotRowOfTuple = (row: unknown[]): SlotRow => ({
  sensorUuid: row[0] as string,
  slotStart: Number(row[1]),
  energyKwh: Number(row[2] ?? 0),
  coveredSeconds: Number(row[3]),
});

// Number(): PostgreSQL answers bigint columns and sums as strings.
const slotRowsOf = (
  rows: readonly {
    sensor_uuid: string;
    slot_start: number | string;
    energy_kwh: number | string | null;
    covered_seconds: number | string;
  }[],
): SlotRow[] =>
  rows.map((row) => ({
    sensorUuid: row.sensor_uuid,
    slotStart: Number(row.slot_start),
    energyKwh: Number(row.energy_kwh ?? 0),
    coveredSeconds: Number(row.covered_seconds),
  }));

interface QuarterRow {
  sensor_uuid: string;
  bucket_start: number | string;
  energy_kwh: number | null;
  covered_seconds: number | string;
}

/**
 * PostgreSQL's `sum()` of doubles adds them as they come, SQLite's compensates the rounding
 * (NeumaierSum): the same rollups could then differ in the last digit of an answer on the two
 * engines. On PostgreSQL the slots are summed here instead, as SQLite sums them. Rows by sensor,
 * then time.
 */
function slotsSummedAsSqlite(rows: readonly QuarterRow[], first: number, step: number): SlotRow[] {
  const slots: SlotRow[] = [];
  let open:
    { sensorUuid: string; slotStart: number; energy: NeumaierSum; covered: number } | undefined;
  const close = () => {
    if (open)
      slots.push({
        sensorUuid: open.sensorUuid,
        slotStart: open.slotStart,
        energyKwh: open.energy.total() ?? 0,
        coveredSeconds: open.covered,
      });
  };
  for (const row of rows) {
    const bucketStart = Number(row.bucket_start);
    const slotStart = bucketStart - ((bucketStart - first) % step);
    if (open?.sensorUuid !== row.sensor_uuid || open.slotStart !== slotStart) {
      close();
      open = { sensorUuid: row.sensor_uuid, slotStart, energy: new NeumaierSum(), covered: 0 };
    }
    open.energy.add(row.energy_kwh === null ? null : Number(row.energy_kwh));
    open.covered += Number(row.covered_seconds);
  }
  close();
  return slots;
}

/** The index of the bucket holding `instant`, or -1; buckets sorted and contiguous. */
export function bucketIndexOf(buckets: readonly TimeRange[], instant: number): number {
  let low = 0;
  let high = buckets.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const bucket = buckets[middle]!;
    if (instant < bucket.start) high = middle - 1;
    else if (instant >= bucket.end) low = middle + 1;
    else return middle;
  }
  return -1;
}

export interface SensorTotal {
  energyKwh: number;
  /** The sum of the positive quarter-hours only: import or discharge, netted per 15 minutes. */
  positiveKwh: number;
}

/** One query: each sensor's energy over `range` (whole rollup buckets), by sensor uuid. */
export async function rollupTotals(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
): Promise<Map<string, SensorTotal>> {
  const totals = new Map<string, SensorTotal>(
    sensorUuids.map((uuid) => [uuid, { energyKwh: 0, positiveKwh: 0 }]),
  );
  if (sensorUuids.length === 0 || range.end <= range.start) return totals;
  if (engineOf(db) === 'postgres') return totalsSummedAsSqlite(db, sensorUuids, range, totals);
  const rows = await rowsOf(
    db,
    db
      .selectFrom('sensor_rollups')
      .select((eb) => [
        'sensor_uuid',
        eb.fn.sum<number | null>('energy_kwh').as('energy_kwh'),
        eb.fn
          .sum<number | null>(
            eb.case().when('energy_kwh', '>', 0).then(eb.ref('energy_kwh')).else(0).end(),
          )
          .as('positive_kwh'),
      ])
      .where('sensor_uuid', 'in', [...sensorUuids])
      .where('bucket_start', '>=', range.start)
      .where('bucket_start', '<', range.end)
      .groupBy('sensor_uuid')
      .compile(),
  );
  for (const row of rows) {
    totals.set(row.sensor_uuid, {
      energyKwh: Number(row.energy_kwh ?? 0),
      positiveKwh: Number(row.positive_kwh ?? 0),
    });
  }
  return totals;
}

/** `rollupTotals` on PostgreSQL, summed here as SQLite sums (see `slotsSummedAsSqlite`). */
async function totalsSummedAsSqlite(
  db: Db,
  sensorUuids: readonly string[],
  range: TimeRange,
  totals: Map<string, SensorTotal>,
): Promise<Map<string, SensorTotal>> {
  const rows = await rowsOf(
    db,
    db
      .selectFrom('sensor_rollups')
      .select(['sensor_uuid', 'energy_kwh'])
      .where('sensor_uuid', 'in', [...sensorUuids])
      .where('bucket_start', '>=', range.start)
      .where('bucket_start', '<', range.end)
      .orderBy('sensor_uuid')
      .orderBy('bucket_start')
      .compile(),
  );
  const sums = new Map<string, { energy: NeumaierSum; positive: NeumaierSum }>();
  for (const row of rows) {
    let sum = sums.get(row.sensor_uuid);
    if (!sum)
      sums.set(row.sensor_uuid, (sum = { energy: new NeumaierSum(), positive: new NeumaierSum() }));
    const energy = row.energy_kwh === null ? null : Number(row.energy_kwh);
    sum.energy.add(energy);
    sum.positive.add(energy !== null && energy > 0 ? energy : 0);
  }
  for (const [sensorUuid, sum] of sums) {
    totals.set(sensorUuid, {
      energyKwh: sum.energy.total() ?? 0,
      positiveKwh: sum.positive.total() ?? 0,
    });
  }
  return totals;
}
