import { describe, expect, it } from 'vitest';
import type { Series } from '../../../api/schemas/metrics.ts';
import { sunEvents } from '../../../server/domain/sunriseSunset.ts';
import {
  daylightAvailability,
  hoursOf,
  type HourProduction,
} from '../../../server/domain/reports/index.ts';

const HOUR = 3_600_000;
const MADRID = { latitude: 40.42, longitude: -3.7 };
const TROMSO = { latitude: 69.65, longitude: 18.96 };

/** Hours from `startUtc`, each with `value(localHour)` (local: UTC + `offsetHours`). */
function hours(
  startUtc: string,
  count: number,
  offsetHours: number,
  value: (localHour: number) => number | null,
  coverage = 1,
): HourProduction[] {
  const start = Date.parse(startUtc);
  return Array.from({ length: count }, (_, index) => {
    const startMs = start + index * HOUR;
    const v = value((new Date(startMs).getUTCHours() + offsetHours + 24) % 24);
    return { startMs, endMs: startMs + HOUR, value: v, coverage: v === null ? 0 : coverage };
  });
}

/** Sunrise to sunset of a local day by the independent sunrise/sunset computation, hours. */
function dayLength(date: string, offsetMinutes: number, site: typeof MADRID): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const events = sunEvents({ year, month, day }, offsetMinutes, {
    latitudeDeg: site.latitude,
    longitudeDeg: site.longitude,
  });
  return (events.sunsetMs! - events.sunriseMs!) / HOUR;
}

describe('daylight availability', () => {
  it('measures against the daylight of the day: dawn and dusk hours without production are unavailable', () => {
    // Midsummer in Madrid (CEST): production from 08:00 to 20:00 local only.
    const day = hours('2026-06-20T22:00:00Z', 24, 2, (h) => (h >= 8 && h < 20 ? 1500 : 0));
    const result = daylightAvailability(day, MADRID);
    const daylight = dayLength('2026-06-21', 120, MADRID);
    expect(result.daylightHours).toBeCloseTo(daylight, 0);
    expect(Math.abs(result.daylightHours - daylight)).toBeLessThan(0.15);
    expect(result.producingHours).toBe(12);
    expect(result.unavailableHours).toBeCloseTo(result.daylightHours - 12, 2);
    expect(result.unknownHours).toBe(0);
    expect(result.ratio).toBeCloseTo(12 / result.daylightHours, 3);
    expect(result.missing).toBeNull();
  });

  it('does not count the night, produced or not', () => {
    const night = hours('2026-03-14T23:00:00Z', 5, 1, () => 0);
    expect(daylightAvailability(night, MADRID)).toMatchObject({
      ratio: null,
      daylightHours: 0,
      missing: 'NO_DAYLIGHT',
    });
    // A whole day producing only in daylight is fully available.
    const sunny = hours('2026-03-14T23:00:00Z', 24, 1, (h) => (h >= 7 && h < 20 ? 800 : 0));
    expect(daylightAvailability(sunny, MADRID).ratio).toBe(1);
  });

  it('counts daylight hours without data apart, as unknown', () => {
    // 10:00–16:00 produced, 16:00–19:00 no data, the rest of the daylight at 0 W.
    const day = hours('2026-06-20T22:00:00Z', 24, 2, (h) =>
      h >= 10 && h < 16 ? 2000 : h >= 16 && h < 19 ? null : 0,
    );
    const result = daylightAvailability(day, MADRID);
    expect(result.producingHours).toBe(6);
    expect(result.unknownHours).toBe(3);
    expect(result.ratio).toBeCloseTo(6 / (result.daylightHours - 3), 3);
    // No data in any daylight hour: no figure, said so.
    const silent = hours('2026-06-20T22:00:00Z', 24, 2, () => null);
    expect(daylightAvailability(silent, MADRID)).toMatchObject({
      ratio: null,
      missing: 'NO_DATA',
    });
  });

  it('splits a partly covered hour by its coverage', () => {
    const noon = hours('2026-06-21T10:00:00Z', 2, 2, (h) => (h === 12 ? 900 : 0), 0.5);
    expect(daylightAvailability(noon, MADRID)).toMatchObject({
      daylightHours: 2,
      producingHours: 0.5,
      unavailableHours: 0.5,
      unknownHours: 1,
      ratio: 0.5,
    });
  });

  it('has 24 hours of daylight on a polar day and none on a polar night', () => {
    const polarDay = hours('2026-06-20T22:00:00Z', 24, 2, () => 300);
    expect(daylightAvailability(polarDay, TROMSO)).toMatchObject({
      ratio: 1,
      daylightHours: 24,
    });
    const polarNight = hours('2026-12-20T23:00:00Z', 24, 1, () => 0);
    expect(daylightAvailability(polarNight, TROMSO)).toMatchObject({
      ratio: null,
      daylightHours: 0,
      missing: 'NO_DAYLIGHT',
    });
  });

  it('reads a 23-hour day from the series’ local timestamps (Madrid, 2026-03-29)', () => {
    const start = Date.parse('2026-03-28T23:00:00Z');
    const stamp = (ms: number) => {
      const offset = ms < Date.parse('2026-03-29T01:00:00Z') ? 1 : 2;
      const local = new Date(ms + offset * HOUR).toISOString().slice(0, 19);
      return `${local}+0${offset}:00`;
    };
    const series: Series = {
      plantUuid: '11111111-1111-4111-8111-111111111111',
      timezone: 'Europe/Madrid',
      unit: 'W',
      from: stamp(start),
      to: stamp(start + 23 * HOUR),
      points: Array.from({ length: 23 }, (_, index) => {
        const utcHour = new Date(start + index * HOUR).getUTCHours();
        const value = utcHour >= 5 && utcHour < 19 ? 1000 : 0;
        return { timestamp: stamp(start + index * HOUR), value, coverage: 1 };
      }),
    };
    expect(series.points[2]!.timestamp).toBe('2026-03-29T03:00:00+02:00');
    const parsed = hoursOf(series);
    expect(parsed.reduce((total, hour) => total + (hour.endMs - hour.startMs), 0)).toBe(23 * HOUR);
    const result = daylightAvailability(parsed, MADRID);
    expect(Math.abs(result.daylightHours - dayLength('2026-03-29', 120, MADRID))).toBeLessThan(
      0.15,
    );
    expect(result.ratio).toBe(1);
  });

  it('needs the plant’s location and readable production', () => {
    expect(daylightAvailability([], null).missing).toBe('NO_LOCATION');
    expect(daylightAvailability(null, MADRID).missing).toBe('NOT_READABLE');
  });
});
