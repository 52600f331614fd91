import type { DeviceCategory, DeviceTypeForecast, ForecastPoint } from '../../api/index.ts';
import { ENERGY_UNIT, formatLocalDate } from '../../api/index.ts';
import { ApiError } from '../http/errors.ts';
import { roundMetric } from '../measurements/metrics/flowMeasures.ts';
import {
  addDays,
  formatLocal,
  todayIn,
  type TimeRange,
} from '../measurements/metrics/localTime.ts';
import { NO_FLOW, type PlantFlow } from '../measurements/metrics/plantFlows.ts';
import { hoursOfLocalDay } from './forecastHours.ts';
import { forecastLoad, type FlowForecast, type HourForecast } from './loadForecast.ts';
import {
  plantConsumptionForecast,
  plantProductionForecast,
  type PlantForecastInputs,
} from './plantForecasts.ts';
import { plantDevicesOf, type PlantDevice } from './plantLoads.ts';
import { forecastStorage, STORAGE_PROFILE_DAYS } from './storageForecast.ts';

/**
 * Hourly energy of the next local day per device type of the plant (`predict`):
 * - CONSUMER types: the sum over their devices, each forecast from its own CONSUMPTION sensors'
 *   history (weekly-seasonal with two weeks of it), else from its load signature; a device with
 *   neither adds nothing, and a type none of whose devices can be forecast is left out;
 * - PRODUCER types: the plant's production forecast, shared among producer devices by rated
 *   power (equally when a rating is missing); left out when the plant has no PV settings;
 * - GRID types: the balance consumption − production (positive import, negative export), before
 *   any battery: storage dispatch is not forecast. Left out when either forecast is missing;
 * - STORAGE types: the net energy of their devices' own STORAGE sensors, each local hour as on
 *   the last two weeks (`storageForecast.ts`); without such history, 0 within ± rated power.
 * The interval of a sum is the sum of the intervals (loads that rise together, the cautious
 * view); the balance's is consumption's lower minus production's upper, and the reverse.
 * `consumerOnly=true` keeps the CONSUMER types only.
 */

interface TypeSeries {
  code: string;
  hours: HourForecast[];
  model: string;
}

const sumHours = (series: readonly (readonly HourForecast[])[]): HourForecast[] =>
  series[0]!.map((hour, index) => ({
    ...hour,
    value: series.reduce((sum, one) => sum + one[index]!.value, 0),
    lower: series.reduce((sum, one) => sum + one[index]!.lower, 0),
    upper: series.reduce((sum, one) => sum + one[index]!.upper, 0),
  }));

const scaleHours = (hours: readonly HourForecast[], share: number): HourForecast[] =>
  hours.map((hour) => ({
    ...hour,
    value: hour.value * share,
    lower: hour.lower * share,
    upper: hour.upper * share,
  }));

function byType(
  devices: readonly PlantDevice[],
  category: DeviceCategory,
): Map<string, PlantDevice[]> {
  const types = new Map<string, PlantDevice[]>();
  for (const device of devices) {
    if (device.category !== category) continue;
    types.set(device.deviceTypeCode, [...(types.get(device.deviceTypeCode) ?? []), device]);
  }
  return types;
}

/** A forecast that may be impossible (422): undefined instead. */
async function optional(forecast: Promise<FlowForecast>): Promise<FlowForecast | undefined> {
  try {
    return await forecast;
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return undefined;
    throw error;
  }
}

async function consumerSeries(
  inputs: PlantForecastInputs,
  code: string,
  devices: readonly PlantDevice[],
  targets: readonly TimeRange[],
): Promise<TypeSeries | string> {
  const forecasts: FlowForecast[] = [];
  for (const device of devices) {
    const sensors = inputs.sensors.filter(
      (sensor) => sensor.flow === 'CONSUMPTION' && sensor.deviceUuid === device.deviceUuid,
    );
    const flow: PlantFlow =
      sensors.length > 0 ? { source: 'DEVICE_SENSORS', terms: [sensors] } : NO_FLOW;
    const forecast = await forecastLoad(
      inputs.db,
      inputs.plant.timezone,
      flow,
      device.signature ? [device.signature] : [],
      targets,
      inputs.nowMs,
    );
    if (forecast) forecasts.push(forecast);
  }
  if (forecasts.length === 0) return `${code}: no history or load signature`;
  const models = [...new Set(forecasts.map((forecast) => forecast.model))].join(' + ');
  return { code, hours: sumHours(forecasts.map((forecast) => forecast.hours)), model: models };
}

