import { describe, expect, it } from 'vitest';
import type { Series } from '../../../api/schemas/metrics.ts';
import { sunEvents } from '../../../server/domain/sunriseSunset.ts';
import { haurwitzGhi } from '../../../server/domain/clearSky.ts';
import { createSolarPositionCalculator } from '../../../server/domain/solarPositionFast.ts';
import {
  AVAILABILITY_SUN_ELEVATION_DEG,
  daylightAvailability,
  daylightHoursIn,
  hoursOf,
  type HourProduction,
} from '../../../server/domain/reports/index.ts';

const HOUR = 3_600_000;
const MADRID = { latitude: 40.42, longitude: -3.7 };
const TROMSO = { latitude: 69.65, longitude: 18.96 };
const LONGYEARBYEN = { latitude: 78.22, longitude: 15.65 };

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

const elevationAt = (site: typeof MADRID) => {
  const position = createSolarPositionCalculator({
    latitudeDeg: site.latitude,
    longitudeDeg: site.longitude,
  });
  return (ms: number) => position(ms).elevationDeg;
};

/** Hours between two instants with the sun at least the threshold high, by the minute. */
function hoursAbove(site: typeof MADRID, from: string | number, to: string | number): number {
  const sun = elevationAt(site);
  const [startMs, endMs] = [from, to].map((at) => (typeof at === 'number' ? at : Date.parse(at)));
  let minutes = 0;
  for (let at = startMs! + 30_000; at < endMs!; at += 60_000)
    if (sun(at) >= AVAILABILITY_SUN_ELEVATION_DEG) minutes += 1;
  return minutes / 60;
}

describe('daylight availability', () => {
  it('measures against the daylight of the day: dawn and dusk hours without production are unavailable', () => {
    // Midsummer in Madrid (CEST): production from 08:00 to 20:00 local only.
    const day = hours('2026-06-20T22:00:00Z', 24, 2, (h) => (h >= 8 && h < 20 ? 1500 : 0));
    const result = daylightAvailability(day, MADRID);
    const daylight = hoursAbove(MADRID, '2026-06-20T22:00:00Z', '2026-06-21T22:00:00Z');
    expect(Math.abs(result.daylightHours - daylight)).toBeLessThan(0.1);
    // Sunrise to sunset is longer by the low sun at both ends, which does not count.
    expect(dayLength('2026-06-21', 120, MADRID) - result.daylightHours).toBeGreaterThan(0.7);
    expect(result.producingHours).toBe(12);
    expect(result.unavailableHours).toBeCloseTo(result.daylightHours - 12, 2);
    expect(result.unknownHours).toBe(0);
    expect(result.ratio).toBeCloseTo(12 / result.daylightHours, 3);
    expect(result.missing).toBeNull();
  });

  it('does not count 0 W at dawn and dusk, with the sun under the threshold', () => {
    // Madrid, 21 June, 06:00–07:00 CEST: the sun rises at 06:44 and is under 2° at 07:00.
    const dawn = hours('2026-06-21T04:00:00Z', 1, 2, () => 0);
    expect(daylightAvailability(dawn, MADRID)).toMatchObject({
      ratio: null,
      daylightHours: 0,
      missing: 'NO_DAYLIGHT',
    });
    // Without the threshold those 16 minutes would have been daylight, and an outage.
    const sun = elevationAt(MADRID);
    const [start, end] = [Date.parse('2026-06-21T04:00:00Z'), Date.parse('2026-06-21T05:00:00Z')];
    expect(daylightHoursIn(sun, start, end, 0)).toBeGreaterThan(0.2);
    expect(daylightHoursIn(sun, start, end)).toBe(0);
    // A whole day producing from the hour the sun reaches 5° to the hour it leaves it, and at
    // 0 W in the dim hours at each end: fully available. The hour it crosses 5° counts in part.
    const day = hours('2026-06-20T22:00:00Z', 24, 2, (h) => (h >= 7 && h < 22 ? 900 : 0));
    const result = daylightAvailability(day, MADRID);
    expect(result).toMatchObject({ ratio: 1, unavailableHours: 0 });
    expect(result.daylightHours).toBeLessThan(15);
    // The same plant dark until 08:00 loses only the part of 07:00–08:00 with the sun above 5°.
    const late = hours('2026-06-20T22:00:00Z', 24, 2, (h) => (h >= 8 && h < 22 ? 900 : 0));
    const lost = hoursAbove(MADRID, '2026-06-21T05:00:00Z', '2026-06-21T06:00:00Z');
    expect(lost).toBeGreaterThan(0.5);
    expect(lost).toBeLessThan(1);
    expect(Math.abs(daylightAvailability(late, MADRID).unavailableHours - lost)).toBeLessThan(0.1);
  });

  it('takes the threshold where a clear sky gives about 50 W/m²', () => {
    expect(haurwitzGhi(90 - AVAILABILITY_SUN_ELEVATION_DEG)).toBeGreaterThan(45);
    expect(haurwitzGhi(90 - AVAILABILITY_SUN_ELEVATION_DEG)).toBeLessThan(55);
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

  it('counts a polar day’s low midnight sun out, and has no daylight on a polar night', () => {
    // Tromsø's midnight sun stays above the horizon but dips to about 3° (under 5° from 23:05
    // to 02:25 local): at 0 W from 00:00 to 02:00 the plant is not unavailable.
    const midsummer = hours('2026-06-20T22:00:00Z', 24, 2, (h) => (h < 2 ? 0 : 300));
    const tromso = daylightAvailability(midsummer, TROMSO);
    expect(tromso).toMatchObject({ ratio: 1, unavailableHours: 0 });
    const above = hoursAbove(TROMSO, '2026-06-20T22:00:00Z', '2026-06-21T22:00:00Z');
    expect(above).toBeLessThan(23);
    expect(Math.abs(tromso.daylightHours - above)).toBeLessThan(0.1);
    // Further north the sun stays above 5° all day: 24 hours of daylight.
    const polarDay = hours('2026-06-20T22:00:00Z', 24, 2, () => 300);
    expect(daylightAvailability(polarDay, LONGYEARBYEN)).toMatchObject({
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
    const daylight = hoursAbove(MADRID, start, start + 23 * HOUR);
    expect(Math.abs(result.daylightHours - daylight)).toBeLessThan(0.1);
    expect(dayLength('2026-03-29', 120, MADRID) - result.daylightHours).toBeGreaterThan(0.7);
    expect(result.ratio).toBe(1);
    // Dark from 08:00 to 09:00 CEST (sunrise 08:16) and from 20:00 to 21:00 (sunset 20:50): only
    // the time with the sun above 5° in those hours is lost.
    const dim = parsed.map((hour) => {
      const utc = new Date(hour.startMs).getUTCHours();
      return utc === 6 || utc === 18 ? { ...hour, value: 0 } : hour;
    });
    const lost =
      hoursAbove(MADRID, '2026-03-29T06:00:00Z', '2026-03-29T07:00:00Z') +
      hoursAbove(MADRID, '2026-03-29T18:00:00Z', '2026-03-29T19:00:00Z');
    expect(lost).toBeGreaterThan(0.3);
    expect(lost).toBeLessThan(1.5);
    // The function samples every 5 minutes, this every minute: a few minutes apart per crossing.
    expect(Math.abs(daylightAvailability(dim, MADRID).unavailableHours - lost)).toBeLessThan(0.1);
  });

  it('needs the plant’s location and readable production', () => {
    expect(daylightAvailability([], null).missing).toBe('NO_LOCATION');
    expect(daylightAvailability(null, MADRID).missing).toBe('NOT_READABLE');
  });
});
