import {
  predictionInterval,
  type IntervalOffsets,
  type PredictionInterval,
} from '../domain/index.ts';

/**
 * Intervals whose width grows with the forecast: residuals are divided by a scale,
 * scale = forecast + floor, before their quantiles are taken, and the quantiles are multiplied
 * back by the scale of each new forecast. Hourly loads vary more when they are high (an evening
 * peak) than at night; the floor (a share of the mean level) keeps a near-zero forecast from
 * getting a zero-width interval.
 */

/** The share of the mean hourly level used as the scale's floor. */
export const SCALE_FLOOR_SHARE = 0.1;

export const scaleOf = (forecast: number, floor: number): number => Math.max(forecast, 0) + floor;

/** The floor for a series whose mean level is `meanLevel` (never 0, so scales never are). */
export const scaleFloorFor = (meanLevel: number): number =>
  Math.max(SCALE_FLOOR_SHARE * meanLevel, 1e-9);

export const scaledResidual = (actual: number, forecast: number, floor: number): number =>
  (actual - forecast) / scaleOf(forecast, floor);

/** [forecast + q_low · scale, forecast + q_high · scale], containing the forecast, never below 0. */
export function scaledInterval(
  forecast: number,
  scaledOffsets: IntervalOffsets,
  floor: number,
): PredictionInterval {
  const scale = scaleOf(forecast, floor);
  return predictionInterval(forecast, {
    lowerOffset: scaledOffsets.lowerOffset * scale,
    upperOffset: scaledOffsets.upperOffset * scale,
  });
}

export function meanOf(values: Iterable<number>): number {
  let sum = 0;
  let count = 0;
  for (const value of values) {
    sum += value;
    count += 1;
  }
  return count > 0 ? sum / count : 0;
}
