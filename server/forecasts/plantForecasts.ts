import type { Db } from '../db/database.ts';
import type { PlantRow } from '../db/tables.ts';
import { unprocessable } from '../http/errors.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';
import {
  consumptionFlow,
  productionFlow,
  type EnergySensor,
} from '../measurements/metrics/plantFlows.ts';
import { forecastLoad, type FlowForecast } from './loadForecast.ts';
import { householdBaseProfile, type PlantDevice } from './plantLoads.ts';
import { forecastProduction } from './productionForecast.ts';
import { requirePvSite } from './pvSite.ts';
import type { LoadProfile } from './signatureModel.ts';

/** A plant's consumption and production forecasts, for the routes and the per-type forecast. */

export interface PlantForecastInputs {
  db: Db;
  plant: Readonly<PlantRow>;
  /** The plant's energy sensors (`energySensorsOf`). */
  sensors: readonly EnergySensor[];
  nowMs: number;
}

/** 422 naming the missing setting when the plant has no `pv` (a rejected promise, never a throw). */
export async function plantProductionForecast(
  { db, plant, sensors, nowMs }: PlantForecastInputs,
  targets: readonly TimeRange[],
): Promise<FlowForecast> {
  const site = requirePvSite(plant, 'the production forecast');
  return await forecastProduction(
    db,
    plant.timezone,
    site,
    productionFlow(sensors),
    targets,
    nowMs,
  );
}

/**
 * The plant's consumption from its own history; with less than two weeks of it, from the load
 * signatures of its consumer devices plus the household base load for everything unmeasured.
 * 422 when there is neither history nor any signature.
 */
export async function plantConsumptionForecast(
  { db, plant, sensors, nowMs }: PlantForecastInputs,
  devices: readonly PlantDevice[],
  targets: readonly TimeRange[],
): Promise<FlowForecast> {
  const profiles: LoadProfile[] = devices
    .filter((device) => device.category === 'CONSUMER' && device.signature !== null)
    .map((device) => device.signature!);
  const base = await householdBaseProfile(db);
  if (base) profiles.push(base);
  const forecast = await forecastLoad(
    db,
    plant.timezone,
    consumptionFlow(sensors),
    profiles,
    targets,
    nowMs,
  );
  if (!forecast) {
    throw unprocessable(
      `Plant ${plant.plant_uuid} has no consumption history and no load signature to forecast from`,
    );
  }
  return forecast;
}
