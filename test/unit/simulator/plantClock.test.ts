import { IANAZone } from 'luxon';
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

  test('offsets change at the zone’s own instant, not at the next quarter hour of UTC', () => {
    // St John's moved its clocks at 00:01 local time until 2011: 03:31 UTC on 14 March 2010.
    const stJohns = new PlantClock('America/St_Johns');
    expect(stJohns.offsetMinutes(Date.UTC(2010, 2, 14, 3, 30, 59))).toBe(-210);
    expect(stJohns.offsetMinutes(Date.UTC(2010, 2, 14, 3, 31))).toBe(-150);
    expect(stJohns.localHour(Date.UTC(2010, 2, 14, 3, 40))).toBeCloseTo(1 + 10 / 60, 9);
    // Gaza (23:00 UTC) and Casey (17:00 UTC) agree with Luxon minute by minute around theirs.
    for (const [zone, change] of [
      ['Asia/Gaza', Date.UTC(2016, 2, 25, 23)],
      ['Antarctica/Casey', Date.UTC(2018, 2, 10, 17)],
      ['America/Goose_Bay', Date.UTC(2010, 2, 14, 4, 1)],
    ] as const) {
      const clock = new PlantClock(zone);
      for (let minute = -30; minute <= 30; minute++) {
        const at = change + minute * 60_000;
        expect(clock.offsetMinutes(at), `${zone} ${new Date(at).toISOString()}`).toBe(
          IANAZone.create(zone).offset(at),
        );
      }
    }
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
