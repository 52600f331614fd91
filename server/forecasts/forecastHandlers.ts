import type { ServerContext } from '../context.ts';
import type { PlantRow } from '../db/tables.ts';
import type { RouteHandlers } from '../http/routing.ts';
import { energySensorsOf } from '../measurements/metrics/plantFlows.ts';
import { forecastByDeviceType } from './deviceTypeForecast.ts';
import { nextLocalHours } from './forecastHours.ts';
import { forecastSeries } from './forecastSeries.ts';
import {
  plantConsumptionForecast,
  plantProductionForecast,
  type PlantForecastInputs,
} from './plantForecasts.ts';
import { plantDevicesOf } from './plantLoads.ts';

type ForecastHandlers = Pick<
  RouteHandlers,
  'predictConsumption' | 'predictProduction' | 'predictByDeviceType'
>;

/** Hours ahead when `hours` is not given (decisions file: the next 48 hours). */
export const DEFAULT_FORECAST_HOURS = 48;

/** Consumption and production forecasts of the next hours, and of the next day per device type. */
export function forecastHandlers({ db, now }: ServerContext): ForecastHandlers {
  const inputsOf = async (plant: Readonly<PlantRow>): Promise<PlantForecastInputs> => ({
    db,
    plant,
    sensors: await energySensorsOf(db, plant.plant_uuid),
    nowMs: now().getTime(),
  });
  const horizon = (plant: Readonly<PlantRow>, nowMs: number, hours: number | undefined) =>
    nextLocalHours(plant.timezone, nowMs, hours ?? DEFAULT_FORECAST_HOURS);

  return {
    predictProduction: async ({ plant, query }) => {
      const inputs = await inputsOf(plant);
      const targets = horizon(plant, inputs.nowMs, query.hours);
      return forecastSeries(plant, await plantProductionForecast(inputs, targets));
    },
    predictConsumption: async ({ plant, query }) => {
      const inputs = await inputsOf(plant);
      const targets = horizon(plant, inputs.nowMs, query.hours);
      const devices = await plantDevicesOf(db, plant.plant_uuid);
      return forecastSeries(plant, await plantConsumptionForecast(inputs, devices, targets));
    },
    predictByDeviceType: async ({ plant, query }) =>
      forecastByDeviceType(await inputsOf(plant), query.consumerOnly ?? false),
  };
}
