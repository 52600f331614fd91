import { clearSkyIndex, MIN_SUN_ELEVATION_DEG, quantile, type PvModel } from '../domain/index.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';
import type { SeasonalPoint } from './seasonalModel.ts';

/**
 * PV production forecast: the clear-sky energy of each hour on the plane of the array, scaled
 * by the plant's recent clear-sky index (measured over clear-sky energy), with an 80 % interval
 * from the spread of past hourly ratios measured / clear-sky. Pure, given a `PvModel`.
 *
 * Which index: the weather of the last few daylight hours persists for a while (a cloudy spell
 * rarely ends within the hour), but the further ahead, the less it says. So each hour's index
 * relaxes from the recent one (the last 7 days weighted with a half-life of 3 hours: in effect
 * the last daylight hours) to the index of the whole week, with a time constant of 48 hours:
 *   k(h) = k_week + (k_recent − k_week) · e^(−h / 48 h), h the hours from now to the target hour.
 * On a year of simulated weather this beats both a plain weekly index and persistence; see
 * `bench/forecast.bench.ts`.
 */

/** Ambient temperature for the clear-sky model, °C. The clear-sky index absorbs the bias. */
export const FORECAST_AMBIENT_C = 15;
/** Integration step of each hour's clear-sky energy. */
export const CLEAR_SKY_STEP_MS = 600_000;
/** Clear-sky index when the plant has no usable production history (typical of mid-latitudes). */
export const CLIMATOLOGICAL_CLEAR_SKY_INDEX = 0.6;
/**
 * Hourly ratio band (10th and 90th percentiles of measured / clear-sky) without history:
 * overcast hours give a tenth of clear sky, clear ones all of it.
 */
export const CLIMATOLOGICAL_RATIO_BAND: RatioBand = { low: 0.1, high: 1 };
export const DEFAULT_HISTORY_DAYS = 7;
/** Half-life of the weights of the recent index, hours. */
export const RECENT_HALF_LIFE_HOURS = 3;
/** Time constant over which the recent index gives way to the week's, hours. */
export const INDEX_RELAXATION_HOURS = 48;

export interface ClearSkyHour extends TimeRange {
  clearSkyKwh: number;
  /** Sun elevation at the middle of the hour, degrees. */
  sunElevationDeg: number;
}

export interface MeasuredHour extends ClearSkyHour {
  /** Measured production, kWh; null where there is no data. */
  measuredKwh: number | null;
}

/** The 10th and 90th percentiles of hourly measured / clear-sky ratios. */
export interface RatioBand {
  low: number;
  high: number;
}

export function clearSkyHours(
  model: PvModel,
  buckets: readonly TimeRange[],
  ambientC = FORECAST_AMBIENT_C,
): ClearSkyHour[] {
  return buckets.map(({ start, end }) => ({
    start,
    end,
    clearSkyKwh: model.clearSkyEnergyKwh(start, end, ambientC, CLEAR_SKY_STEP_MS),
    sunElevationDeg: model.sunAt((start + end) / 2).elevationDeg,
  }));
}

/**
 * The clear-sky index of `history`, each hour weighted by 2^(−age / half-life) with its age
 * counted back from `nowMs` (an infinite half-life weighs all alike); null when no hour with
 * the sun up has data.
 */
export function recentClearSkyIndex(
  history: readonly MeasuredHour[],
  nowMs: number,
  halfLifeHours: number,
): number | null {
  return clearSkyIndex(
    history.map((hour) => {
      const ageHours = Math.max(nowMs - (hour.start + hour.end) / 2, 0) / 3_600_000;
      const weight = 2 ** (-ageHours / halfLifeHours);
      return {
        measuredKwh: hour.measuredKwh === null ? null : hour.measuredKwh * weight,
        clearSkyKwh: hour.clearSkyKwh * weight,
        sunElevationDeg: hour.sunElevationDeg,
      };
    }),
  );
}

/** The recent and the weekly clear-sky index of a plant. */
export interface IndexOutlook {
  recent: number;
  week: number;
}

/** Both indices of `history` (the last 7 days); null when no hour with the sun up has data. */
export function indexOutlook(history: readonly MeasuredHour[], nowMs: number): IndexOutlook | null {
  const recent = recentClearSkyIndex(history, nowMs, RECENT_HALF_LIFE_HOURS);
  const week = recentClearSkyIndex(history, nowMs, Number.POSITIVE_INFINITY);
  return recent === null || week === null ? null : { recent, week };
}

/** The index for an hour whose middle is `hoursAhead` hours from now. */
export const indexAhead = ({ recent, week }: IndexOutlook, hoursAhead: number): number =>
  week + (recent - week) * Math.exp(-Math.max(hoursAhead, 0) / INDEX_RELAXATION_HOURS);

/**
 * The central `coverage` band of hourly ratios measured / clear-sky over hours with the sun at
 * least 10° up; null when there are fewer than `minHours` such hours.
 */
export function clearSkyRatioBand(
  history: readonly MeasuredHour[],
  coverage = 0.8,
  minHours = 12,
): RatioBand | null {
  const ratios: number[] = [];
  for (const hour of history) {
    if (hour.measuredKwh === null || hour.sunElevationDeg < MIN_SUN_ELEVATION_DEG) continue;
    if (!(hour.clearSkyKwh > 0)) continue;
    ratios.push(Math.max(hour.measuredKwh, 0) / hour.clearSkyKwh);
  }
  if (ratios.length < minHours) return null;
  const tail = (1 - coverage) / 2;
  return { low: quantile(ratios, tail), high: quantile(ratios, 1 - tail) };
}

/**
 * One hour's forecast: clear-sky × index, with the band's ratios as bounds. The bounds never go
 * below 0 nor above clear sky (above it only as far as the index itself does, when the model
 * underrates the plant), and always contain the forecast.
 */
export function productionPoint(
  clearSkyKwh: number,
  index: number,
  band: RatioBand,
): SeasonalPoint {
  const clearSky = Math.max(clearSkyKwh, 0);
  const ceiling = Math.max(1, index);
  const low = Math.min(Math.max(band.low, 0), index);
  const high = Math.min(Math.max(band.high, index), ceiling);
  return { value: clearSky * index, lower: clearSky * low, upper: clearSky * high };
}
