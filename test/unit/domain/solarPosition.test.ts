import { describe, expect, test } from 'vitest';
import {
  createSolarPositionCalculator,
  geocentricSun,
  julianDay,
  normalizeDeg180,
  solarPosition,
  sunEvents,
  type Observer,
} from '../../../server/domain/index.ts';

/**
 * The worked example of the SPA report (Reda & Andreas, NREL/TP-560-34302, rev. 2008, Table A5.1):
 * 2003-10-17 12:30:30 local time at UTC−7 (19:30:30 UTC), Golden, Colorado.
 */
const SPA_EXAMPLE_TIME = Date.UTC(2003, 9, 17, 19, 30, 30);
const SPA_EXAMPLE_OBSERVER: Observer = {
  latitudeDeg: 39.742476,
  longitudeDeg: -105.1786,
  elevationM: 1830.14,
  pressureMbar: 820,
  temperatureC: 11,
  deltaTSeconds: 67,
};
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

describe('solarPosition (NREL SPA)', () => {
  test('matches the intermediate values of the SPA report example (Table A5.2)', () => {
    const jd = julianDay(SPA_EXAMPLE_TIME);
    expect(jd).toBeCloseTo(2452930.312847, 6);
    const sun = geocentricSun(jd + 67 / 86_400);
    expect(sun.heliocentricLongitudeDeg).toBeCloseTo(24.0182616917, 9);
    expect(sun.heliocentricLatitudeDeg).toBeCloseTo(-0.0001011219, 9);
    expect(sun.earthSunDistanceAu).toBeCloseTo(0.9965422974, 9);
    expect(sun.nutationLongitudeDeg).toBeCloseTo(-0.0039984, 7);
    expect(sun.nutationObliquityDeg).toBeCloseTo(0.00166657, 8);
    expect(sun.trueObliquityDeg).toBeCloseTo(23.440465, 6);
    expect(sun.apparentLongitudeDeg).toBeCloseTo(204.0085519281, 9);
    expect(sun.rightAscensionDeg).toBeCloseTo(202.22741, 5);
    expect(sun.declinationDeg).toBeCloseTo(-9.31434, 5);
  });

  test("gives the report's topocentric zenith 50.11162° and azimuth 194.34024°", () => {
    const position = solarPosition(SPA_EXAMPLE_TIME, SPA_EXAMPLE_OBSERVER);
    expect(Math.abs(position.zenithDeg - 50.11162)).toBeLessThan(1e-5);
    expect(Math.abs(position.azimuthDeg - 194.34024)).toBeLessThan(1e-5);
    expect(position.elevationDeg).toBeCloseTo(39.888378, 6);
    expect(position.declinationDeg).toBeCloseTo(-9.316179, 6);
    expect(position.hourAngleDeg).toBeCloseTo(11.10629, 4);
  });

  test('accepts a Date or epoch milliseconds alike', () => {
    expect(solarPosition(new Date(SPA_EXAMPLE_TIME), SPA_EXAMPLE_OBSERVER)).toEqual(
      solarPosition(SPA_EXAMPLE_TIME, SPA_EXAMPLE_OBSERVER),
    );
  });

  test('azimuth is a compass bearing: east in the morning, south at noon in the north, north in the south', () => {
    const rome: Observer = { latitudeDeg: 41.9, longitudeDeg: 12.5 };
    const morning = solarPosition(Date.UTC(2025, 5, 21, 5, 0), rome);
    expect(morning.azimuthDeg).toBeGreaterThan(45);
    expect(morning.azimuthDeg).toBeLessThan(135);
    const romeNoon = sunEvents({ year: 2025, month: 6, day: 21 }, 120, rome).transitMs;
    const noon = solarPosition(romeNoon, rome);
    expect(Math.abs(noon.azimuthDeg - 180)).toBeLessThan(0.1);
    expect(noon.elevationDeg).toBeCloseTo(90 - 41.9 + 23.44, 1);
    const sydney: Observer = { latitudeDeg: -33.87, longitudeDeg: 151.21 };
    const sydneyNoon = sunEvents({ year: 2025, month: 1, day: 15 }, 660, sydney).transitMs;
    expect(Math.abs(normalizeDeg180(solarPosition(sydneyNoon, sydney).azimuthDeg))).toBeLessThan(
      0.1,
    );
  });

  test('the equation of time reaches its known extremes: about −14.2 min in February, +16.4 min in November', () => {
    const observer: Observer = { latitudeDeg: 0, longitudeDeg: 0 };
    let minimum = Infinity;
    let maximum = -Infinity;
    for (let day = 0; day < 366; day += 1) {
      const eot = solarPosition(
        Date.UTC(2025, 0, 1, 12) + day * DAY_MS,
        observer,
      ).equationOfTimeMinutes;
      minimum = Math.min(minimum, eot);
      maximum = Math.max(maximum, eot);
    }
    // Almanac values: −14 min 15 s around 11 February, +16 min 25 s around 3 November.
    expect(Math.abs(minimum - (-14 - 15 / 60))).toBeLessThan(0.1);
    expect(Math.abs(maximum - (16 + 25 / 60))).toBeLessThan(0.1);
  });
});

