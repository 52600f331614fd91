import {
  DEFAULT_INTERVAL_COVERAGE,
  residualIntervalOffsets,
  type IntervalOffsets,
} from '../domain/index.ts';
import { HOURS_PER_DAY, HOURS_PER_WEEK, localDayOfSlot, slotKey } from './localSlots.ts';
import { meanOf, scaledInterval, scaledResidual, scaleFloorFor } from './scaledInterval.ts';

/**
 * Hourly energy forecast from a series' own history with weekly seasonality: a blend of
 *
 * - the weekly profile: the same local weekday and hour over the last `weeks` weeks, the most
 *   recent weighted most (weights `weekDecay`^k), and
 * - the daily profile: the same local hour over the last `days` days (weights `dayDecay`^k),
 *
 * value = α · weekly + (1 − α) · daily. The weekly profile knows that Saturdays differ from
 * Mondays; the daily one follows a change of level (a cold spell, holidays) sooner and is less
 * noisy. α is chosen on the history itself by a rolling-origin backtest: each of the last
 * `evaluationDays` days is forecast from the days before it, for every α of a grid, and the α
 * with the smallest mean absolute error wins. The same backtest's residuals give the 80 %
 * interval: the 10th and 90th percentiles of residual / scale, scale = forecast + 10 % of the
 * mean level, so evening peaks get wider intervals than the night while the night's never
 * collapses to nothing.
 *
 * Pure: the history is a map from local hour slot (see `localSlots.ts`) to kWh.
 */

export type SlotValues = ReadonlyMap<number, number>;

export interface SeasonalModelOptions {
  weeks: number;
  weekDecay: number;
  days: number;
  dayDecay: number;
  evaluationDays: number;
  /** Share of outcomes the interval should contain. */
  coverage: number;
}

export const DEFAULT_SEASONAL_OPTIONS: SeasonalModelOptions = {
  weeks: 8,
  weekDecay: 0.8,
  days: 14,
  dayDecay: 0.85,
  evaluationDays: 14,
  coverage: DEFAULT_INTERVAL_COVERAGE,
};

/** α grid: 0, 0.1, ..., 1. */
const BLEND_STEPS = 10;
/** A day is only backtested when at least this many days of history precede it. */
const MIN_DAYS_BEFORE_EVALUATION = 7;
/**
 * Interval per unit of scale when the history is too short to backtest (under 8 days): wide,
 * as hourly household loads are (half to nearly twice the forecast).
 */
export const UNCALIBRATED_SCALED_OFFSETS: IntervalOffsets = { lowerOffset: -0.5, upperOffset: 0.8 };

export interface SeasonalComponents {
  weekly: number | null;
  daily: number | null;
}

export interface SeasonalPoint {
  value: number;
  lower: number;
  upper: number;
}

export interface SeasonalModel {
  /** Weight of the weekly profile, 0..1. */
  alpha: number;
  /** Offsets of the interval per unit of scale; uncalibrated when nothing could be backtested. */
  scaledOffsets: IntervalOffsets;
  /** Whether `scaledOffsets` come from backtest residuals. */
  calibrated: boolean;
  /** Backtested hours. */
  evaluatedHours: number;
  /** Mean absolute error of the backtest at the chosen α (kWh), NaN when nothing was backtested. */
  backtestMae: number;
  options: SeasonalModelOptions;
  /** Forecast of one slot from the whole history; null when no lag of it is known. */
  forecast(slot: number): SeasonalPoint | null;
}

/**
 * Weighted mean of up to `count` lags of `slot` (`slot − step`, `slot − 2·step`, ...) known in
 * `history` and before `originSlot`; the first known lag gets weight 1, the next `decay`, ...
 */
function laggedMean(
  history: SlotValues,
  slot: number,
  step: number,
  count: number,
  decay: number,
  originSlot: number,
): number | null {
  let weighted = 0;
  let weights = 0;
  let taken = 0;
  // Lags at or after the origin are skipped, not counted: a forecast days ahead still averages `count` lags.
  const firstLag = Math.max(1, Math.ceil((slot - originSlot + 1) / step));
  for (let lag = firstLag; taken < count && lag < firstLag + count * 2; lag++) {
    const value = history.get(slot - lag * step);
    if (value === undefined) continue;
    const weight = decay ** taken;
    weighted += weight * value;
    weights += weight;
    taken += 1;
  }
  return weights > 0 ? weighted / weights : null;
}

