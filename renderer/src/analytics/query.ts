import { GRANULARITIES, type Granularity } from '../../../api/schemas/metrics.ts';
import {
  isComparePeriod,
  lastDays,
  lastDaysUntilNextHour,
  parseDate,
  parseDateTime,
  type ComparePeriod,
  type DateRange,
  type DateTimeRange,
} from './ranges.ts';

/**
 * The analytics screens' choices as route query parameters, so a link reopens the same chart:
 *
 * - summary:   `from`, `to` (yyyy-MM-dd, both included), `compare` (week | month | year)
 * - history:   `start`, `end` (yyyy-MM-ddTHH:mm, end excluded), `granularity`, `compare`
 * - forecasts: `hours` (24 | 48 | 72 | 168), `consumerOnly` (true | false)
 *
 * A missing or malformed parameter takes its default (the latest days in the plant's zone), so
 * a link without a range always shows the latest data.
 */

export const ANALYTICS_TABS = ['summary', 'history', 'forecasts'] as const;
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number];

export const SUMMARY_DEFAULT_DAYS = 30;
export const HISTORY_DEFAULT_DAYS = 7;
export const DEFAULT_GRANULARITY: Granularity = 'hours';
export const FORECAST_HOURS = [24, 48, 72, 168] as const;
export const DEFAULT_FORECAST_HOURS = 48;

export type QueryValue = string | null | (string | null)[] | undefined;
export type AnalyticsQuery = Record<string, QueryValue>;

export interface SummaryChoice {
  range: DateRange;
  compare: ComparePeriod | null;
}

export interface HistoryChoice {
  range: DateTimeRange;
  granularity: Granularity;
  compare: ComparePeriod | null;
}

export interface ForecastChoice {
  hours: number;
  consumerOnly: boolean;
}

/** The first value of a query parameter (`?a=1&a=2` → `1`). */
export function single(value: QueryValue): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

export function tabOf(tab: unknown): AnalyticsTab {
  return typeof tab === 'string' && (ANALYTICS_TABS as readonly string[]).includes(tab)
    ? (tab as AnalyticsTab)
    : 'summary';
}

export function compareOf(query: AnalyticsQuery): ComparePeriod | null {
  const value = single(query.compare);
  return isComparePeriod(value) ? value : null;
}

export function summaryChoice(query: AnalyticsQuery, zone: string, now: number): SummaryChoice {
  const from = single(query.from);
  const to = single(query.to);
  const range =
    parseDate(from) && parseDate(to)
      ? { start: from!, end: to! }
      : lastDays(zone, now, SUMMARY_DEFAULT_DAYS);
  return { range, compare: compareOf(query) };
}

export function historyChoice(query: AnalyticsQuery, zone: string, now: number): HistoryChoice {
  const start = single(query.start);
  const end = single(query.end);
  const range =
    parseDateTime(start) && parseDateTime(end)
      ? { start: start!, end: end! }
      : lastDaysUntilNextHour(zone, now, HISTORY_DEFAULT_DAYS);
  const granularity = single(query.granularity);
  return {
    range,
    granularity: (GRANULARITIES as readonly string[]).includes(granularity ?? '')
      ? (granularity as Granularity)
      : DEFAULT_GRANULARITY,
    compare: compareOf(query),
  };
}

export function forecastChoice(query: AnalyticsQuery): ForecastChoice {
  const hours = Number(single(query.hours));
  return {
    hours: (FORECAST_HOURS as readonly number[]).includes(hours) ? hours : DEFAULT_FORECAST_HOURS,
    consumerOnly: single(query.consumerOnly) === 'true',
  };
}

/**
 * The query with `changes` applied; `undefined` or `null` removes a parameter. Other
 * parameters (the other tabs' choices) are kept, so switching tabs loses nothing.
 */
export function withChanges(
  query: AnalyticsQuery,
  changes: Record<string, string | number | boolean | null | undefined>,
): Record<string, string | (string | null)[] | null> {
  const next: Record<string, string | (string | null)[] | null> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) next[key] = value;
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === null) delete next[key];
    else next[key] = String(value);
  }
  return next;
}
