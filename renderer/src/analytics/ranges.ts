import { DateTime } from 'luxon';
import type { AppLocale } from '../../../i18n/locales.ts';

/**
 * Date ranges of the analytics screens, and their previous periods. Pure functions over Luxon.
 *
 * The API takes LOCAL dates and date-times of the plant (`yyyy-MM-dd`, `yyyy-MM-ddTHH:mm`): a
 * range is calendar arithmetic on wall-clock values, the same in every zone, so it is done on
 * "floating" values (Luxon in UTC, where every day has 24 hours). Only turning an instant of a
 * previous period into the matching instant of the current one needs the plant's zone: that is
 * wall-clock arithmetic in the zone (see `daysBetween`), so 08:00 of the previous week is drawn
 * over 08:00 of this week even when a DST change lies between them.
 */

/** Local days, both included: `{ start: '2026-03-01', end: '2026-03-31' }`. */
export interface DateRange {
  start: string;
  end: string;
}

/** Local date-times, end excluded: `{ start: '2026-03-28T00:00', end: '2026-03-30T00:00' }`. */
export interface DateTimeRange {
  start: string;
  end: string;
}

/** How far back the previous period lies; it always has the length of the current one. */
export const COMPARE_PERIODS = ['week', 'month', 'year'] as const;
export type ComparePeriod = (typeof COMPARE_PERIODS)[number];

/** The message key of each period's name ("Previous week"), translated at render. */
export const COMPARE_LABELS: Record<ComparePeriod, string> = {
  week: 'analytics.compare.periods.week',
  month: 'analytics.compare.periods.month',
  year: 'analytics.compare.periods.year',
};

