import type { TimeRange } from './metrics/localTime.ts';

/**
 * The bytes of a sensor's packed UTC day (`hourDays.ts`, migration 0014): 24 pairs of
 * little-endian float64, hour by hour from the day's start: the hour's energy in kWh (null as 0,
 * as every hourly read takes it) and its covered seconds, NaN for an hour with no row. The
 * doubles are the hourly row's own, bit for bit, on either engine.
 *
 * Apart from the table's upkeep, so that the readers of the bytes (`rollupSlots.ts`) and the
 * points written beside them (`hourPointsJson.ts`) need not import the table's writers.
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const HOURS_PER_DAY = 24;
const PAIR_BYTES = 16;

/** What an hourly read takes from an hourly rollup. */
export interface PackedHour {
  start: number;
  energyKwh: number | null;
  coveredSeconds: number;
}

export const utcDayStart = (instant: number) => Math.floor(instant / DAY_MS) * DAY_MS;

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