/** The weekly and daily profiles' values for `slot`, using only history before `originSlot`. */
export function seasonalComponents(
  history: SlotValues,
  slot: number,
  originSlot: number,
  options: SeasonalModelOptions = DEFAULT_SEASONAL_OPTIONS,
): SeasonalComponents {
  return {
    weekly: laggedMean(history, slot, HOURS_PER_WEEK, options.weeks, options.weekDecay, originSlot),
    daily: laggedMean(history, slot, HOURS_PER_DAY, options.days, options.dayDecay, originSlot),
  };
}

/** α · weekly + (1 − α) · daily, or whichever of the two is known. */
export function blend({ weekly, daily }: SeasonalComponents, alpha: number): number | null {
  if (weekly === null) return daily;
  if (daily === null) return weekly;
  return alpha * weekly + (1 - alpha) * daily;
}

interface BacktestCase {
  actual: number;
  components: SeasonalComponents;
}

/** Each known hour of the last `evaluationDays` days, forecast from the days before its own. */
function backtestCases(history: SlotValues, options: SeasonalModelOptions): BacktestCase[] {
  const slots = [...history.keys()];
  if (slots.length === 0) return [];
  const firstDay = localDayOfSlot(Math.min(...slots));
  const lastDay = localDayOfSlot(Math.max(...slots));
  const fromDay = Math.max(
    lastDay - options.evaluationDays + 1,
    firstDay + MIN_DAYS_BEFORE_EVALUATION,
  );
  const cases: BacktestCase[] = [];
  for (let day = fromDay; day <= lastDay; day++) {
    const origin = slotKey(day, 0);
    for (let hour = 0; hour < HOURS_PER_DAY; hour++) {
      const slot = slotKey(day, hour);
      const actual = history.get(slot);
      if (actual === undefined) continue;
      const components = seasonalComponents(history, slot, origin, options);
      if (components.weekly === null && components.daily === null) continue;
      cases.push({ actual, components });
    }
  }
  return cases;
}

/** α when nothing could be backtested: both profiles count alike. */
const UNFITTED_ALPHA = 0.5;

function chooseAlpha(cases: readonly BacktestCase[]): { alpha: number; mae: number } {
  if (cases.length === 0) return { alpha: UNFITTED_ALPHA, mae: Number.NaN };
  let best = { alpha: 1, mae: Number.NaN };
  for (let step = BLEND_STEPS; step >= 0; step--) {
    const alpha = step / BLEND_STEPS;
    const mae = meanOf(cases.map((c) => Math.abs(c.actual - blend(c.components, alpha)!)));
    if (!(mae >= best.mae)) best = { alpha, mae };
  }
  return best;
}

/** Fits α and the interval on `history` and answers a model that forecasts from all of it. */
export function fitSeasonalModel(
  history: SlotValues,
  options: SeasonalModelOptions = DEFAULT_SEASONAL_OPTIONS,
): SeasonalModel {
  const scaleFloor = scaleFloorFor(meanOf(history.values()));
  const cases = backtestCases(history, options);
  const { alpha, mae } = chooseAlpha(cases);
  const calibratedOffsets = residualIntervalOffsets(
    cases.map((c) => {
      const forecast = Math.max(blend(c.components, alpha)!, 0);
      return scaledResidual(c.actual, forecast, scaleFloor);
    }),
    options.coverage,
  );
  const scaledOffsets = calibratedOffsets ?? UNCALIBRATED_SCALED_OFFSETS;
  // Every slot of the history is before the origin of a real forecast.
  const origin = Number.POSITIVE_INFINITY;
  return {
    alpha,
    scaledOffsets,
    calibrated: calibratedOffsets !== null,
    evaluatedHours: cases.length,
    backtestMae: mae,
    options,
    forecast(slot) {
      const raw = blend(seasonalComponents(history, slot, origin, options), alpha);
      if (raw === null) return null;
      const value = Math.max(raw, 0);
      return { value, ...scaledInterval(value, scaledOffsets, scaleFloor) };
    },
  };
}
