import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { shiftPoints } from '../../../../renderer/src/charts/series.ts';
import {
  dateFromPicker,
  daysBetween,
  daysInRange,
  describeDateRange,
  lastDays,
  lastDaysUntilNextHour,
  listDays,
  parseDate,
  parseDateTime,
  pickerDate,
  previousDateRange,
  previousDateTimeRange,
  rangeMinutes,
  COMPARE_PERIODS,
  type ComparePeriod,
} from '../../../../renderer/src/analytics/ranges.ts';

const ROME = 'Europe/Rome';
const ZONES = [ROME, 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe'];

/** Any calendar day from 1990 to 2040, as `yyyy-MM-dd`. */
const day = fc
  .integer({ min: 0, max: 18_262 })
  .map((offset) => DateTime.fromISO('1990-01-01', { zone: 'utc' }).plus({ days: offset }));
const dateText = day.map((value) => value.toFormat('yyyy-MM-dd'));
const period = fc.constantFrom<ComparePeriod>(...COMPARE_PERIODS);

describe('parsing', () => {
  it('accepts calendar days and wall-clock date-times only', () => {
    expect(parseDate('2024-02-29')?.toFormat('yyyy-MM-dd')).toBe('2024-02-29');
    expect(parseDate('2026-02-29')).toBeNull();
    expect(parseDate('2026-2-1')).toBeNull();
    expect(parseDate(undefined)).toBeNull();
    expect(parseDateTime('2026-03-29T02:30')?.hour).toBe(2); // a wall-clock value, no zone
    expect(parseDateTime('2026-03-29T24:00')).toBeNull();
    expect(parseDateTime('2026-03-29')).toBeNull();
  });

  it('counts and lists the days of a range, both ends included', () => {
    expect(daysInRange({ start: '2026-03-01', end: '2026-03-31' })).toBe(31);
    expect(daysInRange({ start: '2024-02-01', end: '2024-03-01' })).toBe(30);
    expect(daysInRange({ start: '2026-03-02', end: '2026-03-01' })).toBe(0);
    // The DST days of Europe/Rome are ordinary calendar days.
    expect(listDays({ start: '2026-03-28', end: '2026-03-30' })).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
    ]);
    expect(rangeMinutes({ start: '2026-03-29T00:00', end: '2026-03-30T00:00' })).toBe(1440);
  });
});

describe('previousDateRange', () => {
  it('moves a week, month or year back with the same number of days', () => {
    const march = { start: '2026-03-01', end: '2026-03-31' };
    expect(previousDateRange(march, 'week')).toEqual({ start: '2026-02-22', end: '2026-03-24' });
    expect(previousDateRange(march, 'month')).toEqual({ start: '2026-02-01', end: '2026-03-03' });
    expect(previousDateRange(march, 'year')).toEqual({ start: '2025-03-01', end: '2025-03-31' });
  });

  it('clamps month ends and leap days to the last day of the month', () => {
    expect(previousDateRange({ start: '2026-03-31', end: '2026-04-06' }, 'month')).toEqual({
      start: '2026-02-28',
      end: '2026-03-06',
    });
    expect(previousDateRange({ start: '2024-03-31', end: '2024-03-31' }, 'month')).toEqual({
      start: '2024-02-29',
      end: '2024-02-29',
    });
    expect(previousDateRange({ start: '2024-02-29', end: '2024-03-06' }, 'year')).toEqual({
      start: '2023-02-28',
      end: '2023-03-06',
    });
    // Into a leap year: the 7 days from 1 March 2025 are compared with 1–7 March 2024.
    expect(previousDateRange({ start: '2025-03-01', end: '2025-03-07' }, 'year')).toEqual({
      start: '2024-03-01',
      end: '2024-03-07',
    });
  });

  it('keeps the length and moves the start back by exactly one period (property)', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 366 }), period, (start, days, which) => {
        const range = {
          start: start.toFormat('yyyy-MM-dd'),
          end: start.plus({ days: days - 1 }).toFormat('yyyy-MM-dd'),
        };
        const previous = previousDateRange(range, which);
        expect(daysInRange(previous)).toBe(days);
        const previousStart = parseDate(previous.start)!;
        expect(previousStart < start).toBe(true);
        if (which === 'week') expect(daysBetween(previous.start, range.start)).toBe(7);
        if (which === 'month') {
          expect(previousStart.plus({ months: 1 }).month).toBe(start.month);
          expect(previousStart.day).toBe(Math.min(start.day, previousStart.daysInMonth!));
        }
        if (which === 'year') {
          expect(previousStart.year).toBe(start.year - 1);
          expect(previousStart.month).toBe(start.month);
          expect(previousStart.day).toBe(Math.min(start.day, previousStart.daysInMonth!));
        }
      }),
    );
  });
});

