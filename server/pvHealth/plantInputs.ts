import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';
import {
  consumptionFlow,
  energySensorsOfPlants,
  flowSensors,
  productionFlow,
  type EnergySensor,
} from '../measurements/metrics/plantFlows.ts';
import { PrefetchedRollups } from '../measurements/metrics/prefetchedRollups.ts';
import { readingSensorsOfPlants } from '../measurements/readingSensors.ts';

/**
 * What a plant's PV health and energy figures are computed from, read for many plants at once
 * in four queries, whatever their number: their energy sensors, their irradiance sensors, their
 * producer devices' ratings, and the rollups of the sensors of their production, consumption
 * and irradiance. Callers keep the plant list bounded (an `in (...)` of its uuids, and of their
 * sensors').
 */

export interface PlantInputs {
  energySensors: readonly EnergySensor[];
  irradianceSensorUuids: readonly string[];
  /** The ratings of the plant's producer devices (inverters), W, by device name. */
  producerRatingsW: readonly (number | null)[];
  rollups: PrefetchedRollups;
}

/**
 * What rollups to read: those of the production and irradiance sensors over `production`,
 * those of the other sensors of consumption over `consumption` (none without it).
 */
export interface InputSpans {
  production: TimeRange;
  consumption?: TimeRange;
}

export async function loadPlantInputs(
  db: Db,
  plantUuids: readonly string[],
  spans: InputSpans,
): Promise<Map<string, PlantInputs>> {
  const energySensors = await energySensorsOfPlants(db, plantUuids);
  const irradiance = await irradianceSensorsOfPlants(db, plantUuids);
  const producers = await producerRatingsOfPlants(db, plantUuids);
  const uuidsOf = (sensors: readonly EnergySensor[]) => sensors.map((sensor) => sensor.sensorUuid);
  const production = plantUuids.flatMap((plantUuid) => [
    ...uuidsOf(flowSensors(productionFlow(energySensors.get(plantUuid) ?? []))),
    ...(irradiance.get(plantUuid) ?? []),
  ]);
  const consumption = spans.consumption
    ? plantUuids.flatMap((plantUuid) =>
        uuidsOf(flowSensors(consumptionFlow(energySensors.get(plantUuid) ?? []))),
      )
    : [];
  const rollups = await PrefetchedRollups.load(db, [
    { sensorUuids: production, span: spans.production },
    ...(spans.consumption ? [{ sensorUuids: consumption, span: spans.consumption }] : []),
  ]);
  return new Map(
    plantUuids.map((plantUuid) => [
      plantUuid,
      {
        energySensors: energySensors.get(plantUuid) ?? [],
        irradianceSensorUuids: irradiance.get(plantUuid) ?? [],
        producerRatingsW: producers.get(plantUuid) ?? [],
        rollups,
      },
    ]),
  );
}

/** The sensors whose readings are irradiance, of each plant that has any. One query. */
async function irradianceSensorsOfPlants(
  db: Db,
  plantUuids: readonly string[],
): Promise<Map<string, string[]>> {
  const byPlant = new Map<string, string[]>();
  for (const sensor of (await readingSensorsOfPlants(db, plantUuids)).values()) {
    if (sensor.dataType !== 'IRRADIANCE') continue;
    const list = byPlant.get(sensor.plantUuid) ?? [];
    list.push(sensor.sensorUuid);
    byPlant.set(sensor.plantUuid, list);
  }
  return byPlant;
}

/** The ratings of each plant's producer devices, by device name, of plants with any. One query. */
async function producerRatingsOfPlants(
  db: Db,
  plantUuids: readonly string[],
): Promise<Map<string, (number | null)[]>> {
  const byPlant = new Map<string, (number | null)[]>();
  if (plantUuids.length === 0) return byPlant;
  const rows = await rowsOf(
    db,
    db
      .selectFrom('devices as d')
      .innerJoin('device_types as t', 't.device_type_uuid', 'd.device_type_uuid')
      .select(['d.plant_uuid', 'd.rated_power_w'])
      .where('d.plant_uuid', 'in', [...plantUuids])
      .where('t.category', '=', 'PRODUCER')
      .orderBy('d.name')
      .orderBy('d.device_uuid')
      .compile(),
  );
  for (const row of rows) {
    const list = byPlant.get(row.plant_uuid) ?? [];
    list.push(row.rated_power_w);
    byPlant.set(row.plant_uuid, list);
  }
  return byPlant;
}
