import type { SensorFlow } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { reusableQuery, rowsOf } from '../../db/fastQuery.ts';

/**
 * Which sensors make a plant's consumption and production (decisions file, "Measurements"):
 * only sensors whose readings are energy, that is whose primary data type is POWER or ENERGY.
 */

export type EnergyKind = 'POWER' | 'ENERGY';
export type EnergyFlowName = Exclude<SensorFlow, 'AMBIENT'>;

export interface EnergySensor {
  sensorUuid: string;
  name: string;
  deviceUuid: string | null;
  deviceTypeCode: string | null;
  flow: EnergyFlowName;
  /** The primary data type: POWER when collected, else ENERGY. */
  kind: EnergyKind;
  samplingIntervalSeconds: number;
}

/**
 * Where a plant's consumption or production comes from. `terms` are added together; the
 * sensors of a term are summed. Only the balance has several terms (production, grid,
 * storage, each signed by the sign conventions), and only there may the total fall below
 * zero (meters that disagree), which the series clamp to 0.
 */
export interface PlantFlow {
  source: 'PLANT_SENSORS' | 'DEVICE_SENSORS' | 'BALANCE' | 'NONE';
  terms: readonly (readonly EnergySensor[])[];
}

export const NO_FLOW: PlantFlow = { source: 'NONE', terms: [] };

const ENERGY_FLOWS: readonly EnergyFlowName[] = ['CONSUMPTION', 'PRODUCTION', 'GRID', 'STORAGE'];
const ENERGY_KINDS: readonly EnergyKind[] = ['POWER', 'ENERGY'];

/** The energy sensors' rows (one per collected energy data type), by name; plants not chosen. */
const energySensorQuery = (db: Db) =>
  db
    .selectFrom('sensors as s')
    .innerJoin('sensor_data_types as collected', 'collected.sensor_uuid', 's.sensor_uuid')
    .innerJoin(
      'data_types_collects as d',
      'd.data_types_collect_uuid',
      'collected.data_types_collect_uuid',
    )
    .leftJoin('devices as device', 'device.device_uuid', 's.device_uuid')
    .leftJoin('device_types as type', 'type.device_type_uuid', 'device.device_type_uuid')
    .select([
      's.plant_uuid',
      's.sensor_uuid',
      's.name',
      's.device_uuid',
      's.flow',
      's.sampling_interval_seconds',
      'd.code',
      'type.code as device_type_code',
    ])
    .where('s.flow', 'in', [...ENERGY_FLOWS])
    .where('d.code', 'in', [...ENERGY_KINDS])
    .orderBy('s.name')
    .orderBy('s.sensor_uuid');

type EnergySensorRow = Awaited<ReturnType<ReturnType<typeof energySensorQuery>['execute']>>[number];

const energySensorRows = reusableQuery((db, plantUuid: string) =>
  energySensorQuery(db).where('s.plant_uuid', '=', plantUuid),
);

/** The plant's sensors that measure energy, by name. One query. */
export async function energySensorsOf(db: Db, plantUuid: string): Promise<EnergySensor[]> {
  return energySensorsFrom(await energySensorRows(db, plantUuid));
}

/** The same for several plants, by plant uuid (every plant asked for has an entry). One query. */
export async function energySensorsOfPlants(
  db: Db,
  plantUuids: readonly string[],
): Promise<Map<string, EnergySensor[]>> {
  if (plantUuids.length === 0) return new Map();
  const rowsByPlant = new Map<string, EnergySensorRow[]>(plantUuids.map((uuid) => [uuid, []]));
  const rows = await rowsOf(
    db,
    energySensorQuery(db)
      .where('s.plant_uuid', 'in', [...plantUuids])
      .compile(),
  );
  for (const row of rows) rowsByPlant.get(row.plant_uuid)?.push(row);
  return new Map(
    [...rowsByPlant].map(([plantUuid, plantRows]) => [plantUuid, energySensorsFrom(plantRows)]),
  );
}

/** One plant's rows, in the query's order, as sensors: POWER when it collects POWER at all. */
function energySensorsFrom(rows: readonly EnergySensorRow[]): EnergySensor[] {
  const sensors = new Map<string, EnergySensor>();
  for (const row of rows) {
    const known = sensors.get(row.sensor_uuid);
    if (known) {
      if (row.code === 'POWER') known.kind = 'POWER';
      continue;
    }
    sensors.set(row.sensor_uuid, {
      sensorUuid: row.sensor_uuid,
      name: row.name,
      deviceUuid: row.device_uuid,
      deviceTypeCode: row.device_type_code,
      flow: row.flow as EnergyFlowName,
      kind: row.code as EnergyKind,
      samplingIntervalSeconds: row.sampling_interval_seconds,
    });
  }
  return [...sensors.values()];
}

const ofFlow = (sensors: readonly EnergySensor[], flow: EnergyFlowName) =>
  sensors.filter((sensor) => sensor.flow === flow);

/**
 * The plant-level sensors of a flow when there are any (they measure the whole plant), else the
 * device-level ones.
 */
function preferPlantLevel(sensors: readonly EnergySensor[]): {
  level: 'PLANT_SENSORS' | 'DEVICE_SENSORS';
  sensors: EnergySensor[];
} {
  const plantLevel = sensors.filter((sensor) => sensor.deviceUuid === null);
  return plantLevel.length > 0
    ? { level: 'PLANT_SENSORS', sensors: plantLevel }
    : { level: 'DEVICE_SENSORS', sensors: [...sensors] };
}

function directFlow(sensors: readonly EnergySensor[], flow: EnergyFlowName): PlantFlow {
  const chosen = preferPlantLevel(ofFlow(sensors, flow));
  return chosen.sensors.length === 0 ? NO_FLOW : { source: chosen.level, terms: [chosen.sensors] };
}

export const productionFlow = (sensors: readonly EnergySensor[]): PlantFlow =>
  directFlow(sensors, 'PRODUCTION');

/**
 * Consumption meters when there are any; else, when the grid is measured, the balance
 * consumption = production + grid + storage (grid positive = import, storage positive =
 * discharge), each term chosen like production.
 */
export function consumptionFlow(sensors: readonly EnergySensor[]): PlantFlow {
  const measured = directFlow(sensors, 'CONSUMPTION');
  if (measured.source !== 'NONE') return measured;
  const grid = directFlow(sensors, 'GRID');
  if (grid.source === 'NONE') return NO_FLOW;
  const terms = [productionFlow(sensors), grid, directFlow(sensors, 'STORAGE')].flatMap(
    (flow) => flow.terms,
  );
  return { source: 'BALANCE', terms };
}

export const flowSensors = (flow: PlantFlow): EnergySensor[] => flow.terms.flat();

/** Grid sensors (plant-level if any) and storage sensors (likewise), for import and discharge. */
export const gridSensors = (sensors: readonly EnergySensor[]): EnergySensor[] =>
  flowSensors(directFlow(sensors, 'GRID'));
export const storageSensors = (sensors: readonly EnergySensor[]): EnergySensor[] =>
  flowSensors(directFlow(sensors, 'STORAGE'));
export const deviceConsumptionSensors = (sensors: readonly EnergySensor[]): EnergySensor[] =>
  ofFlow(sensors, 'CONSUMPTION').filter((sensor) => sensor.deviceUuid !== null);