describe('previousDateTimeRange', () => {
  it('keeps the wall-clock length across DST (the Rome spring day has 23 hours)', () => {
    const range = { start: '2026-03-29T00:00', end: '2026-03-30T00:00' };
    expect(previousDateTimeRange(range, 'week')).toEqual({
      start: '2026-03-22T00:00',
      end: '2026-03-23T00:00',
    });
    expect(
      previousDateTimeRange({ start: '2026-10-25T01:30', end: '2026-10-25T03:30' }, 'year'),
    ).toEqual({ start: '2025-10-25T01:30', end: '2025-10-25T03:30' });
    expect(
      previousDateTimeRange({ start: '2026-03-31T12:00', end: '2026-04-01T12:00' }, 'month'),
    ).toEqual({ start: '2026-02-28T12:00', end: '2026-03-01T12:00' });
  });

  it('keeps the length in minutes (property)', () => {
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 1, max: 60 * 24 * 40 }),
        period,
        (date, minuteOfDay, minutes, which) => {
          const start = date.plus({ minutes: minuteOfDay });
          const range = {
            start: start.toFormat("yyyy-MM-dd'T'HH:mm"),
            end: start.plus({ minutes }).toFormat("yyyy-MM-dd'T'HH:mm"),
          };
          const previous = previousDateTimeRange(range, which);
          expect(rangeMinutes(previous)).toBe(minutes);
          expect(previous.start.slice(11)).toBe(range.start.slice(11));
        },
      ),
    );
  });

  it('refuses an empty or inverted range', () => {
    expect(() =>
      previousDateTimeRange({ start: '2026-03-29T00:00', end: '2026-03-29T00:00' }, 'week'),
    ).toThrow(RangeError);
    expect(() => previousDateRange({ start: '2026-03-29', end: '2026-03-28' }, 'week')).toThrow(
      RangeError,
    );
  });
});

/** Where a previous-period instant is drawn: `days` local days later, as the screens do it. */
const alignToCurrent = (ms: number, zone: string, days: number) =>
  shiftPoints([{ x: ms, y: null }], zone, { days })[0]!.x;

describe('drawing a previous period over the current one', () => {
  it('draws the previous week over the same local hours across the spring DST change', () => {
    const previous = DateTime.fromISO('2026-03-22T03:00', { zone: ROME }).toMillis();
    const aligned = alignToCurrent(previous, ROME, 7);
    expect(DateTime.fromMillis(aligned, { zone: ROME }).toISO()).toBe(
      '2026-03-29T03:00:00.000+02:00',
    );
    // 7 local days, one real hour less.
    expect(aligned - previous).toBe(7 * 24 * 3_600_000 - 3_600_000);
  });

  it('and across the autumn change (25-hour day)', () => {
    const previous = DateTime.fromISO('2026-10-18T12:00', { zone: ROME }).toMillis();
    const aligned = alignToCurrent(previous, ROME, 7);
    expect(DateTime.fromMillis(aligned, { zone: ROME }).toISO()).toBe(
      '2026-10-25T12:00:00.000+01:00',
    );
    expect(aligned - previous).toBe(7 * 24 * 3_600_000 + 3_600_000);
  });

  it('maps each local midnight of a previous period onto the matching day (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        dateText,
        fc.integer({ min: 1, max: 60 }),
        period,
        (zone, start, days, which) => {
          const range = {
            start,
            end: parseDate(start)!
              .plus({ days: days - 1 })
              .toFormat('yyyy-MM-dd'),
          };
          const previous = previousDateRange(range, which);
          const shift = daysBetween(previous.start, range.start);
          const previousDays = listDays(previous);
          const currentDays = listDays(range);
          previousDays.forEach((previousDay, index) => {
            const midnight = DateTime.fromISO(previousDay, { zone }).toMillis();
            const aligned = DateTime.fromMillis(alignToCurrent(midnight, zone, shift), { zone });
            expect(aligned.toFormat('yyyy-MM-dd')).toBe(currentDays[index]);
            expect(aligned.toMillis()).toBe(
              DateTime.fromISO(currentDays[index]!, { zone }).toMillis(),
            );
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('defaults in the plant zone', () => {
  it('takes today in the plant zone, not the machine one', () => {
    // 23:30 UTC on 28 March is already 29 March in Rome, still 28 March in New York.
    const now = Date.parse('2026-03-28T23:30:00Z');
    expect(lastDays(ROME, now, 7)).toEqual({ start: '2026-03-23', end: '2026-03-29' });
    expect(lastDays('America/New_York', now, 1)).toEqual({
      start: '2026-03-28',
      end: '2026-03-28',
    });
    // +05:45: 05:15 local on the 29th.
    expect(lastDaysUntilNextHour('Asia/Kathmandu', now, 1)).toEqual({
      start: '2026-03-28T06:00',
      end: '2026-03-29T06:00',
    });
  });

  it('ends the history default at the next local hour, also on a DST day', () => {
    // 03:10 local (UTC+2) on the 23-hour day.
    const now = Date.parse('2026-03-29T01:10:00Z');
    expect(lastDaysUntilNextHour(ROME, now, 7)).toEqual({
      start: '2026-03-22T04:00',
      end: '2026-03-29T04:00',
    });
  });
});

describe('conversions', () => {
  it('round-trips picker dates through their calendar fields', () => {
    expect(dateFromPicker(pickerDate('2026-03-29')!)).toBe('2026-03-29');
    expect(dateFromPicker(pickerDate('2024-02-29')!)).toBe('2024-02-29');
    expect(pickerDate('nonsense')).toBeNull();
  });

  it('describes ranges for people', () => {
    expect(describeDateRange({ start: '2026-03-01', end: '2026-03-31' })).toBe(
      '1 Mar 2026 – 31 Mar 2026',
    );
    expect(describeDateRange({ start: '2026-03-01', end: '2026-03-01' })).toBe('1 Mar 2026');
  });
});
