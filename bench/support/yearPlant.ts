import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataTypeCode } from '../../api/index.ts';
import { DEMO_DEVICES, DEMO_PLANT, DEMO_SENSORS } from '../../server/demo/demoPlant.ts';
import { startServer } from '../../server/index.ts';
import { primaryDataType, readingKindOf } from '../../server/measurements/readingKinds.ts';
import type { ReadingKind } from '../../server/measurements/readingKinds.ts';
import type { Channel } from '../../server/simulator/channels.ts';
import { BenchApi } from './benchApi.ts';

/**
 * The plant both measurement benchmarks run on: the Demo Home's model (its PV array, battery,
 * heat pump, wallbox and meters) as a plant of its own, with the 8 sensors named by the issue.
 * It is built once per `npm run bench` through the server's API, in an SQLite file of a temp
 * directory that goes when the process ends; the ingestion benchmark fills it with a year of
 * readings, the metrics benchmark then serves it.
 *
 * Its sensors have no connection, so no simulator run of the server ever writes to them: the
 * readings are the benchmark's alone.
 */

export interface BenchSensor {
  key: string;
  sensorUuid: string;
  kind: ReadingKind;
  /** What the simulator generates for it. */
  channel: Channel;
}

export interface YearPlant {
  dir: string;
  dbFile: string;
  admin: { email: string; password: string };
  plantUuid: string;
  timezone: string;
  sensors: BenchSensor[];
  /** Whether the year of readings is in `dbFile` yet. */
  ingested: boolean;
}

/** The Demo Home's sensors but its battery's state of charge: 8, each with its channel. */
const CHANNELS: Record<string, Channel> = {
  pv: { source: 'pv' },
  batteryPower: { source: 'battery' },
  heatPump: { source: 'load', loadKey: 'heatPump' },
  evCharger: { source: 'load', loadKey: 'ev' },
  grid: { source: 'grid' },
  consumption: { source: 'consumption' },
  outdoorTemperature: { source: 'temperature' },
  irradiance: { source: 'irradiance' },
};

/** Kept equal to the simulated battery's capacity (`yearReadings.ts`). */
export const BATTERY_CAPACITY_KWH = 10;

export const ADMIN = { email: 'bench@plantdesk.local', password: 'bench-password-1' };

let shared: Promise<YearPlant> | undefined;

/** The plant, built on first use and shared by every benchmark of this process. */
export function yearPlant(): Promise<YearPlant> {
  shared ??= createYearPlant();
  return shared;
}

async function createYearPlant(): Promise<YearPlant> {
  const dir = mkdtempSync(join(tmpdir(), 'plantdesk-bench-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const dbFile = join(dir, 'plantdesk.db');
  const server = await startServer({
    port: 0,
    db: dbFile,
    logger: false,
    admin: ADMIN,
    simulation: false,
  });
  try {
    const api = await BenchApi.login(server.url, ADMIN);
    const { plantUuid, sensors } = await createPlantModel(api);
    return {
      dir,
      dbFile,
      admin: ADMIN,
      plantUuid,
      timezone: DEMO_PLANT.location!.timezone,
      sensors,
      ingested: false,
    };
  } finally {
    await server.close();
  }
}

/** The plant, its devices and its 8 sensors, made through the API of a server (any engine). */
export async function createPlantModel(
  api: BenchApi,
): Promise<{ plantUuid: string; sensors: BenchSensor[] }> {
  const { plantUuid } = await api.post<{ plantUuid: string }>('/plants', {
    ...DEMO_PLANT,
    name: 'Benchmark year plant',
    externalIds: [],
  });
  const deviceUuids = await createDevices(api, plantUuid);
  return { plantUuid, sensors: await createSensors(api, plantUuid, deviceUuids) };
}

/** The Demo Home's devices; key → deviceUuid. */
async function createDevices(api: BenchApi, plantUuid: string): Promise<Map<string, string>> {
  const deviceTypes = await api.catalog('/device-types', 'deviceTypeUuid');
  const signatures = await api.catalog('/load-signatures', 'loadSignatureUuid');
  const deviceUuids = new Map<string, string>();
  for (const device of DEMO_DEVICES) {
    const created = await api.post<{ deviceUuid: string }>(`/plants/${plantUuid}/devices`, {
      name: device.name,
      deviceTypeUuid: deviceTypes.get(device.deviceTypeCode),
      model: device.model,
      serialNumber: device.serialNumber,
      ratedPowerW: device.ratedPowerW,
      loadSignatureUuid: device.loadSignatureCode ? signatures.get(device.loadSignatureCode) : null,
      metadata: device.key === 'battery' ? { capacityKwh: BATTERY_CAPACITY_KWH } : {},
    });
    deviceUuids.set(device.key, created.deviceUuid);
  }
  return deviceUuids;
}

async function createSensors(
  api: BenchApi,
  plantUuid: string,
  deviceUuids: ReadonlyMap<string, string>,
): Promise<BenchSensor[]> {
  const sensorTypes = await api.catalog('/sensor-types', 'sensorTypeUuid');
  const dataTypes = await api.catalog('/data-types-collects', 'dataTypesCollectUuid');
  const sensors: BenchSensor[] = [];
  for (const sensor of DEMO_SENSORS) {
    const channel = CHANNELS[sensor.key];
    if (!channel) continue;
    const created = await api.post<{ sensorUuid: string }>(`/plants/${plantUuid}/sensors`, {
      name: sensor.name,
      sensorTypeUuid: sensorTypes.get(sensor.sensorTypeCode),
      dataTypesCollectUuids: sensor.dataTypes.map((code) => dataTypes.get(code)),
      deviceUuid: sensor.deviceKey ? deviceUuids.get(sensor.deviceKey) : null,
      flow: sensor.flow,
      samplingIntervalSeconds: 60,
    });
    const primary = primaryDataType(sensor.dataTypes as DataTypeCode[])!;
    sensors.push({
      key: sensor.key,
      sensorUuid: created.sensorUuid,
      kind: readingKindOf(primary),
      channel,
    });
  }
  if (sensors.length !== Object.keys(CHANNELS).length) {
    throw new Error('The Demo Home no longer has the sensors the benchmark plant copies');
  }
  return sensors;
}
