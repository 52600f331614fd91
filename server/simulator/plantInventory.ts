import type { Db } from '../db/database.ts';
import type { PlantRow } from '../db/tables.ts';
import { parseJsonObject } from '../db/lists.ts';
import { toPlant } from '../features/plants/plantStore.ts';
import { readingSensorsOf, type ReadingSensor } from '../measurements/readingSensors.ts';
import { DEFAULT_BATTERY_CAPACITY_KWH, type BatterySpec } from './battery.ts';
import { isSimulatorAddress, resolveChannel, sourceOf, type ChannelPlant } from './channels.ts';
import { DEFAULT_EV_CHARGING_POWER_W } from './evCharger.ts';
import { externallyFed } from './externalFeeds.ts';
import { backgroundHistoryOf, plantFaultsOf, sensorFaultOf, type SensorFault } from './faults.ts';
import type { LoadSpec, PlantSimulationConfig } from './plantSimulation.ts';
import type { SimulatedSensorSpec } from './sensorReadings.ts';
import type { PvArray } from './solar.ts';

/**
 * What the simulator simulates, read from the database: the plants that have sensors connected
 * to the simulator vendor at a `sim://` address (and never fed through the readings endpoint),
 * each with the configuration of its simulation and the channel of each such sensor.
 *
 * A plant's simulation covers the whole plant, so totals add up: its PV array (the plant's `pv`
 * settings), its batteries (STORAGE devices), the household base load and one load per consumer
 * device (and per device a consumption sensor is attached to), whether or not each has a sensor.
 */

export interface SimulatedSensor extends SimulatedSensorSpec {
  sensor: ReadingSensor;
}

export interface SimulatedPlant {
  config: PlantSimulationConfig;
  sensors: SimulatedSensor[];
  /**
   * `metadata.simulation.backgroundHistory`: the plant's history beyond its first days is
   * written after the server starts listening (the demo fleet), not before.
   */
  backgroundHistory: boolean;
}

interface DeviceFacts {
  deviceUuid: string;
  typeCode: string;
  category: string;
  ratedPowerW: number | null;
  metadata: string;
  signature: { code: string; hourlyProfile: number[]; typicalDailyKwh: number | null } | null;
}

const HOUSEHOLD_SIGNATURE = 'HOUSEHOLD_BASE';
const HOUSEHOLD_KEY = 'household';
const DEFAULT_HOUSEHOLD_KWH = 8.5;
const FLAT_PROFILE: readonly number[] = new Array<number>(24).fill(1 / 24);
const DEFAULT_HEAT_PUMP_POWER_W = 3000;
const DEFAULT_PEAK_POWER_KW = 5;
const DEFAULT_TILT_DEG = 30;
const DEFAULT_LOSSES_PERCENT = 14;
/** A battery's power rating when unknown: half its capacity per hour. */
const DEFAULT_C_RATE = 0.5;
const CAPACITY_KEYS = ['capacityKwh', 'usableCapacityKwh'] as const;

/**
 * The sensors connected to the simulator vendor at a `sim://` address, fed through the API or
 * not. One query without joins to readings: cheap enough to ask every few seconds.
 */
export async function simulatorConnectedSensors(
  db: Db,
): Promise<{ sensor_uuid: string; plant_uuid: string; connection_address: string | null }[]> {
  const connected = await db
    .selectFrom('sensors as s')
    .innerJoin('vendors as v', 'v.vendor_uuid', 's.connection_vendor_uuid')
    .select(['s.sensor_uuid', 's.plant_uuid', 's.connection_address'])
    .where('v.kind', '=', 'SIMULATOR')
    .execute();
  return connected.filter((row) => isSimulatorAddress(row.connection_address));
}

/** Every plant with simulated sensors, ready to simulate with `seed`. */
export async function simulatedPlants(db: Db, seed: number): Promise<SimulatedPlant[]> {
  const candidates = await simulatorConnectedSensors(db);
  const fedElsewhere = await externallyFed(
    db,
    candidates.map((row) => row.sensor_uuid),
  );
  const simulated = candidates.filter((row) => !fedElsewhere.has(row.sensor_uuid));
  if (simulated.length === 0) return [];

  const readingSensors = await readingSensorsOf(
    db,
    simulated.map((row) => row.sensor_uuid),
  );
  const plantUuids = [...new Set(simulated.map((row) => row.plant_uuid))];
  const [plants, devices, householdSignature, sensorFaults] = await Promise.all([
    db.selectFrom('plants').selectAll().where('plant_uuid', 'in', plantUuids).execute(),
    devicesOf(db, plantUuids),
    db
      .selectFrom('load_signatures')
      .select(['hourly_profile', 'typical_daily_kwh'])
      .where('code', '=', HOUSEHOLD_SIGNATURE)
      .executeTakeFirst(),
    faultsOfSensors(
      db,
      simulated.map((row) => row.sensor_uuid),
    ),
  ]);
  const household: LoadSpec = {
    key: HOUSEHOLD_KEY,
    kind: 'household',
    hourlyProfile: householdSignature
      ? parseProfile(householdSignature.hourly_profile)
      : FLAT_PROFILE,
    typicalDailyKwh: householdSignature?.typical_daily_kwh ?? DEFAULT_HOUSEHOLD_KWH,
  };

  return plants
    .sort((a, b) => a.plant_uuid.localeCompare(b.plant_uuid))
    .map((plant) =>
      simulatedPlant(
        plant,
        devices.get(plant.plant_uuid) ?? [],
        simulated
          .filter((row) => row.plant_uuid === plant.plant_uuid)
          .flatMap((row) => {
            const sensor = readingSensors.get(row.sensor_uuid);
            return sensor
              ? [
                  {
                    sensor,
                    address: row.connection_address!,
                    fault: sensorFaults.get(row.sensor_uuid) ?? null,
                  },
                ]
              : [];
          }),
        household,
        seed,
      ),
    )
    .filter((plant) => plant.sensors.length > 0);
}

