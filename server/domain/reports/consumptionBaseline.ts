import type { DayEnergy } from './reportModel.ts';
import { daysOf, type LocalDateRange } from './period.ts';

/**
 * Expected consumption of a past period. The API's consumption forecasts look ahead only, so the
 * expectation is made from the API's own past answers:
 *
 * 1. for a month, the same local weekdays of the `BASELINE_WEEKS` weeks before it: per weekday, the
 *    energy per hour of the well-covered days (so a 23- or 25-hour day neither biases the mean nor
 *    is expected to use a 24-hour day's energy), times each period day's hours;
 * 2. else (and for a year, only) the same period a year before, when well covered: its energy
 *    per hour times the period's hours;
 * 3. else none, with the reason.
 */

/** Weeks before the period that the weekday-matched mean reads. */
export const BASELINE_WEEKS = 4;
/** A day counts towards a baseline only with at least this share of it covered by data. */
export const BASELINE_DAY_COVERAGE = 0.9;
/** Well-covered days each weekday needs among the weeks before. */
export const BASELINE_DAYS_PER_WEEKDAY = 2;
/** Share of the year-before period's hours its well-covered days must reach. */
export const BASELINE_YEAR_COVERAGE = 0.8;

export type BaselineBasis = 'WEEKS_BEFORE' | 'YEAR_BEFORE';
export type BaselineMissing =
  /** The consumption is not readable (no permission) or the period has no days. */
  | 'NOT_READABLE'
  /** Neither the weeks before nor the year before have enough data. */
  | 'NOT_ENOUGH_HISTORY';

export interface ConsumptionBaseline {
  expectedKwh: number | null;
  basis: BaselineBasis | null;
  /** Why there is no expectation; null when there is one. */
  missing: BaselineMissing | null;
  /** Days the expectation rests on (well-covered days of the basis). */
  daysUsed: number;
}

export interface BaselineInput {
  /** The period's days as the consumption series answers them (their hours: DST). */
  period: readonly DayEnergy[];
  /** Consumption per day of the `BASELINE_WEEKS` weeks before the period. */
  weeksBefore: readonly DayEnergy[] | null;
  /** Consumption per day of the same period a year before; null when not read. */
  yearBefore: readonly DayEnergy[] | null;
}

/** Local day `yyyy-MM-dd` → weekday 0..6: a calendar fact, the same in every zone. */
export const weekdayOf = (day: string): number => new Date(`${day}T12:00:00Z`).getUTCDay();

const round = (value: number, digits = 3) => Number(value.toFixed(digits));
const wellCovered = (day: DayEnergy) =>
  day.kwh !== null && day.hours > 0 && day.coverage >= BASELINE_DAY_COVERAGE;

/** The days `weeks` × 7 before `start` (local `yyyy-MM-dd`), as a range for the summary route. */
export function weeksBeforeRange(start: string, weeks = BASELINE_WEEKS): LocalDateRange {
  const at = Date.parse(`${start}T00:00:00Z`);
  const dayOf = (offset: number) => new Date(at + offset * 86_400_000).toISOString().slice(0, 10);
  return { start: dayOf(-7 * weeks), end: dayOf(-1) };
}

/** The same days a year before (29 February onto the 28th). */
export function yearBeforeRange(range: LocalDateRange): LocalDateRange {
  const back = (day: string) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const last = new Date(Date.UTC(y - 1, m, 0)).getUTCDate();
    return `${String(y - 1).padStart(4, '0')}-${day.slice(5, 7)}-${String(Math.min(d, last)).padStart(2, '0')}`;
  };
  return { start: back(range.start), end: back(range.end) };
}

function fromWeeksBefore(
  period: readonly DayEnergy[],
  weeksBefore: readonly DayEnergy[],
): ConsumptionBaseline | null {
  const perWeekday = Array.from({ length: 7 }, () => ({ kwh: 0, hours: 0, days: 0 }));
  for (const day of weeksBefore.filter(wellCovered)) {
    const slot = perWeekday[weekdayOf(day.day)]!;
    slot.kwh += day.kwh!;
    slot.hours += day.hours;
    slot.days += 1;
  }
  let expected = 0;
  for (const day of period) {
    const slot = perWeekday[weekdayOf(day.day)]!;
    if (slot.days < BASELINE_DAYS_PER_WEEKDAY) return null;
    expected += (slot.kwh / slot.hours) * day.hours;
  }
  const used = new Set(period.map((day) => weekdayOf(day.day)));
  return {
    expectedKwh: round(expected),
    basis: 'WEEKS_BEFORE',
    missing: null,
    daysUsed: [...used].reduce((total, weekday) => total + perWeekday[weekday]!.days, 0),
  };
}

function fromYearBefore(
  period: readonly DayEnergy[],
  yearBefore: readonly DayEnergy[],
): ConsumptionBaseline | null {
  const allHours = yearBefore.reduce((total, day) => total + day.hours, 0);
  const covered = yearBefore.filter(wellCovered);
  const hours = covered.reduce((total, day) => total + day.hours, 0);
  if (allHours === 0 || hours < BASELINE_YEAR_COVERAGE * allHours) return null;
  const kwh = covered.reduce((total, day) => total + day.kwh!, 0);
  const periodHours = period.reduce((total, day) => total + day.hours, 0);
  return {
    expectedKwh: round((kwh / hours) * periodHours),
    basis: 'YEAR_BEFORE',
    missing: null,
    daysUsed: covered.length,
  };
}

/** Only the days of `range`: an answer may carry more (a fixed test answer, a wider window). */
export function daysWithin(
  days: readonly DayEnergy[] | null,
  range: LocalDateRange,
): DayEnergy[] | null {
  if (!days) return null;
  const wanted = new Set(daysOf(range));
  return days.filter((day) => wanted.has(day.day));
}

export function consumptionBaseline(input: BaselineInput): ConsumptionBaseline {
  const none = (missing: BaselineMissing): ConsumptionBaseline => ({
    expectedKwh: null,
    basis: null,
    missing,
    daysUsed: 0,
  });
  if (input.period.length === 0) return none('NOT_READABLE');
  return (
    (input.weeksBefore && fromWeeksBefore(input.period, input.weeksBefore)) ||
    (input.yearBefore && fromYearBefore(input.period, input.yearBefore)) ||
    none(
      input.weeksBefore === null && input.yearBefore === null
        ? 'NOT_READABLE'
        : 'NOT_ENOUGH_HISTORY',
    )
  );
}

/** Actual over expected, as a difference in percent; null without both. */
export function differencePercent(actual: number | null, expected: number | null): number | null {
  if (actual === null || expected === null || expected <= 0) return null;
  return round(((actual - expected) / expected) * 100, 1);
}
