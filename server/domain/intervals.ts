/**
 * Empirical prediction intervals from past forecast residuals (residual = actual − forecast):
 * the central 80 % interval is [forecast + q10, forecast + q90] of the residuals.
 * Quantiles use linear interpolation between order statistics (Hyndman & Fan 1996, type 7,
 * the default of R and NumPy).
 */

/** Share of outcomes the interval should contain (api-decisions: 80 % intervals). */
export const DEFAULT_INTERVAL_COVERAGE = 0.8;

/** The `probability` quantile (0..1) of values already sorted ascending; NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, probability: number): number {
  const count = sorted.length;
  if (count === 0) return Number.NaN;
  const p = Math.min(Math.max(probability, 0), 1);
  const position = (count - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(below + 1, count - 1);
  const low = sorted[below]!;
  return low + (position - below) * (sorted[above]! - low);
}

/** The `probability` quantile (0..1) of unsorted values, ignoring non-finite ones; NaN when none. */
export function quantile(values: Iterable<number>, probability: number): number {
  return quantileSorted(sortedFinite(values), probability);
}

function sortedFinite(values: Iterable<number>): Float64Array {
  const finite: number[] = [];
  for (const value of values) if (Number.isFinite(value)) finite.push(value);
  return Float64Array.from(finite).sort();
}

/** Offsets to add to a point forecast to get the interval bounds. */
export interface IntervalOffsets {
  /** Lower-tail quantile of the residuals, e.g. q10 (usually negative). */
  lowerOffset: number;
  /** Upper-tail quantile of the residuals, e.g. q90 (usually positive). */
  upperOffset: number;
}

/**
 * Residual quantiles bounding the central `coverage` share (0.8 → 10th and 90th percentiles),
 * or null when there is no finite residual.
 */
export function residualIntervalOffsets(
  residuals: Iterable<number>,
  coverage = DEFAULT_INTERVAL_COVERAGE,
): IntervalOffsets | null {
  const sorted = sortedFinite(residuals);
  if (sorted.length === 0) return null;
  const tail = (1 - coverage) / 2;
  return {
    lowerOffset: quantileSorted(sorted, tail),
    upperOffset: quantileSorted(sorted, 1 - tail),
  };
}

export interface PredictionInterval {
  lower: number;
  upper: number;
}

/**
 * The interval around `forecast`: [forecast + lowerOffset, forecast + upperOffset], widened if
 * needed so it always contains the forecast itself, and floored at `minimum` (default 0: energy
 * is never negative).
 */
export function predictionInterval(
  forecast: number,
  offsets: IntervalOffsets,
  minimum = 0,
): PredictionInterval {
  const lower = Math.min(forecast, forecast + offsets.lowerOffset);
  const upper = Math.max(forecast, forecast + offsets.upperOffset);
  return { lower: Math.max(lower, minimum), upper: Math.max(upper, minimum) };
}
