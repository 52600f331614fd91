import { ENERGY_UNIT, type ForecastSeries } from '../../api/index.ts';
import type { PlantRow } from '../db/tables.ts';
import { roundMetric } from '../measurements/metrics/flowMeasures.ts';
import { formatLocal } from '../measurements/metrics/localTime.ts';
import type { FlowForecast } from './loadForecast.ts';

/** The forecast routes' payload: hourly kWh with bounds, timestamps in plant local time. */
export function forecastSeries(plant: Readonly<PlantRow>, forecast: FlowForecast): ForecastSeries {
  const zone = plant.timezone;
  const hours = forecast.hours;
  return {
    plantUuid: plant.plant_uuid,
    timezone: zone,
    unit: ENERGY_UNIT,
    from: formatLocal(zone, hours[0]!.start),
    to: formatLocal(zone, hours[hours.length - 1]!.end),
    method: forecast.method,
    points: hours.map((hour) => ({
      timestamp: formatLocal(zone, hour.start),
      value: roundMetric(hour.value),
      lower: roundMetric(hour.lower),
      upper: roundMetric(hour.upper),
    })),
  };
}
