import { describe, expect, test } from 'vitest';
import { DateTime } from 'luxon';
import { tickStep, timeTicks } from '../../../../renderer/src/charts/timeTicks.ts';

const HOUR = 3_600_000;
const local = (ms: number, zone: string) =>
  DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm ZZ');

describe('timeTicks', () => {
  test('the 23-hour day in Europe/Rome: 3-hour ticks stay on 00, 03, 06… local', () => {
    const min = Date.UTC(2026, 2, 28, 23); // 2026-03-29 00:00 +01:00
    const max = Date.UTC(2026, 2, 29, 22); // 2026-03-30 00:00 +02:00
    const ticks = timeTicks(min, max, 'Europe/Rome', 8);
    expect(ticks.map((tick) => tick.label)).toEqual([
      '29 Mar',
      '03:00',
      '06:00',
      '09:00',
      '12:00',
      '15:00',
      '18:00',
      '21:00',
      '30 Mar',
    ]);
    expect(ticks.map((tick) => tick.major)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(ticks[1]!.value - ticks[0]!.value).toBe(2 * HOUR);
    expect(local(ticks[1]!.value, 'Europe/Rome')).toBe('2026-03-29 03:00 +02:00');
  });

  test('the 25-hour day: 3-hour ticks, the 03:00 one hour after the second 02:00', () => {
    const min = Date.UTC(2026, 9, 24, 22); // 2026-10-25 00:00 +02:00
    const max = Date.UTC(2026, 9, 25, 23); // 2026-10-26 00:00 +01:00
    // 25 hours: 8 ticks would call for a 6-hour step.
    expect(timeTicks(min, max, 'Europe/Rome', 8).map((tick) => tick.label)).toEqual([
      '25 Oct',
      '06:00',
      '12:00',
      '18:00',
      '26 Oct',
    ]);
    const ticks = timeTicks(min, max, 'Europe/Rome', 9);
    expect(ticks.map((tick) => tick.label)).toEqual([
      '25 Oct',
      '03:00',
      '06:00',
      '09:00',
      '12:00',
      '15:00',
      '18:00',
      '21:00',
      '26 Oct',
    ]);
    expect(ticks[1]!.value - ticks[0]!.value).toBe(4 * HOUR);
  });

  test('+05:45: 15-minute ticks on the local quarter hours', () => {
    const min = Date.UTC(2026, 2, 29, 0, 20); // 06:05 +05:45
    const max = min + 2 * HOUR;
    const ticks = timeTicks(min, max, 'Asia/Kathmandu', 10);
    expect(ticks.map((tick) => tick.label)).toEqual([
      '06:15',
      '06:30',
      '06:45',
      '07:00',
      '07:15',
      '07:30',
      '07:45',
      '08:00',
    ]);
  });

  test('days, months and years, with majors', () => {
    const zone = 'Asia/Kolkata';
    const day = (iso: string) => DateTime.fromISO(iso, { zone }).toMillis();
    expect(
      timeTicks(day('2026-03-27'), day('2026-04-03'), zone, 10).map((t) => [t.label, t.major]),
    ).toEqual([
      ['27 Mar', false],
      ['28 Mar', false],
      ['29 Mar', false],
      ['30 Mar', false],
      ['31 Mar', false],
      ['1 Apr', true],
      ['2 Apr', false],
      ['3 Apr', false],
    ]);
    expect(timeTicks(day('2025-11-15'), day('2026-05-20'), zone, 8).map((t) => t.label)).toEqual([
      'Dec',
      '2026',
      'Feb',
      'Mar',
      'Apr',
      'May',
    ]);
    expect(timeTicks(day('2020-06-01'), day('2026-06-01'), zone, 4).map((t) => t.label)).toEqual([
      '2022',
      '2024',
      '2026',
    ]);
  });

  test('never more than about maxTicks, whatever the span', () => {
    for (const span of [5_000, 90_000, 7 * HOUR, 40 * HOUR, 9 * 24 * HOUR, 400 * 24 * HOUR]) {
      const ticks = timeTicks(0, span, 'Europe/Rome', 10);
      expect(ticks.length).toBeGreaterThan(0);
      expect(ticks.length).toBeLessThanOrEqual(11);
    }
    expect(timeTicks(10, 5, 'UTC', 10)).toEqual([]);
    expect(tickStep(14 * HOUR, 12)).toEqual({ unit: 'hour', count: 2, ms: 2 * HOUR });
  });
});

describe('timeTicks in German and Italian', () => {
  test('the same instants on the local clock, month names in the language', () => {
    const min = Date.UTC(2026, 2, 28, 23); // 2026-03-29 00:00 +01:00
    const max = Date.UTC(2026, 2, 29, 22); // 2026-03-30 00:00 +02:00
    const english = timeTicks(min, max, 'Europe/Rome', 8);
    const german = timeTicks(min, max, 'Europe/Rome', 8, 'de');
    expect(german.map((tick) => tick.value)).toEqual(english.map((tick) => tick.value));
    const clock = english.slice(1, -1).map((tick) => tick.label);
    expect(clock[0]).toBe('03:00');
    expect(german.map((tick) => tick.label)).toEqual(['29. Mär', ...clock, '30. Mär']);
    expect(timeTicks(min, max, 'Europe/Rome', 8, 'it')[0]!.label).toBe('29 mar');
  });

  test('month ticks: German month names, the year on January', () => {
    const min = Date.UTC(2025, 9, 1);
    const max = Date.UTC(2026, 3, 1);
    expect(timeTicks(min, max, 'Europe/Rome', 8, 'de').map((tick) => tick.label)).toEqual([
      'Nov',
      'Dez',
      '2026',
      'Feb',
      'Mär',
      'Apr',
    ]);
  });
});
