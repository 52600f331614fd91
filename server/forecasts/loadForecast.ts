import type { Db } from '../db/database.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';
import type { PlantFlow } from '../measurements/metrics/plantFlows.ts';
import { pastLocalHours } from './forecastHours.ts';
import { hourlyHistory, slotValuesOf, type HourlyHistory } from './hourlyHistory.ts';
import { slotOf } from './localSlots.ts';
import {
  DEFAULT_SEASONAL_OPTIONS,
  fitSeasonalModel,
  type SeasonalModel,
  type SeasonalPoint,
} from './seasonalModel.ts';
import { signatureModel, type LoadProfile } from './signatureModel.ts';

/**
 * The forecast of a load (a plant's consumption, or one device's) for given hours, choosing
 * its model by what is known:
 * 1. at least two weeks of measured history: the weekly-seasonal model on it;
 * 2. otherwise, load signatures when there are any (hourly profile × typical daily kWh);
 * 3. otherwise, the seasonal model on the short history there is;
 * 4. nothing at all: null, and the caller says so.
 */

export interface HourForecast extends TimeRange, SeasonalPoint {}

export interface FlowForecast {
  /** The model in a few words, for summaries: `weekly-seasonal`, `load-signatures(...)`. */
  model: string;
  /** The model and how it was fitted, as the payloads' `method` says it. */
  method: string;
  hours: HourForecast[];
}

/** History needed for the seasonal model to be trusted over load signatures (decisions: 2 weeks). */
export const MIN_HISTORY_HOURS = 14 * 24;
const options = DEFAULT_SEASONAL_OPTIONS;
/** Enough for the weekly lags of every backtested day. */
export const LOOKBACK_HOURS = (options.weeks * 7 + options.evaluationDays) * 24;

const days = (hours: number) => (hours / 24).toFixed(1);

function seasonalMethod(model: SeasonalModel): string {
  const interval = model.calibrated
    ? `80% interval from ${model.evaluatedHours} backtested hours`
    : 'uncalibrated 80% interval';
  return (
    `weekly-seasonal(same weekday-hour, ${options.weeks}w) + daily-profile(${options.days}d), ` +
    `α=${model.alpha.toFixed(1)}, ${interval}`
  );
}

export async function forecastLoad(
  db: Db,
  zone: string,
  flow: PlantFlow,
  profiles: readonly LoadProfile[],
  targets: readonly TimeRange[],
  nowMs: number,
): Promise<FlowForecast | null> {
  const history = await hourlyHistory(db, flow, pastLocalHours(zone, nowMs, LOOKBACK_HOURS));
  return loadForecastFrom(zone, history, profiles, targets);
}

/** The forecast from the load's past `LOOKBACK_HOURS` hours (`history`), pure. */
export function loadForecastFrom(
  zone: string,
  history: HourlyHistory,
  profiles: readonly LoadProfile[],
  targets: readonly TimeRange[],
): FlowForecast | null {
  const slots = slotValuesOf(zone, history);
  const forecastWith = (
    forecast: (slot: number) => SeasonalPoint | null,
    model: string,
    method: string,
  ): FlowForecast => ({
    model,
    method,
    hours: targets.map((hour) => {
      const point = forecast(slotOf(zone, hour.start)) ?? { value: 0, lower: 0, upper: 0 };
      return { ...hour, ...point };
    }),
  });

  if (history.coveredHours >= MIN_HISTORY_HOURS) {
    const model = fitSeasonalModel(slots, options);
    return forecastWith(model.forecast, 'weekly-seasonal', seasonalMethod(model));
  }
  const shortHistory = `history ${days(history.coveredHours)} of ${days(MIN_HISTORY_HOURS)} days`;
  if (profiles.length > 0) {
    const model = signatureModel(profiles, slots);
    const interval = model.calibrated ? 'interval from their errors' : 'uncalibrated interval';
    const signatures = `load-signatures(${profiles.map((profile) => profile.code).join('+')})`;
    return forecastWith(
      model.forecast,
      signatures,
      `${signatures} × typical daily kWh, ${interval} (${shortHistory})`,
    );
  }
  if (slots.size > 0) {
    const model = fitSeasonalModel(slots, options);
    return forecastWith(
      model.forecast,
      'weekly-seasonal(short history)',
      `${seasonalMethod(model)} (${shortHistory})`,
    );
  }
  return null;
}
