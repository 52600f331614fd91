import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  forEachPackedHour,
  packHourDays,
  utcDaysOf,
} from '../../../server/measurements/hourDayPacking.ts';

const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 3, 10);

describe('hours packed by UTC day', () => {
  it('keep each hour with a row, bit for bit, and skip the others', () => {
    const hours = [
      { start: DAY0 + 2 * HOUR, energyKwh: 0.1 + 0.2, coveredSeconds: 3600 },
      { start: DAY0 + 23 * HOUR, energyKwh: null, coveredSeconds: 1800.5 },
      { start: DAY0 + DAY_MS, energyKwh: -0, coveredSeconds: 0 },
    ];
    const days = packHourDays(hours);
    expect(days.map((day) => day.dayStart)).toEqual([DAY0, DAY0 + DAY_MS]);
    const read: [number, number, number][] = [];
    for (const day of days) {
      forEachPackedHour(day.dayStart, day.hours, DAY0, DAY0 + 2 * DAY_MS, (...hour) =>
        read.push(hour),
      );
    }
    expect(read).toEqual([
      [DAY0 + 2 * HOUR, 0.1 + 0.2, 3600],
      [DAY0 + 23 * HOUR, 0, 1800.5],
      [DAY0 + DAY_MS, -0, 0],
    ]);
    const clipped: number[] = [];
    forEachPackedHour(DAY0, days[0]!.hours, DAY0 + 3 * HOUR, DAY0 + 23 * HOUR, (start) =>
      clipped.push(start),
    );
    expect(clipped).toEqual([]);
  });

  it('cover whole UTC days', () => {
    expect(utcDaysOf({ start: DAY0 + HOUR, end: DAY0 + DAY_MS + HOUR })).toEqual({
      start: DAY0,
      end: DAY0 + 2 * DAY_MS,
    });
    expect(utcDaysOf({ start: DAY0 + HOUR, end: DAY0 + HOUR })).toEqual({
      start: DAY0 + HOUR,
      end: DAY0 + HOUR,
    });
  });
});
