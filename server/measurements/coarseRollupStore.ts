import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import type { TimeRange } from './metrics/localTime.ts';
import { rowsInsert, type RowsInsert, type RowsTable } from './rowsInsert.ts';
import {
  aggregateQuarters,
  localDayIn,
  staleCoarseSpan,
  utcHourOf,
  type CoarseRollup,
} from './coarseRollups.ts';
import { utcDaysOf } from './hourDayPacking.ts';
import { deleteHourDays, HourDaysWriter, repackHourDays, writeHourDays } from './hourDays.ts';
import { rollupsOf } from './readingsStore.ts';
import type { Rollup } from './rollups.ts';

/**
 * The hourly and daily rollup tables (and the hourly rows packed by UTC day, `hourDays.ts`),
 * kept in step with the 15-minute one: whoever rewrites 15-minute rows calls
 * `CoarseRollupWriter.rewrite` in the same transaction, and a change of what the days are (the
 * plant's zone) rebuilds them. Coarse rows are made from 15-minute rows only.
 */

const CHUNK_ROWS = 250;

/**
 * Writes coarse rows in one transaction; its statements are compiled once for all the sensors
 * of that transaction (a per-call writer would compile them again for each sensor).
 */
export class CoarseRollupWriter {
  readonly #trx: Db;
  readonly #hours: RowsInsert;
  readonly #days: RowsInsert;
  readonly #hourDays: HourDaysWriter;

  constructor(trx: Db) {
    this.#trx = trx;
    this.#hours = rowsInsert(trx, HOURS, CHUNK_ROWS);
    this.#days = rowsInsert(trx, DAYS, CHUNK_ROWS);
    this.#hourDays = new HourDaysWriter(trx);
  }

  /**
   * Writes the daily rows and packed days that `rewrite` left queued: for all the sensors of a
   * transaction together (on PostgreSQL one statement per table rather than one per sensor).
   * Before the transaction reads them, or rewrites a sensor a second time.
   */
  async flush(): Promise<void> {
    await this.#days.flush();
    await this.#hourDays.flush();
  }

  /**
   * Rewrites the hours and days holding the 15-minute buckets of [fromMs, toMs), whose rows the
   * caller has just replaced by `quarters` in this transaction: those are taken as given, and
   * only the rest of the stale hours and days (quarters outside the span, unchanged) is read.
   * Its days and packed days wait for `flush`; its hours are written at once (packing reads them).
   */
  async rewrite(sensorUuid: string, zone: string, rewritten: RewrittenQuarters): Promise<void> {
    const { fromMs, toMs, quarters: rewrittenQuarters } = rewritten;
    if (toMs <= fromMs) return;
    const trx = this.#trx;
    const { days, hours } = staleCoarseSpan(zone, fromMs, toMs);
    const stored = await quartersOutside(trx, sensorUuid, hours, rewritten);
    const rewrittenAt = stored.findIndex((quarter) => quarter.bucketStart >= toMs);
    const quarters = [
      ...stored.slice(0, rewrittenAt < 0 ? stored.length : rewrittenAt),
      ...rewrittenQuarters,
      ...(rewrittenAt < 0 ? [] : stored.slice(rewrittenAt)),
    ];
    // Written over, not deleted first: rewritten quarters only gain coverage and samples (a new
    // reading never shortens what holds), so no hour or day that had a row loses it.
    const inDays = quarters.filter(
      (quarter) => quarter.bucketStart >= days.start && quarter.bucketStart < days.end,
    );
    // Only the hours holding rewritten quarters change (the days' other hours are as they were).
    const changed = { start: utcHourOf(fromMs).start, end: utcHourOf(toMs - 1).end };
    const inChangedHours = quarters.filter(
      (quarter) => quarter.bucketStart >= changed.start && quarter.bucketStart < changed.end,
    );
    await this.#insert(sensorUuid, aggregateQuarters(inChangedHours, utcHourOf), 'hours');
    await this.#hourDays.repack(sensorUuid, zone, changed);
    await this.#queue(sensorUuid, aggregateQuarters(inDays, localDayIn(zone)), 'days');
  }

