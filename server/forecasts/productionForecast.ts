import { createPvModel, type PvModel, type PvSite } from '../domain/index.ts';
import type { Db } from '../db/database.ts';
import { HOUR_MS, type TimeRange } from '../measurements/metrics/localTime.ts';
import type { PlantFlow } from '../measurements/metrics/plantFlows.ts';
import {
  CLIMATOLOGICAL_CLEAR_SKY_INDEX,
  CLIMATOLOGICAL_RATIO_BAND,
  clearSkyHours,
  clearSkyRatioBand,
  DEFAULT_HISTORY_DAYS,
  INDEX_RELAXATION_HOURS,
  indexAhead,
  indexOutlook,
  productionPoint,
  RECENT_HALF_LIFE_HOURS,
  type MeasuredHour,
} from './clearSkyProduction.ts';
import { pastLocalHours } from './forecastHours.ts';
import { hourlyHistory } from './hourlyHistory.ts';
import type { FlowForecast } from './loadForecast.ts';

/**
 * The production forecast of a plant with PV settings: clear-sky energy per hour (solar position
 * by the NREL SPA, Ineichen–Perez clear sky, Hay–Davies transposition, PVWatts with Faiman cell
 * temperature and the plant's losses) × the clear-sky index of the measured production, the
 * recent one relaxing to the last 7 days' (see `clearSkyProduction.ts`), or a climatological
 * index without production history.
 */

export const PRODUCTION_MODEL_NAME = 'clear-sky(ineichen)+spa+hay-davies+pvwatts';

export async function forecastProduction(
  db: Db,
  zone: string,
  site: PvSite,
  flow: PlantFlow,
  targets: readonly TimeRange[],
  nowMs: number,
): Promise<FlowForecast> {
  const model = createPvModel(site);
  const pastBuckets = pastLocalHours(zone, nowMs, DEFAULT_HISTORY_DAYS * 24);
  const measured =
    flow.source === 'NONE' ? null : (await hourlyHistory(db, flow, pastBuckets)).values;
  const past: MeasuredHour[] = clearSkyHours(model, pastBuckets).map((hour, index) => ({
    ...hour,
    measuredKwh: measured?.[index] ?? null,
  }));
  return productionForecastFrom(model, past, targets, nowMs);
}

/** The forecast from the past hours' measured and clear-sky energy (`past`), pure. */
export function productionForecastFrom(
  model: PvModel,
  past: readonly MeasuredHour[],
  targets: readonly TimeRange[],
  nowMs: number,
): FlowForecast {
  const measured = indexOutlook(past, nowMs);
  const outlook = measured ?? {
    recent: CLIMATOLOGICAL_CLEAR_SKY_INDEX,
    week: CLIMATOLOGICAL_CLEAR_SKY_INDEX,
  };
  const band = clearSkyRatioBand(past) ?? CLIMATOLOGICAL_RATIO_BAND;
  const scaling = measured
    ? `clear-sky-index(recent, half-life ${RECENT_HALF_LIFE_HOURS}h: ${outlook.recent.toFixed(3)} → ` +
      `${DEFAULT_HISTORY_DAYS}d: ${outlook.week.toFixed(3)}, over ${INDEX_RELAXATION_HOURS}h)`
    : `climatological-clear-sky-index(${CLIMATOLOGICAL_CLEAR_SKY_INDEX.toFixed(2)}), no production history`;
  return {
    model: measured ? 'clear-sky × clear-sky-index' : 'clear-sky × climatological index',
    method: `${PRODUCTION_MODEL_NAME} × ${scaling}`,
    hours: clearSkyHours(model, targets).map((hour) => {
      const hoursAhead = ((hour.start + hour.end) / 2 - nowMs) / HOUR_MS;
      return {
        start: hour.start,
        end: hour.end,
        ...productionPoint(hour.clearSkyKwh, indexAhead(outlook, hoursAhead), band),
      };
    }),
  };
}
