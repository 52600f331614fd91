import { HOUR_MS, offsetMinutesAt, MINUTE_MS } from '../measurements/metrics/localTime.ts';

/**
 * Local hour slots: the key `localDay × 24 + localHour` names "Tuesday 2026-06-02, 18:00" in a
 * plant's zone whatever the UTC offset, so "the same weekday and hour a week ago" is the key
 * minus 7 × 24 on DST weeks too. `localDay` counts local calendar days since 1970-01-01.
 * On the day clocks go back, the repeated hour has one key (both hours share it).
 */

const DAY_MS = 86_400_000;
export const HOURS_PER_DAY = 24;
export const HOURS_PER_WEEK = 7 * HOURS_PER_DAY;

export const slotKey = (localDay: number, hour: number): number => localDay * HOURS_PER_DAY + hour;
export const localDayOfSlot = (key: number): number => Math.floor(key / HOURS_PER_DAY);
export const hourOfSlot = (key: number): number => key - localDayOfSlot(key) * HOURS_PER_DAY;

/** The slot holding `instant` in `zone`. */
export function slotOf(zone: string, instant: number): number {
  const wall = instant + offsetMinutesAt(zone, instant) * MINUTE_MS;
  return Math.floor(wall / HOUR_MS);
}

/** The local day (days since 1970-01-01 in the zone) of `instant`. */
export const localDayOf = (zone: string, instant: number): number =>
  Math.floor((instant + offsetMinutesAt(zone, instant) * MINUTE_MS) / DAY_MS);
