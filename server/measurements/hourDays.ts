import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import { rowsInsert, type RowsInsert, type RowsTable } from './rowsInsert.ts';
import { packHourDays, utcDaysOf, type PackedHour } from './hourDayPacking.ts';
import type { TimeRange } from './metrics/localTime.ts';
import { dayPointsJson } from './metrics/hourPointsJson.ts';

/**
 * One row per sensor and UTC day packing what the hourly reads take from that day's hourly
 * rollups (migration 0014, bytes in `hourDayPacking.ts`): a 30-day hourly history reads 31 rows
 * per sensor instead of 720, which was most of its time on both engines (a row costs far more to
 * fetch and decode than the two numbers it carries). A second tier of the hierarchy: made from
 * the hourly rows only, rewritten whenever they are (`coarseRollupStore.ts`, `signInversion.ts`),
 * so it never holds anything the hourly table does not.
 *
 * Beside them, in `sensor_hour_day_points` (migration 0016): each day's 24 hours as the points
 * of a one-sensor hourly power history in the plant's zone (`hourPointsJson.ts`), written from
 * the same hours with them, and anew for every sensor of a plant whose zone changes.
 */

export type { PackedHour } from './hourDayPacking.ts';

const INSERT_CHUNK_ROWS = 200;

/**
 * The zone the points are written in, or null for bytes alone: only migration 0014, which runs
 * before the points' table exists (0016 then writes them).
 */
export type PointsZone = string | null;

/**
 * Replaces the sensor's packed rows of the UTC days in `days` (whole days) by `hours`, the
 * hourly rows of those days as they now stand (oldest first): a day left without hours loses
 * its row.
 */
export async function writeHourDays(
  trx: Db,
  sensorUuid: string,
  zone: string,
  days: TimeRange,
  hours: readonly PackedHour[],
): Promise<void> {
  for (const table of TABLES) {
    await trx
      .deleteFrom(table)
      .where('sensor_uuid', '=', sensorUuid)
      .where('day_start', '>=', days.start)
      .where('day_start', '<', days.end)
      .execute();
  }
  await insertHourDays(trx, sensorUuid, zone, hours);
}

/**
 * Packs the sensor's UTC days holding `span` anew from its hourly rows. Written over (an upsert,
 * one statement): its callers (ingestion, a sign inversion, a new zone, the backfills) never
 * leave a day without the hours it had, so no row has to go.
 */
export async function repackHourDays(
  trx: Db,
  sensorUuid: string,
  zone: PointsZone,
  span: TimeRange,
): Promise<void> {
  const writer = new HourDaysWriter(trx);
  await writer.repack(sensorUuid, zone, span);
  await writer.flush();
}

/** A table of one row per sensor and UTC day, its `column` written over by an upsert. */
const perSensorDay = <Table extends 'sensor_hour_days' | 'sensor_hour_day_points'>(
  table: Table,
  column: RowsTable<Table>['columns'][number],
): RowsTable<Table> => ({
  table,
  columns: [{ name: 'sensor_uuid', pgType: 'text' }, { name: 'day_start', pgType: 'int8' }, column],
  upsert: { key: ['sensor_uuid', 'day_start'], updated: [column.name] },
});

const HOUR_DAYS = perSensorDay('sensor_hour_days', { name: 'hours', pgType: 'bytea' });
const HOUR_DAY_POINTS = perSensorDay('sensor_hour_day_points', { name: 'points', pgType: 'text' });

/**
 * `repackHourDays` for the sensors of one transaction, their rows written together at `flush`
 * (on PostgreSQL one statement per table rather than two per sensor). Nothing may read the
 * packed rows of a sensor queued here before `flush`, and a sensor's days are queued once.
 */
export class HourDaysWriter {
  readonly #trx: Db;
  readonly #days: RowsInsert;
  readonly #points: RowsInsert;

  constructor(trx: Db) {
    this.#trx = trx;
    this.#days = rowsInsert(trx, HOUR_DAYS, INSERT_CHUNK_ROWS);
    this.#points = rowsInsert(trx, HOUR_DAY_POINTS, INSERT_CHUNK_ROWS);
  }

  /** Queues the sensor's UTC days holding `span`, packed anew from its hourly rows. */
  async repack(sensorUuid: string, zone: PointsZone, span: TimeRange): Promise<void> {
    const days = utcDaysOf(span);
    if (days.end <= days.start) return;
    const trx = this.#trx;
    const rows = await rowsOf(
      trx,
      trx
        .selectFrom('sensor_hourly_rollups')
        .select(['hour_start', 'energy_kwh', 'covered_seconds'])
        .where('sensor_uuid', '=', sensorUuid)
        .where('hour_start', '>=', days.start)
        .where('hour_start', '<', days.end)
        .orderBy('hour_start')
        .compile(),
    );
    // Number(): PostgreSQL answers bigint as text, and float8 as its shortest exact text.
    const hours = rows.map((row) => ({
      start: Number(row.hour_start),
      energyKwh: row.energy_kwh === null ? null : Number(row.energy_kwh),
      coveredSeconds: Number(row.covered_seconds),
    }));
    for (const day of packHourDays(hours)) {
      const pending = this.#days.add(sensorUuid, day.dayStart, day.hours);
      if (pending) await pending;
      if (zone === null) continue;
      const points = dayPointsJson(zone, day.dayStart, day.hours);
      const pendingPoints = this.#points.add(sensorUuid, day.dayStart, points);
      if (pendingPoints) await pendingPoints;
    }
  }

  async flush(): Promise<void> {
    await this.#days.flush();
    await this.#points.flush();
  }
}

/** Inserts the packed days of `hours` and their points (none of them stored). */
async function insertHourDays(
  trx: Db,
  sensorUuid: string,
  zone: string,
  hours: readonly PackedHour[],
): Promise<void> {
  const days = packHourDays(hours);
  await inChunks(
    days.map((day) => ({ sensor_uuid: sensorUuid, day_start: day.dayStart, hours: day.hours })),
    (rows) => trx.insertInto('sensor_hour_days').values(rows).execute(),
  );
  await inChunks(
    days.map((day) => ({
      sensor_uuid: sensorUuid,
      day_start: day.dayStart,
      points: dayPointsJson(zone, day.dayStart, day.hours),
    })),
    (rows) => trx.insertInto('sensor_hour_day_points').values(rows).execute(),
  );
}

async function inChunks<Row>(
  rows: readonly Row[],
  write: (chunk: Row[]) => Promise<unknown>,
): Promise<void> {
  for (let first = 0; first < rows.length; first += INSERT_CHUNK_ROWS) {
    await write(rows.slice(first, first + INSERT_CHUNK_ROWS));
  }
}

const TABLES = ['sensor_hour_days', 'sensor_hour_day_points'] as const;

/** Deletes every packed row of the sensor, and their points. */
export async function deleteHourDays(trx: Db, sensorUuid: string): Promise<void> {
  for (const table of TABLES) {
    await trx.deleteFrom(table).where('sensor_uuid', '=', sensorUuid).execute();
  }
}
