import { describe, expect, test } from 'vitest';
import {
  hoursOfLocalDay,
  nextLocalHours,
  pastLocalHours,
} from '../../../server/forecasts/forecastHours.ts';
import { formatLocal } from '../../../server/measurements/metrics/localTime.ts';

const local = (zone: string, ranges: { start: number }[]) =>
  ranges.map((range) => formatLocal(zone, range.start));

describe('forecast hours', () => {
  test('start at the next full local hour', () => {
    const hours = nextLocalHours('Europe/Rome', Date.parse('2026-06-10T08:20:00Z'), 3);
    expect(local('Europe/Rome', hours)).toEqual([
      '2026-06-10T11:00:00+02:00',
      '2026-06-10T12:00:00+02:00',
      '2026-06-10T13:00:00+02:00',
    ]);
    // Exactly on the hour, that hour is the first.
    expect(nextLocalHours('Europe/Rome', Date.parse('2026-06-10T09:00:00Z'), 1)[0]!.start).toBe(
      Date.parse('2026-06-10T09:00:00Z'),
    );
  });

  test('cross a DST change hour by hour, and follow :45 offsets', () => {
    const rome = nextLocalHours('Europe/Rome', Date.parse('2026-03-29T00:30:00Z'), 3);
    expect(local('Europe/Rome', rome)).toEqual([
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T04:00:00+02:00',
      '2026-03-29T05:00:00+02:00',
    ]);
    const kathmandu = nextLocalHours('Asia/Kathmandu', Date.parse('2026-06-10T04:00:00Z'), 1);
    expect(local('Asia/Kathmandu', kathmandu)).toEqual(['2026-06-10T10:00:00+05:45']);
  });

  test('a local day has 23, 24 or 25 hours', () => {
    expect(hoursOfLocalDay('Europe/Rome', { year: 2026, month: 3, day: 29 })).toHaveLength(23);
    expect(hoursOfLocalDay('Europe/Rome', { year: 2026, month: 6, day: 10 })).toHaveLength(24);
    const autumn = hoursOfLocalDay('Europe/Rome', { year: 2026, month: 10, day: 25 });
    expect(autumn).toHaveLength(25);
    expect(local('Europe/Rome', autumn.slice(2, 4))).toEqual([
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
    ]);
  });

  test('history ends with the last complete hour', () => {
    const past = pastLocalHours('Europe/Rome', Date.parse('2026-06-10T08:20:00Z'), 2);
    expect(local('Europe/Rome', past)).toEqual([
      '2026-06-10T08:00:00+02:00',
      '2026-06-10T09:00:00+02:00',
    ]);
    expect(past[1]!.end).toBe(Date.parse('2026-06-10T08:00:00Z'));
  });
});