async function storageSeries(
  inputs: PlantForecastInputs,
  code: string,
  devices: readonly PlantDevice[],
  targets: readonly TimeRange[],
): Promise<TypeSeries> {
  const deviceUuids = new Set(devices.map((device) => device.deviceUuid));
  const sensors = inputs.sensors.filter(
    (sensor) =>
      sensor.flow === 'STORAGE' && sensor.deviceUuid !== null && deviceUuids.has(sensor.deviceUuid),
  );
  const hours =
    sensors.length > 0
      ? await forecastStorage(
          inputs.db,
          inputs.plant.timezone,
          { source: 'DEVICE_SENSORS', terms: [sensors] },
          targets,
          inputs.nowMs,
        )
      : null;
  if (hours) return { code, hours, model: `daily-profile(${STORAGE_PROFILE_DAYS}d)` };
  // Nothing learnt: no net energy expected, anything from full charge to full discharge possible.
  const ratedKw = devices.reduce((sum, device) => sum + (device.ratedPowerW ?? 0) / 1000, 0);
  return {
    code,
    hours: targets.map((target) => {
      const hourKwh = (ratedKw * (target.end - target.start)) / 3_600_000;
      return { ...target, value: 0, lower: -hourKwh, upper: hourKwh };
    }),
    model: 'no storage history: net 0 within ± rated power',
  };
}

function producerShares(producers: Map<string, PlantDevice[]>): Map<string, number> {
  const all = [...producers.values()].flat();
  const rated = all.every((device) => device.ratedPowerW !== null && device.ratedPowerW > 0);
  const weight = (device: PlantDevice) => (rated ? device.ratedPowerW! : 1);
  const total = all.reduce((sum, device) => sum + weight(device), 0);
  return new Map(
    [...producers].map(([code, devices]) => [
      code,
      devices.reduce((sum, device) => sum + weight(device), 0) / total,
    ]),
  );
}

function balanceHours(
  consumption: readonly HourForecast[],
  production: readonly HourForecast[] | null,
): HourForecast[] {
  return consumption.map((hour, index) => {
    const produced = production?.[index] ?? { value: 0, lower: 0, upper: 0 };
    return {
      ...hour,
      value: hour.value - produced.value,
      lower: hour.lower - produced.upper,
      upper: hour.upper - produced.lower,
    };
  });
}

const toPoints = (zone: string, hours: readonly HourForecast[]): ForecastPoint[] =>
  hours.map((hour) => ({
    timestamp: formatLocal(zone, hour.start),
    value: roundMetric(hour.value),
    lower: roundMetric(hour.lower),
    upper: roundMetric(hour.upper),
  }));

export async function forecastByDeviceType(
  inputs: PlantForecastInputs,
  consumerOnly: boolean,
): Promise<DeviceTypeForecast> {
  const zone = inputs.plant.timezone;
  const date = addDays(todayIn(zone, new Date(inputs.nowMs)), 1);
  const targets = hoursOfLocalDay(zone, date);
  const devices = await plantDevicesOf(inputs.db, inputs.plant.plant_uuid);
  const series: TypeSeries[] = [];
  const notes: string[] = [];
  const add = (result: TypeSeries | string) =>
    typeof result === 'string' ? notes.push(result) : series.push(result);

  for (const [code, typeDevices] of byType(devices, 'CONSUMER')) {
    add(await consumerSeries(inputs, code, typeDevices, targets));
  }
  if (!consumerOnly) {
    const producers = byType(devices, 'PRODUCER');
    const grids = byType(devices, 'GRID');
    const hasProductionSensors = inputs.sensors.some((sensor) => sensor.flow === 'PRODUCTION');
    const production =
      producers.size > 0 || grids.size > 0
        ? await optional(plantProductionForecast(inputs, targets))
        : undefined;
    for (const [code, share] of producerShares(producers)) {
      add(
        production
          ? { code, hours: scaleHours(production.hours, share), model: production.model }
          : `${code}: no pv settings`,
      );
    }
    if (grids.size > 0) {
      const consumption = await optional(plantConsumptionForecast(inputs, devices, targets));
      const balance =
        consumption && (production || !hasProductionSensors)
          ? balanceHours(consumption.hours, production?.hours ?? null)
          : null;
      for (const code of grids.keys()) {
        add(
          balance
            ? { code, hours: balance, model: 'consumption − production, before storage' }
            : `${code}: needs both the consumption and the production forecast`,
        );
      }
    }
    for (const [code, typeDevices] of byType(devices, 'STORAGE')) {
      add(await storageSeries(inputs, code, typeDevices, targets));
    }
  }

  series.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const summary = series.map((one) => `${one.code}: ${one.model}`).concat(notes.sort());
  return {
    plantUuid: inputs.plant.plant_uuid,
    date: formatLocalDate(date),
    timezone: zone,
    unit: ENERGY_UNIT,
    method: summary.length > 0 ? summary.join('; ') : 'no device types to forecast',
    series: Object.fromEntries(series.map((one) => [one.code, toPoints(zone, one.hours)])),
  };
}
