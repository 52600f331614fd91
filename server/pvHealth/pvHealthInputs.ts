import { formatLocalDate } from '../../api/index.ts';
import {
  createPvModel,
  createSolarPositionCalculator,
  type PvModel,
  type PvSite,
} from '../domain/index.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import type { PlantRow } from '../db/tables.ts';
import { CLEAR_SKY_STEP_MS, FORECAST_AMBIENT_C } from '../forecasts/clearSkyProduction.ts';
import { plantDevicesOf } from '../forecasts/plantLoads.ts';
import { pvSiteOf } from '../forecasts/pvSite.ts';
import { BUCKET_MS } from '../measurements/rollups.ts';
import { readingSensorsOf } from '../measurements/readingSensors.ts';
import { rollupsOf, type SensorRollup } from '../measurements/readingsStore.ts';
import { combineFlow, measureFlow } from '../measurements/metrics/flowMeasures.ts';
import { addDays, localDays, type TimeRange } from '../measurements/metrics/localTime.ts';
import {
  energySensorsOf,
  flowSensors,
  productionFlow,
} from '../measurements/metrics/plantFlows.ts';
import type { HealthDay, PvHealthFacts, QuarterHourFacts } from './pvHealthAssessment.ts';
import type { HealthRange } from './pvHealthRange.ts';

/**
 * Gathers, per quarter-hour of the range, what PV health weighs: production (rollups of the
 * production sensors, combined as the energy metrics combine them), its peak power (POWER
 * sensors' maxima, for clipping), plane-of-array irradiance (IRRADIANCE sensors), and the sun
 * and clear-sky energy from the plant's location and PV settings.
 */

/** Per bucket start: the sum of `pick` over the rollups of that bucket. */
function sumByBucket(
  rollups: readonly SensorRollup[],
  pick: (rollup: SensorRollup) => number,
): Map<number, number> {
  const sums = new Map<number, number>();
  for (const rollup of rollups) {
    sums.set(rollup.bucketStart, (sums.get(rollup.bucketStart) ?? 0) + pick(rollup));
  }
  return sums;
}

async function irradianceSensorUuids(db: Db, plantUuid: string): Promise<string[]> {
  const rows = await rowsOf(
    db,
    db.selectFrom('sensors').select('sensor_uuid').where('plant_uuid', '=', plantUuid).compile(),
  );
  const sensors = await readingSensorsOf(
    db,
    rows.map((row) => row.sensor_uuid),
  );
  return [...sensors.values()]
    .filter((sensor) => sensor.dataType === 'IRRADIANCE')
    .map((sensor) => sensor.sensorUuid);
}

/** The producer devices' summed rating, W; null when one of them has none. */
async function inverterLimitW(db: Db, plantUuid: string): Promise<number | null> {
  const producers = (await plantDevicesOf(db, plantUuid)).filter(
    (device) => device.category === 'PRODUCER',
  );
  if (producers.length === 0) return null;
  if (producers.some((device) => !(device.ratedPowerW !== null && device.ratedPowerW > 0))) {
    return null;
  }
  return producers.reduce((sum, device) => sum + device.ratedPowerW!, 0);
}

/** A local day's quarter-hours (the last one shorter on a day of local mean time, before 1900). */
function quarterHoursOf(day: TimeRange): TimeRange[] {
  const quarters: TimeRange[] = [];
  for (let start = day.start; start < day.end; start += BUCKET_MS) {
    quarters.push({ start, end: Math.min(start + BUCKET_MS, day.end) });
  }
  return quarters;
}

export async function gatherPvHealthFacts(
  db: Db,
  plant: Readonly<PlantRow>,
  range: HealthRange,
): Promise<PvHealthFacts> {
  const zone = plant.timezone;
  const days = localDays(zone, range.first, range.last);
  const quartersByDay = days.map(quarterHoursOf);
  const quarters = quartersByDay.flat();
  const span = { start: days[0]!.start, end: days[days.length - 1]!.end };

  const energySensors = await energySensorsOf(db, plant.plant_uuid);
  const flow = productionFlow(energySensors);
  const production = combineFlow(await measureFlow(db, flow, quarters), (energyKwh) => energyKwh);
  const powerSensors = flowSensors(flow)
    .filter((sensor) => sensor.kind === 'POWER')
    .map((sensor) => sensor.sensorUuid);
  const peaks = sumByBucket(
    await rollupsOf(db, powerSensors, span.start, span.end),
    (rollup) => rollup.maxValue,
  );

  const irradianceSensors = await irradianceSensorUuids(db, plant.plant_uuid);
  const irradianceRollups = await rollupsOf(db, irradianceSensors, span.start, span.end);
  const irradiationWs = sumByBucket(
    irradianceRollups,
    (rollup) => rollup.meanValue * rollup.coveredSeconds,
  );
  const irradiatedSeconds = sumByBucket(irradianceRollups, (rollup) => rollup.coveredSeconds);

  const site: PvSite | null = pvSiteOf(plant);
  const model: PvModel | null = site ? createPvModel(site) : null;
  const sunAt = createSolarPositionCalculator({
    latitudeDeg: plant.latitude,
    longitudeDeg: plant.longitude,
    elevationM: plant.altitude_m ?? 0,
  });

  const facts: QuarterHourFacts[] = quarters.map((quarter, index) => {
    const measured = production[index]!;
    const irradiated = irradiatedSeconds.get(quarter.start) ?? 0;
    const sensorsSeconds =
      ((quarter.end - quarter.start) / 1000) * Math.max(irradianceSensors.length, 1);
    return {
      producedKwh: measured.value ?? 0,
      productionCoverage: measured.coverage,
      sunElevationDeg: sunAt((quarter.start + quarter.end) / 2).elevationDeg,
      clearSkyKwh: model
        ? model.clearSkyEnergyKwh(quarter.start, quarter.end, FORECAST_AMBIENT_C, CLEAR_SKY_STEP_MS)
        : 0,
      irradianceWm2: irradiated > 0 ? irradiationWs.get(quarter.start)! / irradiated : null,
      irradianceCoverage: Math.min(irradiated / sensorsSeconds, 1),
      peakPowerW: powerSensors.length > 0 ? (peaks.get(quarter.start) ?? null) : null,
    };
  });

  const healthDays: HealthDay[] = [];
  let offset = 0;
  quartersByDay.forEach((dayQuarters, index) => {
    healthDays.push({
      date: formatLocalDate(addDays(range.first, index)),
      quarterHours: facts.slice(offset, offset + dayQuarters.length),
    });
    offset += dayQuarters.length;
  });

  return {
    days: healthDays,
    pv: site ? { peakPowerKw: site.pv.peakPowerKw, lossesPercent: site.pv.lossesPercent } : null,
    hasProductionSensor: flow.source !== 'NONE',
    hasIrradianceSensor: irradianceSensors.length > 0,
    inverterLimitW: await inverterLimitW(db, plant.plant_uuid),
  };
}
