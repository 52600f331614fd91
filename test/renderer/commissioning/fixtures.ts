import type { DataTypesCollect, DeviceType, SensorType } from '../../../api/schemas/catalogs.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { SensorFlow } from '../../../api/schemas/sensors.ts';
import {
  ENERGY,
  INVERTER_TYPE,
  pageOf,
  POWER,
  POWER_METER,
  SIMULATOR,
} from '../sensors/fixtures.ts';

/** A commissioned plant as the API answers it: a roof with PV, an inverter and a grid meter. */

const AT = '2026-11-18T11:00:00.000Z';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const PLANT_UUID = '22222222-2222-4222-8222-222222222222';

export const PLANT: Plant = {
  plantUuid: PLANT_UUID,
  name: 'Roof in Turin',
  externalIds: ['CRM-42'],
  location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome', altitudeM: 240 },
  pv: { peakPowerKw: 6, tiltDeg: 25, azimuthDeg: 170, lossesPercent: 12 },
  metadata: {},
  createdAt: AT,
  updatedAt: AT,
};

// The catalog entries are those of the device and sensor screens' tests.
export {
  ENERGY,
  INVERTER_TYPE,
  POWER,
  POWER_METER,
  SIMULATOR,
  TEMPERATURE,
  THERMOMETER,
} from '../sensors/fixtures.ts';

export const METER_TYPE: DeviceType = {
  deviceTypeUuid: uuid(402),
  code: 'METER',
  name: 'Grid meter',
  category: 'GRID',
  description: null,
  createdAt: AT,
  updatedAt: AT,
};
export const HEAT_PUMP_TYPE: DeviceType = {
  deviceTypeUuid: uuid(403),
  code: 'HEAT_PUMP',
  name: 'Heat pump',
  category: 'CONSUMER',
  description: null,
  createdAt: AT,
  updatedAt: AT,
};

let next = 500;

export function sensor(
  name: string,
  flow: SensorFlow,
  options: {
    dataTypes?: DataTypesCollect[];
    device?: Device | null;
    address?: string | null;
    type?: SensorType;
  } = {},
): Sensor {
  const dataTypes = options.dataTypes ?? [POWER];
  const device = options.device ?? null;
  const address = options.address === undefined ? `sim://roof/${name}` : options.address;
  return {
    sensorUuid: uuid(next++),
    plantUuid: PLANT_UUID,
    deviceUuid: device?.deviceUuid ?? null,
    name,
    sensorTypeUuid: (options.type ?? POWER_METER).sensorTypeUuid,
    dataTypesCollectUuids: dataTypes.map((dataType) => dataType.dataTypesCollectUuid),
    flow,
    samplingIntervalSeconds: 60,
    connection: address === null ? null : { vendorUuid: SIMULATOR.vendorUuid, address },
    metadata: {},
    createdAt: AT,
    updatedAt: AT,
    relationships: {
      device: device ? withoutRelationships(device) : null,
      sensorType: options.type ?? POWER_METER,
      dataTypesCollects: dataTypes,
    },
  };
}

export function device(name: string, type: DeviceType, sensors: Sensor[] = []): Device {
  return {
    deviceUuid: uuid(next++),
    plantUuid: PLANT_UUID,
    name,
    deviceTypeUuid: type.deviceTypeUuid,
    vendorUuid: null,
    model: null,
    serialNumber: null,
    ratedPowerW: null,
    loadSignatureUuid: null,
    metadata: {},
    createdAt: AT,
    updatedAt: AT,
    relationships: {
      deviceType: type,
      sensors: sensors.map(({ relationships: _relationships, ...record }) => record),
      loadSignature: null,
      vendor: null,
    },
  };
}

function withoutRelationships(value: Device) {
  const { relationships: _relationships, ...record } = value;
  return record;
}

/** An inverter measured by a PV sensor and a grid meter measured by a grid sensor. */
export function commissionedRoof() {
  const inverter = device('Inverter', INVERTER_TYPE);
  const meter = device('Grid meter', METER_TYPE);
  const pv = sensor('PV output', 'PRODUCTION', {
    device: inverter,
    dataTypes: [POWER, ENERGY],
    address: 'sim://roof/pv',
  });
  const grid = sensor('Grid connection', 'GRID', { device: meter, address: 'sim://roof/grid' });
  inverter.relationships!.sensors = [stripped(pv)];
  meter.relationships!.sensors = [stripped(grid)];
  return { inverter, meter, pv, grid, devices: [inverter, meter], sensors: [pv, grid] };
}

function stripped(value: Sensor) {
  const { relationships: _relationships, ...record } = value;
  return record;
}

/**
 * What the wizard reads of a commissioned plant (mountWithApp's `routes`): the plant, its
 * devices and sensors, no vendor configured, every stored connection passing its re-test.
 */
export function wizardRoutes(devices: readonly Device[], sensors: readonly Sensor[]) {
  return {
    getPlant: PLANT,
    listPlants: pageOf([PLANT]),
    listSensors: pageOf([...sensors]),
    listDevices: pageOf([...devices]),
    listVendors: pageOf([SIMULATOR]),
    listPlantVendors: pageOf([]),
    testSensorConnection: () => ({
      ok: true,
      message: 'Simulated sensor',
      address: null,
      testedAt: '2026-06-21T10:00:00Z',
    }),
  };
}