  /** Every coarse row of the sensor anew from its 15-minute rows (a backfill, a new interval). */
  async rebuild(sensorUuid: string, zone: string): Promise<void> {
    const quarters = await quartersOf(this.#trx, sensorUuid, EVER.start, EVER.end);
    await deleteHours(this.#trx, sensorUuid, EVER.start, EVER.end);
    const hours = aggregateQuarters(quarters, utcHourOf);
    await this.#insert(sensorUuid, hours, 'hours');
    await writeHourDays(this.#trx, sensorUuid, zone, utcDaysOf(EVER), hours);
    await this.#rebuildDays(sensorUuid, zone, quarters);
  }

  /** The sensor's daily rows for a (new) zone of its plant; hours stay UTC hours. */
  async rebuildDays(sensorUuid: string, zone: string): Promise<void> {
    const quarters = await quartersOf(this.#trx, sensorUuid, EVER.start, EVER.end);
    await this.#rebuildDays(sensorUuid, zone, quarters);
  }

  async #rebuildDays(sensorUuid: string, zone: string, quarters: readonly Rollup[]) {
    await deleteDays(this.#trx, sensorUuid, EVER.start, EVER.end);
    await this.#insert(sensorUuid, aggregateQuarters(quarters, localDayIn(zone)), 'days');
  }

  async #insert(
    sensorUuid: string,
    rows: readonly CoarseRollup[],
    grain: 'hours' | 'days',
  ): Promise<void> {
    await this.#queue(sensorUuid, rows, grain);
    await (grain === 'hours' ? this.#hours : this.#days).flush();
  }

  /** Queues the rows (a full chunk is written on the way). */
  async #queue(
    sensorUuid: string,
    rows: readonly CoarseRollup[],
    grain: 'hours' | 'days',
  ): Promise<void> {
    const insert = grain === 'hours' ? this.#hours : this.#days;
    for (const row of rows) {
      const values = [
        row.energyKwh,
        row.meanValue,
        row.minValue,
        row.maxValue,
        row.sampleCount,
        row.coveredSeconds,
      ];
      const pending =
        grain === 'hours'
          ? insert.add(sensorUuid, row.start, ...values)
          : insert.add(sensorUuid, row.start, row.end, ...values);
      if (pending) await pending;
    }
  }
}

const EVER = { start: Number.MIN_SAFE_INTEGER, end: Number.MAX_SAFE_INTEGER };

/** A span of 15-minute buckets just rewritten, and its rows as written (oldest first). */
export interface RewrittenQuarters {
  fromMs: number;
  toMs: number;
  quarters: readonly Rollup[];
}

/** As `CoarseRollupWriter.rebuild`, for one sensor. */
export const rebuildCoarseRollups = (trx: Db, sensorUuid: string, zone: string): Promise<void> =>
  new CoarseRollupWriter(trx).rebuild(sensorUuid, zone);

/**
 * The daily rows of every sensor of the plant for its (new) zone, and the points beside its
 * hours packed by day, written in that zone; hours stay UTC hours.
 */
export async function rebuildDailyRollupsOfPlant(
  trx: Db,
  plantUuid: string,
  zone: string,
): Promise<void> {
  const sensors = await trx
    .selectFrom('sensors')
    .select('sensor_uuid')
    .where('plant_uuid', '=', plantUuid)
    .execute();
  const writer = new CoarseRollupWriter(trx);
  for (const { sensor_uuid } of sensors) {
    await writer.rebuildDays(sensor_uuid, zone);
    await repackHourDays(trx, sensor_uuid, zone, EVER);
  }
}

/** Deletes every coarse row of the sensor (its readings no longer mean anything). */
export async function deleteCoarseRollups(trx: Db, sensorUuid: string): Promise<void> {
  await deleteHours(trx, sensorUuid, EVER.start, EVER.end);
  await deleteDays(trx, sensorUuid, EVER.start, EVER.end);
  await deleteHourDays(trx, sensorUuid);
}

/** The plant zone of each sensor, by uuid, in one query. */
export async function zonesOfSensors(
  db: Db,
  sensorUuids: readonly string[],
): Promise<Map<string, string>> {
  if (sensorUuids.length === 0) return new Map();
  const rows = await rowsOf(
    db,
    db
      .selectFrom('sensors as s')
      .innerJoin('plants as p', 'p.plant_uuid', 's.plant_uuid')
      .select(['s.sensor_uuid', 'p.timezone'])
      .where('s.sensor_uuid', 'in', [...sensorUuids])
      .compile(),
  );
  return new Map(rows.map((row) => [row.sensor_uuid, row.timezone]));
}

const quartersOf = (db: Db, sensorUuid: string, fromMs: number, toMs: number) =>
  rollupsOf(db, [sensorUuid], fromMs, toMs);

/** The sensor's quarters of `span` outside [fromMs, toMs), oldest first, in one query. */
const quartersOutside = (
  db: Db,
  sensorUuid: string,
  span: TimeRange,
  { fromMs, toMs }: { fromMs: number; toMs: number },
): Promise<Rollup[]> =>
  rowsOf(
    db,
    db
      .selectFrom('sensor_rollups')
      .select([
        'bucket_start as bucketStart',
        'energy_kwh as energyKwh',
        'mean_value as meanValue',
        'min_value as minValue',
        'max_value as maxValue',
        'sample_count as sampleCount',
        'covered_seconds as coveredSeconds',
      ])
      .where('sensor_uuid', '=', sensorUuid)
      .where('bucket_start', '>=', span.start)
      .where('bucket_start', '<', span.end)
      .where((eb) => eb.or([eb('bucket_start', '<', fromMs), eb('bucket_start', '>=', toMs)]))
      .orderBy('bucket_start')
      .compile(),
  );

const deleteHours = (trx: Db, sensorUuid: string, fromMs: number, toMs: number) =>
  trx
    .deleteFrom('sensor_hourly_rollups')
    .where('sensor_uuid', '=', sensorUuid)
    .where('hour_start', '>=', fromMs)
    .where('hour_start', '<', toMs)
    .execute();

const deleteDays = (trx: Db, sensorUuid: string, fromMs: number, toMs: number) =>
  trx
    .deleteFrom('sensor_daily_rollups')
    .where('sensor_uuid', '=', sensorUuid)
    .where('day_start', '>=', fromMs)
    .where('day_start', '<', toMs)
    .execute();

const VALUE_COLUMNS = [
  { name: 'energy_kwh', pgType: 'float8' },
  { name: 'mean_value', pgType: 'float8' },
  { name: 'min_value', pgType: 'float8' },
  { name: 'max_value', pgType: 'float8' },
  { name: 'sample_count', pgType: 'int4' },
  { name: 'covered_seconds', pgType: 'float8' },
] as const;

/** A coarse table's rows: its key, then the value columns; an upsert writes over all but the key. */
function coarseTable<Table extends 'sensor_hourly_rollups' | 'sensor_daily_rollups'>(
  table: Table,
  key: RowsTable<Table>['columns'],
  alsoUpdated: RowsTable<Table>['columns'] = [],
): RowsTable<Table> {
  const updated = [...alsoUpdated, ...VALUE_COLUMNS];
  return {
    table,
    columns: [...key, ...updated],
    upsert: {
      key: key.map((column) => column.name),
      updated: updated.map((column) => column.name),
    },
  };
}

const HOURS = coarseTable('sensor_hourly_rollups', [
  { name: 'sensor_uuid', pgType: 'text' },
  { name: 'hour_start', pgType: 'int8' },
]);
const DAYS = coarseTable(
  'sensor_daily_rollups',
  [
    { name: 'sensor_uuid', pgType: 'text' },
    { name: 'day_start', pgType: 'int8' },
  ],
  [{ name: 'day_end', pgType: 'int8' }],
);
