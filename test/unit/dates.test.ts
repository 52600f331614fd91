import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  formatLocalDate,
  localDateParam,
  localDateTimeParam,
  parseLocalDate,
  parseLocalDateTime,
} from '../../api/index.ts';

describe('local dates', () => {
  test('accepts calendar days, refuses others', () => {
    expect(parseLocalDate('2026-03-29')).toEqual({ year: 2026, month: 3, day: 29 });
    expect(parseLocalDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    for (const text of ['2026-02-29', '2026-13-01', '2026-00-10', '2026-3-29', '29.03.2026', '']) {
      expect(parseLocalDate(text), text).toBeUndefined();
    }
  });

  test('refuses years before every zone kept quarter-hour offsets, and 9999 whose day ends in year 10000', () => {
    for (const text of ['0001-01-01', '0099-06-15', '1910-01-01', '1979-12-31', '9999-12-31']) {
      expect(parseLocalDate(text), text).toBeUndefined();
    }
    expect(parseLocalDate('1980-01-01')).toBeDefined();
    expect(parseLocalDate('9998-12-31')).toBeDefined();
  });

  test('the parameter answers a message naming itself, the format and the range', () => {
    const result = localDateParam('startDate').safeParse('0026-03-29');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'startDate must be a date in the format yyyy-MM-dd, from 1980 to 9998',
    );
  });

  test('every date in range round-trips through its text', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1980-01-01'), max: new Date('9998-12-31'), noInvalidDate: true }),
        (date) => {
          const text = date.toISOString().slice(0, 10);
          const parsed = parseLocalDate(text);
          expect(parsed).toBeDefined();
          expect(formatLocalDate(parsed!)).toBe(text);
        },
      ),
    );
  });
});

describe('local date-times', () => {
  test("yyyy-MM-dd'T'HH:mm only, within a day", () => {
    expect(parseLocalDateTime('2026-10-25T02:30')).toEqual({
      year: 2026,
      month: 10,
      day: 25,
      hour: 2,
      minute: 30,
    });
    for (const text of ['2026-10-25T24:00', '2026-10-25T02:60', '2026-10-25 02:30', '2026-10-25']) {
      expect(parseLocalDateTime(text), text).toBeUndefined();
    }
    expect(localDateTimeParam('endDate').safeParse('0050-01-01T00:00').success).toBe(false);
  });
});
