import type { ServerContext } from '../../server/context.ts';
import { readCatalogUuids } from '../../server/demo/catalogUuids.ts';
import { DEMO_ORGANIZATIONS } from '../../server/demo/accounts.ts';
import { insertPlant } from '../../server/features/plants/plantStore.ts';
import { insertSensor } from '../../server/features/sensors/sensorStore.ts';
import { ingestMany, type SensorReadings } from '../../server/measurements/readingsStore.ts';
import { readingSensorsOf } from '../../server/measurements/readingSensors.ts';

/**
 * A fleet for the plant summaries benchmark, written through the server's own stores: plants of
 * the demo organization with PV settings, each with a plant-level PV production power sensor
 * and a grid power sensor (so consumption is the balance of the two), and `days` of 5-minute
 * readings up to `endMs`, ingested with `ingestMany` so the rollups are made the normal way.
 */

export interface FleetSetup {
  plants: number;
  readings: number;
  rollups: number;
  seconds: number;
}

const SAMPLING_SECONDS = 300;
/** Plants per `ingestMany` call: a bounded transaction of 2 sensors × `days` each. */
const INGEST_PLANTS = 50;
const ZONES = [
  { timezone: 'Europe/Berlin', latitude: 52.5, longitude: 13.4 },
  { timezone: 'Europe/Rome', latitude: 41.9, longitude: 12.5 },
  { timezone: 'Europe/Madrid', latitude: 40.4, longitude: -3.7 },
  { timezone: 'Europe/London', latitude: 51.5, longitude: -0.1 },
] as const;

interface BenchPlant {
  plantUuid: string;
  longitude: number;
  peakPowerW: number;
  pvSensorUuid: string;
  gridSensorUuid: string;
}

export async function createFleet(
  context: ServerContext,
  count: number,
  days: number,
  endMs: number,
): Promise<FleetSetup> {
  const started = performance.now();
  const plants = await createPlants(context, count);
  const sensors = await readingSensorsOf(
    context.db,
    plants.flatMap((plant) => [plant.pvSensorUuid, plant.gridSensorUuid]),
  );
  const startMs = endMs - days * 86_400_000;
  let readings = 0;
  let rollups = 0;
  for (let first = 0; first < plants.length; first += INGEST_PLANTS) {
    const batches: SensorReadings[] = plants
      .slice(first, first + INGEST_PLANTS)
      .flatMap((plant, index) => {
        const series = simulatePlant(plant, first + index, startMs, endMs);
        return [
          { sensor: sensors.get(plant.pvSensorUuid)!, ...series.pv },
          { sensor: sensors.get(plant.gridSensorUuid)!, ...series.grid },
        ];
      });
    const stats = await ingestMany(context.db, batches);
    readings += stats.readings;
    rollups += stats.rollups;
  }
  return { plants: count, readings, rollups, seconds: (performance.now() - started) / 1000 };
}

async function createPlants(context: ServerContext, count: number): Promise<BenchPlant[]> {
  const { db } = context;
  const organization = await db
    .selectFrom('organizations')
    .select('organization_uuid')
    .where('name', '=', DEMO_ORGANIZATIONS.demo)
    .executeTakeFirstOrThrow();
  const catalog = await readCatalogUuids(db);
  const powerMeter = catalog.sensorTypes.POWER_METER!;
  const dataTypes = [catalog.dataTypes.POWER!, catalog.dataTypes.ENERGY!];
  const at = context.now().toISOString();
  const choice = { skip: true, requester: { userUuid: 'bench' } };
  return db.transaction().execute(async (trx) => {
    const trxContext = { ...context, db: trx };
    const plants: BenchPlant[] = [];
    for (let index = 0; index < count; index++) {
      const zone = ZONES[index % ZONES.length]!;
      const spread = ((index * 37) % 100) / 50 - 1;
      const peakPowerKw = 4 + (index % 17);
      const plant = await insertPlant(
        trx,
        organization.organization_uuid,
        {
          name: `Bench plant ${String(index + 1).padStart(4, '0')}`,
          externalIds: [],
          location: {
            latitude: zone.latitude + spread,
            longitude: zone.longitude + spread,
            timezone: zone.timezone,
          },
          pv: { peakPowerKw, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
        },
        at,
      );
      const plantRow = {
        plant_uuid: plant.plantUuid,
        organization_uuid: organization.organization_uuid,
      };
      const sensor = (name: string, flow: 'PRODUCTION' | 'GRID') =>
        insertSensor(
          trxContext,
          plantRow,
          {
            name,
            sensorTypeUuid: powerMeter,
            dataTypesCollectUuids: dataTypes,
            flow,
            samplingIntervalSeconds: SAMPLING_SECONDS,
          },
          choice,
        );
      plants.push({
        plantUuid: plant.plantUuid,
        longitude: zone.longitude + spread,
        peakPowerW: peakPowerKw * 1000,
        pvSensorUuid: (await sensor('PV production', 'PRODUCTION')).sensorUuid,
        gridSensorUuid: (await sensor('Grid exchange', 'GRID')).sensorUuid,
      });
    }
    return plants;
  });
}

/**
 * PV power follows the sun's hour angle with a few cloudy days; the house draws a base load
 * with an evening peak; the grid imports what the PV does not cover (negative: export).
 */
function simulatePlant(plant: BenchPlant, index: number, startMs: number, endMs: number) {
  const takenAt: number[] = [];
  const pv: number[] = [];
  const grid: number[] = [];
  for (let at = startMs; at < endMs; at += SAMPLING_SECONDS * 1000) {
    const solarHours = (((at / 3_600_000 + plant.longitude / 15) % 24) + 24) % 24;
    const day = Math.floor(at / 86_400_000);
    const clouds = (day + index) % 5 === 0 ? 0.35 : 0.9;
    const sun = Math.max(0, Math.cos(((solarHours - 12) / 12) * Math.PI));
    const production = Math.round(plant.peakPowerW * 0.8 * clouds * sun ** 1.5);
    const house = 400 + (solarHours > 18 && solarHours < 22 ? 1500 : 0) + (index % 7) * 50;
    takenAt.push(at);
    pv.push(production);
    grid.push(house - production);
  }
  return { pv: { takenAt, values: pv }, grid: { takenAt, values: grid } };
}
