import { describe, expect, test } from 'vitest';
import { isWeekend, PlantClock } from '../../../server/simulator/plantClock.ts';
import { dayIndexOf } from './simulatorFixture.ts';

describe('PlantClock', () => {
  test('local days and hours follow the zone, half- and quarter-hour offsets included', () => {
    const noonUtc = Date.UTC(2026, 0, 15, 12, 0);
    expect(new PlantClock('Europe/Rome').localHour(noonUtc)).toBe(13);
    expect(new PlantClock('Asia/Kolkata').localHour(noonUtc)).toBe(17.5);
    expect(new PlantClock('Asia/Kathmandu').localHour(noonUtc)).toBe(17.75);
    const lateUtc = Date.UTC(2026, 0, 15, 23, 0);
    expect(new PlantClock('Australia/Sydney').localDay(lateUtc)).toBe(dayIndexOf(2026, 1, 16));
    expect(new PlantClock('America/New_York').localDay(lateUtc)).toBe(dayIndexOf(2026, 1, 15));
  });

  test('wall-clock times keep their meaning on DST days', () => {
    const rome = new PlantClock('Europe/Rome');
    // 29 March 2026: clocks go from 02:00 to 03:00; 18:30 is 16:30 UTC that day.
    expect(rome.wallClockMs(dayIndexOf(2026, 3, 29), 18 * 60 + 30)).toBe(
      Date.UTC(2026, 2, 29, 16, 30),
    );
    expect(rome.wallClockMs(dayIndexOf(2026, 3, 28), 18 * 60 + 30)).toBe(
      Date.UTC(2026, 2, 28, 17, 30),
    );
    // 02:30 does not exist that morning: it moves forward.
    expect(rome.wallClockMs(dayIndexOf(2026, 3, 29), 150)).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });

  test('an unknown zone falls back to UTC', () => {
    expect(new PlantClock('Mars/Olympus_Mons').localHour(Date.UTC(2026, 0, 1, 7, 0))).toBe(7);
  });

  test('weekends', () => {
    expect(isWeekend(dayIndexOf(2026, 11, 21))).toBe(true); // Saturday
    expect(isWeekend(dayIndexOf(2026, 11, 22))).toBe(true);
    expect(isWeekend(dayIndexOf(2026, 11, 23))).toBe(false);
    expect(isWeekend(-1)).toBe(false); // 1969-12-31, a Wednesday
  });
});