function simulatedPlant(
  plant: PlantRow,
  devices: readonly DeviceFacts[],
  sensors: readonly { sensor: ReadingSensor; address: string; fault: SensorFault | null }[],
  household: LoadSpec,
  seed: number,
): SimulatedPlant {
  const meteredDevices = new Set(
    sensors
      .filter(({ sensor }) => sensor.flow === 'CONSUMPTION' && sensor.deviceUuid)
      .map(({ sensor }) => sensor.deviceUuid!),
  );
  const loadDevices = devices.filter(
    (device) => device.category === 'CONSUMER' || meteredDevices.has(device.deviceUuid),
  );
  const deviceLoads = loadDevices.map(deviceLoad);
  const hasOwnBaseLoad = loadDevices.some(
    (device) => device.signature?.code === HOUSEHOLD_SIGNATURE,
  );
  const loads = hasOwnBaseLoad ? deviceLoads : [household, ...deviceLoads];

  const channelPlant: ChannelPlant = {
    loadOfDevice: (deviceUuid) => loads.find((load) => load.key === deviceUuid)?.key,
    loadOfKind: (kind) => loads.find((load) => load.kind === kind)?.key,
  };
  const simulatedSensors = sensors.flatMap(({ sensor, address, fault }) => {
    const channel = resolveChannel({ ...sensor, address }, channelPlant);
    return channel
      ? [
          {
            sensor,
            channel,
            kind: sensor.kind,
            samplingIntervalSeconds: sensor.samplingIntervalSeconds,
            fault,
          },
        ]
      : [];
  });
  const sources = new Set(simulatedSensors.map((entry) => sourceOf(entry.channel)));
  const pv = pvArrayOf(plant, devices, sources.has('pv'));
  const equatorFacing = plant.latitude >= 0 ? 180 : 0;

  return {
    config: {
      plantUuid: plant.plant_uuid,
      seedKey: `${plant.name}@${plant.latitude},${plant.longitude}`,
      seed,
      site: {
        latitudeDeg: plant.latitude,
        longitudeDeg: plant.longitude,
        altitudeM: plant.altitude_m ?? 0,
      },
      timezone: plant.timezone,
      pv,
      planeOfArray: pv ?? { tiltDeg: DEFAULT_TILT_DEG, azimuthDeg: equatorFacing },
      battery: batteryOf(devices, sources.has('battery') || sources.has('soc')),
      loads,
      pvFaults: plantFaultsOf(parseJsonObject(plant.metadata)),
    },
    sensors: simulatedSensors,
    backgroundHistory: backgroundHistoryOf(parseJsonObject(plant.metadata)),
  };
}

/** Faults injected through the sensors' metadata, by sensor. */
async function faultsOfSensors(
  db: Db,
  sensorUuids: readonly string[],
): Promise<Map<string, SensorFault>> {
  const faults = new Map<string, SensorFault>();
  if (sensorUuids.length === 0) return faults;
  const rows = await db
    .selectFrom('sensors')
    .select(['sensor_uuid', 'metadata'])
    .where('sensor_uuid', 'in', [...sensorUuids])
    .execute();
  for (const row of rows) {
    const fault = sensorFaultOf(parseJsonObject(row.metadata));
    if (fault) faults.set(row.sensor_uuid, fault);
  }
  return faults;
}

