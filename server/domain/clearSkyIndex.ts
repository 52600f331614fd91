/**
 * Clear-sky index over a window: how much of the clear-sky energy a plant actually produced,
 * k = Σ measured / Σ clear-sky, used to scale clear-sky production forecasts to recent weather.
 *
 * Robustness rules: intervals with the sun low are ignored (there, horizon shading, the cosine
 * response and model errors dominate and small denominators make ratios explode); intervals
 * without data are ignored rather than counted as zero production; the result is clamped to
 * [0, 1.2] (cloud enhancement can push short intervals above clear sky, not a whole window much).
 */

/** Sun elevation below which an interval is ignored, degrees. */
export const MIN_SUN_ELEVATION_DEG = 10;
/** Clamp range of the index. */
export const MIN_CLEAR_SKY_INDEX = 0;
export const MAX_CLEAR_SKY_INDEX = 1.2;

/** One interval of the window (typically an hour). */
export interface ClearSkyIndexSample {
  /** Measured energy of the interval (kWh, or any unit shared with `clearSkyKwh`); null = no data. */
  measuredKwh: number | null;
  /** Clear-sky expected energy of the same interval, same unit. */
  clearSkyKwh: number;
  /** Sun elevation at the middle of the interval, degrees. */
  sunElevationDeg: number;
}

export interface ClearSkyIndexOptions {
  /** Intervals with the sun lower than this are ignored (default 10°). */
  minSunElevationDeg?: number;
}

/**
 * The clear-sky index of a window, or null when no usable interval has clear-sky energy
 * (night-only window, or no data): the caller chooses the fallback (e.g. a climatological 0.7).
 */
export function clearSkyIndex(
  samples: Iterable<ClearSkyIndexSample>,
  options: ClearSkyIndexOptions = {},
): number | null {
  const minElevation = options.minSunElevationDeg ?? MIN_SUN_ELEVATION_DEG;
  let measured = 0;
  let clearSky = 0;
  for (const sample of samples) {
    if (sample.measuredKwh === null || !Number.isFinite(sample.measuredKwh)) continue;
    if (!(sample.sunElevationDeg >= minElevation) || !(sample.clearSkyKwh > 0)) continue;
    measured += Math.max(sample.measuredKwh, 0);
    clearSky += sample.clearSkyKwh;
  }
  if (!(clearSky > 0)) return null;
  return Math.min(Math.max(measured / clearSky, MIN_CLEAR_SKY_INDEX), MAX_CLEAR_SKY_INDEX);
}
