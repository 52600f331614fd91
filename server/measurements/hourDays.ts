import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import type { TimeRange } from './metrics/localTime.ts';

/**
 * One row per sensor and UTC day packing what the hourly reads take from that day's hourly
 * rollups (migration 0014): a 30-day hourly history reads 31 rows per sensor instead of 720,
 * which was most of its time on both engines (a row costs far more to fetch and decode than the
 * two numbers it carries). A second tier of the hierarchy: made from the hourly rows only,
 * rewritten whenever they are (`coarseRollupStore.ts`, `signInversion.ts`), so it never holds
 * anything the hourly table does not.
 *
 * `hours`: 24 pairs of little-endian float64, hour by hour from the day's start: the hour's
 * energy in kWh (null as 0, as every hourly read takes it) and its covered seconds, NaN for an
 * hour with no row. The doubles are the hourly row's own, bit for bit, on either engine.
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const HOURS_PER_DAY = 24;
const PAIR_BYTES = 16;
const INSERT_CHUNK_ROWS = 200;

/** What an hourly read takes from an hourly rollup. */
export interface PackedHour {
  start: number;
  energyKwh: number | null;
  coveredSeconds: number;
}

const utcDayStart = (instant: number) => Math.floor(instant / DAY_MS) * DAY_MS;

/** Each UTC day's packed hours, oldest first; `hours` oldest first. */
export function packHourDays(hours: readonly PackedHour[]): { dayStart: number; hours: Buffer }[] {
  const days: { dayStart: number; hours: Buffer }[] = [];
  let view: DataView | undefined;
  let dayStart = NaN;
  for (const hour of hours) {
    const day = utcDayStart(hour.start);
    if (day !== dayStart) {
      dayStart = day;
      const packed = Buffer.alloc(HOURS_PER_DAY * PAIR_BYTES);
      view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
      for (let index = 0; index < HOURS_PER_DAY; index++) {
        view.setFloat64(index * PAIR_BYTES + 8, NaN, true);
      }
      days.push({ dayStart: day, hours: packed });
    }
    const offset = ((hour.start - day) / HOUR_MS) * PAIR_BYTES;
    view!.setFloat64(offset, hour.energyKwh ?? 0, true);
    view!.setFloat64(offset + 8, hour.coveredSeconds, true);
  }
  return days;
}

/**
 * Calls `each` for every hour of a packed day with a row, oldest first, from `fromMs` on and
 * before `toMs`.
 */
export function forEachPackedHour(
  dayStart: number,
  packed: Uint8Array,
  fromMs: number,
  toMs: number,
  each: (start: number, energyKwh: number, coveredSeconds: number) => void,
): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const first = Math.max(0, Math.ceil((fromMs - dayStart) / HOUR_MS));
  const end = Math.min(HOURS_PER_DAY, Math.ceil((toMs - dayStart) / HOUR_MS));
  for (let index = first; index < end; index++) {
    const covered = view.getFloat64(index * PAIR_BYTES + 8, true);
    if (Number.isNaN(covered)) continue;
    each(dayStart + index * HOUR_MS, view.getFloat64(index * PAIR_BYTES, true), covered);
  }
}

/** The UTC days holding [fromMs, toMs): whole days, for the packed rows' keys. */
export function utcDaysOf(range: TimeRange): TimeRange {
  if (range.end <= range.start) return { start: range.start, end: range.start };
  return { start: utcDayStart(range.start), end: utcDayStart(range.end - 1) + DAY_MS };
}

/**
 * Replaces the sensor's packed rows of the UTC days in `days` (whole days) by `hours`, the
 * hourly rows of those days as they now stand (oldest first): a day left without hours loses
 * its row.
 */
export async function writeHourDays(
  trx: Db,
  sensorUuid: string,
  days: TimeRange,
  hours: readonly PackedHour[],
): Promise<void> {
  await trx
    .deleteFrom('sensor_hour_days')
    .where('sensor_uuid', '=', sensorUuid)
    .where('day_start', '>=', days.start)
    .where('day_start', '<', days.end)
    .execute();
  await storeHourDays(trx, sensorUuid, hours, 'insert');
}

/**
 * Packs the sensor's UTC days holding `span` anew from its hourly rows. Written over (an upsert,
 * one statement): its callers (ingestion, a sign inversion, the backfill) never leave a day
 * without the hours it had, so no row has to go.
 */
export async function repackHourDays(trx: Db, sensorUuid: string, span: TimeRange): Promise<void> {
  const days = utcDaysOf(span);
  if (days.end <= days.start) return;
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
  await storeHourDays(trx, sensorUuid, hours, 'upsert');
}

/** Writes the packed days of `hours`: plain inserts, or over the rows already there. */
async function storeHourDays(
  trx: Db,
  sensorUuid: string,
  hours: readonly PackedHour[],
  how: 'insert' | 'upsert',
): Promise<void> {
  const rows = packHourDays(hours).map((day) => ({
    sensor_uuid: sensorUuid,
    day_start: day.dayStart,
    hours: day.hours,
  }));
  for (let first = 0; first < rows.length; first += INSERT_CHUNK_ROWS) {
    const insert = trx
      .insertInto('sensor_hour_days')
      .values(rows.slice(first, first + INSERT_CHUNK_ROWS));
    await (
      how === 'insert'
        ? insert
        : insert.onConflict((conflict) =>
            conflict
              .columns(['sensor_uuid', 'day_start'])
              .doUpdateSet((row) => ({ hours: row.ref('excluded.hours') })),
          )
    ).execute();
  }
}

/** Deletes every packed row of the sensor. */
export async function deleteHourDays(trx: Db, sensorUuid: string): Promise<void> {
  await trx.deleteFrom('sensor_hour_days').where('sensor_uuid', '=', sensorUuid).execute();
}