const ONE: Record<ComparePeriod, { weeks: 1 } | { months: 1 } | { years: 1 }> = {
  week: { weeks: 1 },
  month: { months: 1 },
  year: { years: 1 },
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const FLOATING = { zone: 'utc' } as const;
const DATE_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm";

/** A calendar day `yyyy-MM-dd`, or null (Feb 30, wrong format). */
export function parseDate(text: unknown): DateTime | null {
  if (typeof text !== 'string' || !DATE.test(text)) return null;
  const value = DateTime.fromISO(text, FLOATING);
  return value.isValid ? value : null;
}

/** A wall-clock date-time `yyyy-MM-ddTHH:mm`, or null. */
export function parseDateTime(text: unknown): DateTime | null {
  // Luxon reads 24:00 as the next midnight; the API does not.
  if (typeof text !== 'string' || !DATE_TIME.test(text) || text.slice(11, 13) > '23') return null;
  const value = DateTime.fromISO(text, FLOATING);
  return value.isValid ? value : null;
}

export const formatDate = (value: DateTime): string => value.toFormat('yyyy-MM-dd');
export const formatDateTime = (value: DateTime): string => value.toFormat(DATE_TIME_FORMAT);

export const isComparePeriod = (value: unknown): value is ComparePeriod =>
  typeof value === 'string' && (COMPARE_PERIODS as readonly string[]).includes(value);

/** Days of a range, both ends included (0 when inverted). */
export function daysInRange(range: DateRange): number {
  const start = parseDate(range.start);
  const end = parseDate(range.end);
  if (!start || !end || end < start) return 0;
  return Math.round(end.diff(start, 'days').days) + 1;
}

/** Every day of a range, in order. */
export function listDays(range: DateRange): string[] {
  const start = parseDate(range.start);
  const count = daysInRange(range);
  if (!start) return [];
  return Array.from({ length: count }, (_, index) => formatDate(start.plus({ days: index })));
}

/**
 * The period before a range: its start moved back one week, month or year (Luxon keeps the day
 * of the month, clamped to the month's last: 31 March − 1 month = 28 February), with the same
 * number of days, so its days line up one for one with the current ones.
 */
export function previousDateRange(range: DateRange, period: ComparePeriod): DateRange {
  const start = parseDate(range.start);
  const days = daysInRange(range);
  if (!start || days === 0) throw new RangeError(`Not a date range: ${JSON.stringify(range)}`);
  const previousStart = start.minus(ONE[period]);
  return {
    start: formatDate(previousStart),
    end: formatDate(previousStart.plus({ days: days - 1 })),
  };
}

/** Wall-clock minutes from start to end of a date-time range (0 when inverted or invalid). */
export function rangeMinutes(range: DateTimeRange): number {
  const start = parseDateTime(range.start);
  const end = parseDateTime(range.end);
  if (!start || !end || end <= start) return 0;
  return Math.round(end.diff(start, 'minutes').minutes);
}

/** The date-time range before a range: its start moved back, the same wall-clock length. */
export function previousDateTimeRange(range: DateTimeRange, period: ComparePeriod): DateTimeRange {
  const start = parseDateTime(range.start);
  const minutes = rangeMinutes(range);
  if (!start || minutes === 0) {
    throw new RangeError(`Not a date-time range: ${JSON.stringify(range)}`);
  }
  const previousStart = start.minus(ONE[period]);
  return {
    start: formatDateTime(previousStart),
    end: formatDateTime(previousStart.plus({ minutes })),
  };
}

/**
 * Whole local days from the previous period's start to the current one's (same time of day):
 * how far its points move to be drawn over the current period (`shiftPoints(points, zone,
 * { days })` of charts/series.ts, wall-clock arithmetic in the plant's zone, so 08:00 lands on
 * 08:00 across a DST change, and each previous day on the matching current day).
 */
export function daysBetween(previousStart: string, currentStart: string): number {
  const from = parseDateTime(previousStart) ?? parseDate(previousStart);
  const to = parseDateTime(currentStart) ?? parseDate(currentStart);
  if (!from || !to) throw new RangeError(`Not local dates: ${previousStart}, ${currentStart}`);
  return Math.round(to.diff(from, 'days').days);
}

/** Today's local date in `zone` at `now` (ms). */
export function todayIn(zone: string, now: number): string {
  return DateTime.fromMillis(now, { zone }).toFormat('yyyy-MM-dd');
}

/** The `days` days ending with today in `zone` (the range summary's default). */
export function lastDays(zone: string, now: number, days: number): DateRange {
  const today = DateTime.fromMillis(now, { zone });
  return {
    start: today.minus({ days: days - 1 }).toFormat('yyyy-MM-dd'),
    end: today.toFormat('yyyy-MM-dd'),
  };
}

/**
 * The `days` days up to the end of the current local hour in `zone` (the sensor history's
 * default): `[that hour + 1 h − days, that hour + 1 h)`, wall-clock.
 */
export function lastDaysUntilNextHour(zone: string, now: number, days: number): DateTimeRange {
  const local = DateTime.fromMillis(now, { zone });
  const end = DateTime.fromObject(
    { year: local.year, month: local.month, day: local.day, hour: local.hour },
    FLOATING,
  ).plus({ hours: 1 });
  return { start: formatDateTime(end.minus({ days })), end: formatDateTime(end) };
}

/** A day as each language writes it in a sentence: `1 Mar 2026`, `1. März 2026`, `1 mar 2026`. */
const READABLE_DAY: Record<AppLocale, { locale: string; format: string }> = {
  en: { locale: 'en-GB', format: 'd LLL yyyy' },
  de: { locale: 'de', format: 'd. LLL yyyy' },
  it: { locale: 'it', format: 'd LLL yyyy' },
};

function readable(value: DateTime, locale: AppLocale, time: boolean): string {
  const { locale: tag, format } = READABLE_DAY[locale];
  return value.setLocale(tag).toFormat(time ? `${format} HH:mm` : format);
}

/** `2026-03-01 – 2026-03-31` as a person reads it: `1 Mar 2026 – 31 Mar 2026`. */
export function describeDateRange(range: DateRange, locale: AppLocale = 'en'): string {
  const start = parseDate(range.start);
  const end = parseDate(range.end);
  if (!start || !end) return `${range.start} – ${range.end}`;
  const format = (value: DateTime) => readable(value, locale, false);
  return range.start === range.end ? format(start) : `${format(start)} – ${format(end)}`;
}

export function describeDateTimeRange(range: DateTimeRange, locale: AppLocale = 'en'): string {
  const start = parseDateTime(range.start);
  const end = parseDateTime(range.end);
  if (!start || !end) return `${range.start} – ${range.end}`;
  const format = (value: DateTime) => readable(value, locale, true);
  return `${format(start)} – ${format(end)}`;
}

/**
 * A JS Date picked in a DatePicker ↔ a local value: the picker shows the Date's own (browser)
 * calendar fields, and those are the plant-local fields the user means.
 */
export function dateFromPicker(value: Date): string {
  return formatDate(
    DateTime.fromObject(
      { year: value.getFullYear(), month: value.getMonth() + 1, day: value.getDate() },
      FLOATING,
    ),
  );
}

/** The picker's Date for a local `yyyy-MM-dd` (its browser calendar fields are the local ones). */
export function pickerDate(text: string): Date | null {
  const value = parseDateTime(text) ?? parseDate(text);
  if (!value) return null;
  return new Date(value.year, value.month - 1, value.day, value.hour, value.minute);
}
