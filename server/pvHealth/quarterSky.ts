import { createPvModel, createSolarPositionCalculator } from '../domain/index.ts';
import type { PlantRow } from '../db/tables.ts';
import { CLEAR_SKY_STEP_MS, FORECAST_AMBIENT_C } from '../forecasts/clearSkyProduction.ts';
import { pvSiteOf } from '../forecasts/pvSite.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';

/**
 * The sky of each quarter-hour of a local day at a plant: the sun's elevation at its middle and
 * the clear-sky energy its PV would make. They depend on the plant's location and PV settings
 * and on time only, and a plant's health days come back request after request (summaries of
 * a fleet: the same 7 days of hundreds of plants), while computing them is most of the work of
 * PV health; so days are remembered, a bounded number, each under everything it depends on.
 */

export interface QuarterSky {
  sunElevationDeg: Float64Array;
  /** 0 for every quarter when the plant has no PV settings. */
  clearSkyKwh: Float64Array;
}

/** ~14 MB at most: a fleet of 1,000 plants over 8 days is 8,000 days. */
export const REMEMBERED_DAYS = 10_000;

const remembered = new Map<string, QuarterSky>();

/** `quarters`: the day's quarter-hours, in order (`day` is their span). */
export function quarterSkyOf(
  plant: Readonly<PlantRow>,
  day: TimeRange,
  quarters: readonly TimeRange[],
): QuarterSky {
  const key = [
    plant.latitude,
    plant.longitude,
    plant.altitude_m,
    plant.pv_peak_power_kw,
    plant.pv_tilt_deg,
    plant.pv_azimuth_deg,
    plant.pv_losses_percent,
    day.start,
    day.end,
  ].join('|');
  const known = remembered.get(key);
  if (known) return known;
  const sky = computeQuarterSky(plant, quarters);
  if (remembered.size >= REMEMBERED_DAYS) {
    // The oldest remembered day goes: maps iterate in insertion order.
    remembered.delete(remembered.keys().next().value!);
  }
  remembered.set(key, sky);
  return sky;
}

function computeQuarterSky(plant: Readonly<PlantRow>, quarters: readonly TimeRange[]): QuarterSky {
  const site = pvSiteOf(plant);
  const model = site ? createPvModel(site) : null;
  const sunAt = createSolarPositionCalculator({
    latitudeDeg: plant.latitude,
    longitudeDeg: plant.longitude,
    elevationM: plant.altitude_m ?? 0,
  });
  const sunElevationDeg = new Float64Array(quarters.length);
  const clearSkyKwh = new Float64Array(quarters.length);
  quarters.forEach((quarter, index) => {
    sunElevationDeg[index] = sunAt((quarter.start + quarter.end) / 2).elevationDeg;
    clearSkyKwh[index] = model
      ? model.clearSkyEnergyKwh(quarter.start, quarter.end, FORECAST_AMBIENT_C, CLEAR_SKY_STEP_MS)
      : 0;
  });
  return { sunElevationDeg, clearSkyKwh };
}
