import {
  apparentSiderealTimeDeg,
  epochMsOf,
  geocentricSun,
  julianDay,
  observerGeometry,
  topocentricPosition,
  type Observer,
  type SolarPosition,
} from './solarPosition.ts';

/**
 * Fast path of the SPA for long time series (the simulator, forecasts, PV health).
 *
 * The expensive observer-independent part of the SPA (geocentric right ascension, declination,
 * Earth–Sun distance, nutation, obliquity, equation of time) changes slowly and smoothly: it is
 * computed exactly at whole UTC hours and interpolated linearly in between. The observer part
 * (sidereal time, hour angle, parallax, refraction, horizon coordinates) is evaluated exactly at
 * every instant. The largest second derivative among the interpolated quantities is that of the
 * right ascension (≈ 1°/day varying by ±10 % over a year): over a year at 1-minute resolution the
 * zenith and azimuth differ from the full SPA by at most ~5e−6° (measured at 42°N, 34°S, 70°N;
 * the tests assert 1e−4°). Cost: about 0.3 µs a call against 3.5 µs for the full SPA.
 */

const NODE_SPACING_MS = 3_600_000;
const SECONDS_PER_DAY = 86_400;
/** Hourly nodes kept per calculator: ~170 days of random access before the cache is reset. */
const MAX_CACHED_NODES = 4096;

interface GeocentricNode {
  rightAscensionDeg: number;
  declinationDeg: number;
  earthSunDistanceAu: number;
  nutationLongitudeDeg: number;
  trueObliquityDeg: number;
  equationOfTimeMinutes: number;
}

/** Computes the sun's position for one observer at any instant; see the module comment. */
export type SolarPositionCalculator = (time: Date | number) => SolarPosition;

export function createSolarPositionCalculator(observer: Observer): SolarPositionCalculator {
  const geometry = observerGeometry(observer);
  const deltaTDays = geometry.deltaTSeconds / SECONDS_PER_DAY;
  const nodes = new Map<number, GeocentricNode>();
  let lowerIndex = Number.NaN;
  let lower: GeocentricNode | undefined;
  let upper: GeocentricNode | undefined;

  function nodeAt(index: number): GeocentricNode {
    const cached = nodes.get(index);
    if (cached) return cached;
    if (nodes.size >= MAX_CACHED_NODES) nodes.clear();
    const sun = geocentricSun(julianDay(index * NODE_SPACING_MS) + deltaTDays);
    const node: GeocentricNode = {
      rightAscensionDeg: sun.rightAscensionDeg,
      declinationDeg: sun.declinationDeg,
      earthSunDistanceAu: sun.earthSunDistanceAu,
      nutationLongitudeDeg: sun.nutationLongitudeDeg,
      trueObliquityDeg: sun.trueObliquityDeg,
      equationOfTimeMinutes: sun.equationOfTimeMinutes,
    };
    nodes.set(index, node);
    return node;
  }

  return (time) => {
    const epochMs = epochMsOf(time);
    const index = Math.floor(epochMs / NODE_SPACING_MS);
    if (index !== lowerIndex || !lower || !upper) {
      lower = nodeAt(index);
      upper = nodeAt(index + 1);
      lowerIndex = index;
    }
    const f = (epochMs - index * NODE_SPACING_MS) / NODE_SPACING_MS;
    let rightAscensionStep = upper.rightAscensionDeg - lower.rightAscensionDeg;
    if (rightAscensionStep < -180) rightAscensionStep += 360; // crossing the vernal equinox
    const nutationLongitudeDeg =
      lower.nutationLongitudeDeg + f * (upper.nutationLongitudeDeg - lower.nutationLongitudeDeg);
    const trueObliquityDeg =
      lower.trueObliquityDeg + f * (upper.trueObliquityDeg - lower.trueObliquityDeg);
    return topocentricPosition(
      {
        rightAscensionDeg: lower.rightAscensionDeg + f * rightAscensionStep,
        declinationDeg: lower.declinationDeg + f * (upper.declinationDeg - lower.declinationDeg),
        earthSunDistanceAu:
          lower.earthSunDistanceAu + f * (upper.earthSunDistanceAu - lower.earthSunDistanceAu),
        apparentSiderealTimeDeg: apparentSiderealTimeDeg(
          julianDay(epochMs),
          nutationLongitudeDeg,
          trueObliquityDeg,
        ),
        equationOfTimeMinutes:
          lower.equationOfTimeMinutes +
          f * (upper.equationOfTimeMinutes - lower.equationOfTimeMinutes),
      },
      geometry,
    );
  };
}
