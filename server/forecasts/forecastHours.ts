import {
  HOUR_MS,
  hoursEndingAt,
  localDay,
  startOfLocalHour,
  type TimeRange,
} from '../measurements/metrics/localTime.ts';
import type { LocalDate } from '../../api/index.ts';

/** The hours a forecast covers and the hours of history it learns from. */

/** `count` local hours from the first one starting at or after `nowMs`. */
export function nextLocalHours(zone: string, nowMs: number, count: number): TimeRange[] {
  const currentStart = startOfLocalHour(zone, nowMs);
  const first = currentStart < nowMs ? currentStart + HOUR_MS : currentStart;
  return hoursEndingAt(first + count * HOUR_MS, count);
}

/** The hours of a local day: 23, 24 or 25 of them (the last one shorter in a zone whose DST shift is 30 minutes). */
export function hoursOfLocalDay(zone: string, date: LocalDate): TimeRange[] {
  const day = localDay(zone, date);
  const hours: TimeRange[] = [];
  for (let start = day.start; start < day.end; start += HOUR_MS) {
    hours.push({ start, end: Math.min(start + HOUR_MS, day.end) });
  }
  return hours;
}

/** The `count` complete local hours before the one holding `nowMs`, oldest first. */
export const pastLocalHours = (zone: string, nowMs: number, count: number): TimeRange[] =>
  hoursEndingAt(startOfLocalHour(zone, nowMs), count);
