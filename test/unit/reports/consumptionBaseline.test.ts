import { describe, expect, it } from 'vitest';
import {
  consumptionBaseline,
  daysOf,
  differencePercent,
  weekdayOf,
  weeksBeforeRange,
  yearBeforeRange,
  type DayEnergy,
} from '../../../server/domain/reports/index.ts';

/** Days of a range, each with `kwh(day, hours)` and coverage; `hours(day)` for DST days. */
function series(
  start: string,
  end: string,
  kwh: (day: string, hours: number) => number | null,
  options: { hours?: (day: string) => number; coverage?: (day: string) => number } = {},
): DayEnergy[] {
  return daysOf({ start, end }).map((day) => {
    const hours = options.hours?.(day) ?? 24;
    const value = kwh(day, hours);
    return {
      day,
      kwh: value,
      coverage: value === null ? 0 : (options.coverage?.(day) ?? 1),
      hours,
    };
  });
}

const SUNDAY = 0;
/** 1 kWh an hour on Sundays, 0.5 on other days. */
const weekly = (day: string, hours: number) => (weekdayOf(day) === SUNDAY ? 1 : 0.5) * hours;
/** Madrid's spring change (23 h) and autumn change (25 h). */
const madridHours = (day: string) =>
  day === '2026-03-29' ? 23 : day === '2026-10-25' || day === '2025-10-26' ? 25 : 24;

describe('the ranges an expectation reads', () => {
  it('takes the 4 whole weeks before the period, and the same days a year before', () => {
    expect(weeksBeforeRange('2026-03-01')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(weeksBeforeRange('2026-01-01')).toEqual({ start: '2025-12-04', end: '2025-12-31' });
    expect(yearBeforeRange({ start: '2028-02-01', end: '2028-02-29' })).toEqual({
      start: '2027-02-01',
      end: '2027-02-28',
    });
    expect(yearBeforeRange({ start: '2026-01-01', end: '2026-12-31' })).toEqual({
      start: '2025-01-01',
      end: '2025-12-31',
    });
  });

  it('knows weekdays of local days in any zone', () => {
    expect(weekdayOf('2026-03-29')).toBe(SUNDAY);
    expect(weekdayOf('2026-03-30')).toBe(1);
  });
});

describe('expected consumption from the weeks before', () => {
  it('matches weekdays and expects the 23-hour day to use 23 hours of its weekday', () => {
    const period = series('2026-03-01', '2026-03-31', weekly, { hours: madridHours });
    const baseline = consumptionBaseline({
      period,
      weeksBefore: series('2026-02-01', '2026-02-28', weekly),
      yearBefore: null,
    });
    // 5 Sundays (one of 23 h) at 1 kWh/h, 26 other days at 0.5 kWh/h.
    expect(baseline).toEqual({
      expectedKwh: 4 * 24 + 23 + 26 * 12,
      basis: 'WEEKS_BEFORE',
      missing: null,
      daysUsed: 28,
    });
  });

  it('is not biased by a 25-hour day among the weeks before', () => {
    // Four weeks ending Saturday 2026-10-31; Sunday the 25th has 25 hours of 1 kWh.
    const weeksBefore = series('2026-10-04', '2026-10-31', weekly, { hours: madridHours });
    const period = series('2026-11-01', '2026-11-01', weekly);
    expect(consumptionBaseline({ period, weeksBefore, yearBefore: null }).expectedKwh).toBe(24);
  });

  it('leaves out days covered less than 90 %, and falls back when a weekday is left too thin', () => {
    const period = series('2026-03-01', '2026-03-07', weekly);
    const thinSundays = (day: string) =>
      weekdayOf(day) === SUNDAY && day > '2026-02-01' ? 0.5 : 1;
    const weeksBefore = series(
      '2026-02-01',
      '2026-02-28',
      (day, hours) =>
        // A half-covered day reports half the energy: kept, it would halve the Sunday mean.
        weekly(day, hours) * thinSundays(day),
    ).map((day) => ({ ...day, coverage: thinSundays(day.day) }));
    const twoGoodSundays = weeksBefore.map((day) =>
      day.day === '2026-02-08' ? { ...day, kwh: 24, coverage: 1 } : day,
    );
    expect(
      consumptionBaseline({ period, weeksBefore: twoGoodSundays, yearBefore: null }),
    ).toMatchObject({ expectedKwh: 24 + 6 * 12, basis: 'WEEKS_BEFORE', daysUsed: 28 - 2 });
    expect(consumptionBaseline({ period, weeksBefore, yearBefore: null })).toEqual({
      expectedKwh: null,
      basis: null,
      missing: 'NOT_ENOUGH_HISTORY',
      daysUsed: 0,
    });
  });
});

describe('expected consumption from the year before', () => {
  it('scales the year before’s energy per hour to the period’s hours (a leap February)', () => {
    const period = series('2028-02-01', '2028-02-29', () => 10);
    const yearBefore = series('2027-02-01', '2027-02-28', () => 12);
    expect(consumptionBaseline({ period, weeksBefore: [], yearBefore })).toEqual({
      expectedKwh: 29 * 12,
      basis: 'YEAR_BEFORE',
      missing: null,
      daysUsed: 28,
    });
  });

  it('needs 80 % of the year before’s hours well covered', () => {
    const period = series('2026-03-01', '2026-03-31', () => 10);
    const sparse = (covered: number) =>
      series('2025-03-01', '2025-03-31', (day) => (Number(day.slice(8)) <= covered ? 12 : null));
    expect(
      consumptionBaseline({ period, weeksBefore: null, yearBefore: sparse(25) }),
    ).toMatchObject({ basis: 'YEAR_BEFORE', expectedKwh: 31 * 12, daysUsed: 25 });
    expect(
      consumptionBaseline({ period, weeksBefore: null, yearBefore: sparse(24) }),
    ).toMatchObject({ basis: null, missing: 'NOT_ENOUGH_HISTORY' });
  });

  it('prefers the weeks before when both have data', () => {
    const period = series('2026-03-02', '2026-03-02', () => 10);
    const baseline = consumptionBaseline({
      period,
      weeksBefore: series('2026-02-02', '2026-03-01', () => 20),
      yearBefore: series('2025-03-02', '2025-03-02', () => 30),
    });
    expect(baseline).toMatchObject({ basis: 'WEEKS_BEFORE', expectedKwh: 20 });
  });
});

describe('no expectation', () => {
  it('says the consumption is not readable when nothing was read', () => {
    expect(consumptionBaseline({ period: [], weeksBefore: null, yearBefore: null })).toMatchObject({
      expectedKwh: null,
      missing: 'NOT_READABLE',
    });
  });

  it('gives the difference in percent only with both figures', () => {
    expect(differencePercent(110, 100)).toBe(10);
    expect(differencePercent(93.25, 100)).toBe(-6.8);
    expect(differencePercent(null, 100)).toBeNull();
    expect(differencePercent(10, null)).toBeNull();
    expect(differencePercent(10, 0)).toBeNull();
  });
});