function deviceLoad(device: DeviceFacts): LoadSpec {
  const key = device.deviceUuid;
  if (device.typeCode === 'HEAT_PUMP') {
    return { key, kind: 'heatPump', ratedPowerW: device.ratedPowerW ?? DEFAULT_HEAT_PUMP_POWER_W };
  }
  if (device.typeCode === 'EV_CHARGER') {
    return {
      key,
      kind: 'ev',
      chargingPowerW: device.ratedPowerW ?? DEFAULT_EV_CHARGING_POWER_W,
    };
  }
  const signature = device.signature;
  if (signature && signature.typicalDailyKwh != null && signature.typicalDailyKwh > 0) {
    if (signature.code === HOUSEHOLD_SIGNATURE) {
      return {
        key,
        kind: 'household',
        hourlyProfile: signature.hourlyProfile,
        typicalDailyKwh: signature.typicalDailyKwh,
      };
    }
    return {
      key,
      kind: 'profile',
      hourlyProfile: signature.hourlyProfile,
      typicalDailyKwh: signature.typicalDailyKwh,
      ratedPowerW: device.ratedPowerW,
    };
  }
  return { key, kind: 'appliance', ratedPowerW: device.ratedPowerW };
}

/**
 * The plant's `pv` settings; a plant without them but with a simulated production sensor gets
 * a default array (its inverters' rating plus 10 %, else 5 kWp, tilted 30° toward the equator).
 * Producer devices that all state a rating limit the AC output to their sum.
 */
function pvArrayOf(
  plant: PlantRow,
  devices: readonly DeviceFacts[],
  reported: boolean,
): PvArray | null {
  const producers = devices.filter((device) => device.category === 'PRODUCER');
  const ratings = producers.map((device) => device.ratedPowerW);
  const inverterLimitW =
    ratings.length > 0 && ratings.every((rating) => rating != null && rating > 0)
      ? ratings.reduce<number>((sum, rating) => sum + rating!, 0)
      : null;
  const settings = toPlant(plant).pv;
  if (settings) return { ...settings, inverterLimitW };
  if (!reported) return null;
  return {
    peakPowerKw: inverterLimitW != null ? (inverterLimitW * 1.1) / 1000 : DEFAULT_PEAK_POWER_KW,
    tiltDeg: DEFAULT_TILT_DEG,
    azimuthDeg: plant.latitude >= 0 ? 180 : 0,
    lossesPercent: DEFAULT_LOSSES_PERCENT,
    inverterLimitW,
  };
}

/**
 * The plant's STORAGE devices as one battery: capacities from their metadata (`capacityKwh`,
 * else 10 kWh each) and power ratings (else half the capacity per hour) added up. A plant with
 * simulated battery sensors but no storage device gets a default 10 kWh battery.
 */
function batteryOf(devices: readonly DeviceFacts[], reported: boolean): BatterySpec | null {
  const batteries = devices.filter((device) => device.category === 'STORAGE');
  if (batteries.length === 0) {
    return reported
      ? {
          capacityKwh: DEFAULT_BATTERY_CAPACITY_KWH,
          maxPowerW: DEFAULT_BATTERY_CAPACITY_KWH * DEFAULT_C_RATE * 1000,
        }
      : null;
  }
  let capacityKwh = 0;
  let maxPowerW = 0;
  for (const battery of batteries) {
    const capacity = capacityOf(battery.metadata);
    capacityKwh += capacity;
    maxPowerW += battery.ratedPowerW ?? capacity * DEFAULT_C_RATE * 1000;
  }
  return { capacityKwh, maxPowerW };
}

function capacityOf(metadata: string): number {
  const fields = parseJsonObject(metadata);
  for (const key of CAPACITY_KEYS) {
    const value = fields[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  }
  return DEFAULT_BATTERY_CAPACITY_KWH;
}

async function devicesOf(
  db: Db,
  plantUuids: readonly string[],
): Promise<Map<string, DeviceFacts[]>> {
  const rows = await db
    .selectFrom('devices as d')
    .innerJoin('device_types as t', 't.device_type_uuid', 'd.device_type_uuid')
    .leftJoin('load_signatures as l', 'l.load_signature_uuid', 'd.load_signature_uuid')
    .select([
      'd.device_uuid',
      'd.plant_uuid',
      'd.rated_power_w',
      'd.metadata',
      't.code as type_code',
      't.category',
      'l.code as signature_code',
      'l.hourly_profile',
      'l.typical_daily_kwh',
    ])
    .where('d.plant_uuid', 'in', [...plantUuids])
    .orderBy('d.device_uuid')
    .execute();
  const byPlant = new Map<string, DeviceFacts[]>();
  for (const row of rows) {
    const list = byPlant.get(row.plant_uuid) ?? [];
    list.push({
      deviceUuid: row.device_uuid,
      typeCode: row.type_code,
      category: row.category,
      ratedPowerW: row.rated_power_w,
      metadata: row.metadata,
      signature:
        row.signature_code != null && row.hourly_profile != null
          ? {
              code: row.signature_code,
              hourlyProfile: parseProfile(row.hourly_profile),
              typicalDailyKwh: row.typical_daily_kwh,
            }
          : null,
    });
    byPlant.set(row.plant_uuid, list);
  }
  return byPlant;
}

function parseProfile(json: string): number[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) && parsed.length === 24 && parsed.every((v) => typeof v === 'number')
    ? (parsed as number[])
    : [...FLAT_PROFILE];
}
