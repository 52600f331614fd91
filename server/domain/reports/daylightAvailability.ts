import type { Series } from '../../../api/schemas/metrics.ts';
import { DAYLIGHT_SUN_ELEVATION_DEG } from '../clearSky.ts';
import { createSolarPositionCalculator } from '../solarPositionFast.ts';

/**
 * Availability measured by the hour: the share of the daylight time (the sun at least
 * `AVAILABILITY_SUN_ELEVATION_DEG` above the horizon at the plant) in which the plant produced, from the hourly production the API answers. An hour's
 * daylight that has data and no production is unavailable; daylight without data is counted apart
 * as unknown, so a silent meter lowers the coverage of the figure, not the plant's availability.
 * An hour partly covered splits its daylight by its coverage.
 */

export interface HourProduction {
  /** Bucket start and end (exclusive), epoch ms: a local hour, as the series answers it. */
  startMs: number;
  endMs: number;
  /** Mean power (W) or energy of the hour; null when the hour has no data. */
  value: number | null;
  /** Share of the hour with data, 0..1. */
  coverage: number;
}

export type AvailabilityMissing =
  /** The plant has no location: no sun to measure against. */
  | 'NO_LOCATION'
  /** The production is not readable (no permission). */
  | 'NOT_READABLE'
  /** The sun stayed below `AVAILABILITY_SUN_ELEVATION_DEG` all period (polar night, a night's hours). */
  | 'NO_DAYLIGHT'
  /** Daylight, but no hour of it has data. */
  | 'NO_DATA';

export interface Availability {
  /** Producing daylight over daylight with data, 0..1; null with `missing`. */
  ratio: number | null;
  daylightHours: number;
  producingHours: number;
  unavailableHours: number;
  /** Daylight hours without data: the coverage the ratio rests on is 1 − unknown / daylight. */
  unknownHours: number;
  missing: AvailabilityMissing | null;
}

export interface Site {
  latitude: number;
  longitude: number;
}

/**
 * The sun's elevation from which daylight counts, degrees: the domain's daylight (clearSky.ts).
 * Cloud keeps a real sky under 50 W/m² for longer, which a report cannot see: it errs towards
 * counting a dim hour, never towards excusing a bright one.
 */
export const AVAILABILITY_SUN_ELEVATION_DEG = DAYLIGHT_SUN_ELEVATION_DEG;

/** Samples per hour of the sun's elevation: 5 minutes, well inside the minute-level error that matters. */
const SAMPLE_MS = 300_000;

/** An hour series → hours with their bounds (the last ends at the series' `to`). */
export function hoursOf(series: Series): HourProduction[] {
  const end = Date.parse(series.to);
  const starts = series.points.map((point) => Date.parse(point.timestamp));
  return series.points.map((point, index) => ({
    startMs: starts[index]!,
    endMs: starts[index + 1] ?? end,
    value: point.value,
    coverage: point.value === null ? 0 : point.coverage,
  }));
}

/**
 * Hours of [startMs, endMs) with the sun at least `minElevationDeg` high, sampled at the middle of
 * each 5 minutes.
 */
export function daylightHoursIn(
  sunAt: (ms: number) => number,
  startMs: number,
  endMs: number,
  minElevationDeg = AVAILABILITY_SUN_ELEVATION_DEG,
): number {
  let up = 0;
  for (let at = startMs; at < endMs; at += SAMPLE_MS) {
    const step = Math.min(SAMPLE_MS, endMs - at);
    if (sunAt(at + step / 2) >= minElevationDeg) up += step;
  }
  return up / 3_600_000;
}

const round = (value: number, digits = 4) => Number(value.toFixed(digits));

export function daylightAvailability(
  hours: readonly HourProduction[] | null,
  site: Site | null,
): Availability {
  const none = (missing: AvailabilityMissing, daylight = 0): Availability => ({
    ratio: null,
    daylightHours: round(daylight, 2),
    producingHours: 0,
    unavailableHours: 0,
    unknownHours: round(daylight, 2),
    missing,
  });
  if (!site) return none('NO_LOCATION');
  if (!hours) return none('NOT_READABLE');
  const position = createSolarPositionCalculator({
    latitudeDeg: site.latitude,
    longitudeDeg: site.longitude,
  });
  const elevation = (ms: number) => position(ms).elevationDeg;
  let daylight = 0;
  let producing = 0;
  let unavailable = 0;
  for (const hour of hours) {
    const sun = daylightHoursIn(elevation, hour.startMs, hour.endMs);
    if (sun === 0) continue;
    daylight += sun;
    const known = sun * Math.min(1, Math.max(0, hour.coverage));
    if (hour.value !== null && hour.value > 0) producing += known;
    else if (hour.value !== null) unavailable += known;
  }
  if (daylight === 0) return none('NO_DAYLIGHT');
  if (producing + unavailable === 0) return none('NO_DATA', daylight);
  return {
    ratio: round(producing / (producing + unavailable)),
    daylightHours: round(daylight, 2),
    producingHours: round(producing, 2),
    unavailableHours: round(unavailable, 2),
    unknownHours: Math.max(0, round(daylight - producing - unavailable, 2)),
    missing: null,
  };
}