describe('createSolarPositionCalculator (SPA fast path)', () => {
  test('gives the report example to 1e−5°', () => {
    const position = createSolarPositionCalculator(SPA_EXAMPLE_OBSERVER)(SPA_EXAMPLE_TIME);
    expect(Math.abs(position.zenithDeg - 50.11162)).toBeLessThan(1e-5);
    expect(Math.abs(position.azimuthDeg - 194.34024)).toBeLessThan(1e-5);
  });

  const locations: Record<string, Observer> = {
    rome: { latitudeDeg: 41.9, longitudeDeg: 12.5, elevationM: 20 },
    sydney: { latitudeDeg: -33.87, longitudeDeg: 151.21, elevationM: 50 },
    kathmandu: { latitudeDeg: 27.7, longitudeDeg: 85.3, elevationM: 1400 },
    tromso: { latitudeDeg: 69.65, longitudeDeg: 18.96 },
  };

  test.each(Object.entries(locations))(
    'stays within 1e−4° of the full SPA over a whole year in %s',
    (_name, observer) => {
      const fast = createSolarPositionCalculator(observer);
      const start = Date.UTC(2025, 0, 1);
      let maxZenithError = 0;
      let maxAzimuthError = 0;
      // 37-minute steps visit every time of day and every node offset within the hour.
      for (let time = start; time < start + 365 * DAY_MS; time += 37 * MINUTE_MS) {
        const exact = solarPosition(time, observer);
        const approximate = fast(time);
        maxZenithError = Math.max(
          maxZenithError,
          Math.abs(exact.zenithDeg - approximate.zenithDeg),
        );
        if (exact.elevationDeg > -5 && exact.elevationDeg < 89) {
          maxAzimuthError = Math.max(
            maxAzimuthError,
            Math.abs(normalizeDeg180(exact.azimuthDeg - approximate.azimuthDeg)),
          );
        }
      }
      expect(maxZenithError).toBeLessThan(1e-4);
      expect(maxAzimuthError).toBeLessThan(1e-4);
    },
  );

  test('handles random access and right ascension crossing 0° at the March equinox', () => {
    const observer = locations.rome!;
    const fast = createSolarPositionCalculator(observer);
    const equinox = Date.UTC(2025, 2, 20, 9, 1);
    for (const offset of [0, -DAY_MS * 200, 30 * MINUTE_MS, DAY_MS * 100, -7 * MINUTE_MS]) {
      const time = equinox + offset;
      expect(fast(time).zenithDeg).toBeCloseTo(solarPosition(time, observer).zenithDeg, 5);
    }
  });
});

describe('sunEvents (SPA appendix A.2)', () => {
  const localClock = (ms: number | null, offsetMinutes: number): string =>
    new Date(ms! + offsetMinutes * MINUTE_MS).toISOString().slice(11, 19);

  test('gives the report example: sunrise 06:12:43, sunset 17:20:19 local time', () => {
    const events = sunEvents({ year: 2003, month: 10, day: 17 }, -420, SPA_EXAMPLE_OBSERVER);
    expect(events.kind).toBe('NORMAL');
    expect(localClock(events.sunriseMs, -420)).toBe('06:12:43');
    expect(localClock(events.sunsetMs, -420)).toBe('17:20:19');
    // Solar noon: 12:00 − (longitude offset from the UTC−7 meridian) − equation of time ≈ 11:46.
    expect(localClock(events.transitMs, -420)).toMatch(/^11:46:/);
  });

  test('places the events inside the requested local day, east of Greenwich too', () => {
    const events = sunEvents({ year: 2025, month: 1, day: 15 }, 660, {
      latitudeDeg: -33.87,
      longitudeDeg: 151.21,
    });
    const localMidnight = Date.UTC(2025, 0, 15) - 660 * MINUTE_MS;
    expect(events.sunriseMs! - localMidnight).toBeGreaterThan(5.5 * 3_600_000);
    expect(events.sunriseMs! - localMidnight).toBeLessThan(6.5 * 3_600_000);
    expect(events.sunsetMs! - localMidnight).toBeGreaterThan(19.5 * 3_600_000);
    expect(events.sunsetMs! - localMidnight).toBeLessThan(20.5 * 3_600_000);
    // At the computed sunrise the sun's centre stands 0.83° below the horizon (disc + refraction).
    const atSunrise = solarPosition(events.sunriseMs!, {
      latitudeDeg: -33.87,
      longitudeDeg: 151.21,
    });
    expect(atSunrise.elevationDeg).toBeCloseTo(-0.83 + 0.57, 0);
  });

  test('reports polar day and polar night', () => {
    const svalbard: Observer = { latitudeDeg: 78.2, longitudeDeg: 15.6 };
    const summer = sunEvents({ year: 2025, month: 6, day: 21 }, 120, svalbard);
    expect(summer).toMatchObject({ kind: 'POLAR_DAY', sunriseMs: null, sunsetMs: null });
    expect(sunEvents({ year: 2025, month: 12, day: 21 }, 60, svalbard).kind).toBe('POLAR_NIGHT');
  });
});
