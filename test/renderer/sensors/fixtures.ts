import type { DataTypesCollect, DeviceType, SensorType } from '../../../api/schemas/catalogs.ts';
import type { Device, LoadSignature, Sensor } from '../../../api/schemas/relationships.ts';
import type { Vendor } from '../../../api/schemas/vendors.ts';

/** Catalogs, devices and sensors as the API answers them, for the device and sensor screens. */

const AT = '2026-03-01T10:00:00.000Z';
export const PLANT = '11111111-1111-4111-8111-111111111111';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const POWER: DataTypesCollect = {
  dataTypesCollectUuid: uuid(101),
  code: 'POWER',
  name: 'Power',
  unit: 'W',
};
export const ENERGY: DataTypesCollect = {
  dataTypesCollectUuid: uuid(102),
  code: 'ENERGY',
  name: 'Energy',
  unit: 'kWh',
};
export const TEMPERATURE: DataTypesCollect = {
  dataTypesCollectUuid: uuid(103),
  code: 'TEMPERATURE',
  name: 'Temperature',
  unit: '°C',
};
export const IRRADIANCE: DataTypesCollect = {
  dataTypesCollectUuid: uuid(104),
  code: 'IRRADIANCE',
  name: 'Irradiance',
  unit: 'W/m²',
};
export const DATA_TYPES = [ENERGY, IRRADIANCE, POWER, TEMPERATURE];

export const POWER_METER: SensorType = {
  sensorTypeUuid: uuid(201),
  code: 'POWER_METER',
  name: 'Power meter',
  description: 'Measures active power and counts energy',
  dataTypesCollectUuids: [POWER.dataTypesCollectUuid, ENERGY.dataTypesCollectUuid],
  createdAt: AT,
  updatedAt: AT,
};
export const THERMOMETER: SensorType = {
  sensorTypeUuid: uuid(202),
  code: 'TEMPERATURE_SENSOR',
  name: 'Temperature sensor',
  description: null,
  dataTypesCollectUuids: [TEMPERATURE.dataTypesCollectUuid],
  createdAt: AT,
  updatedAt: AT,
};
export const SENSOR_TYPES = [POWER_METER, THERMOMETER];

export const SIMULATOR: Vendor = {
  vendorUuid: uuid(301),
  code: 'SIMULATOR',
  name: 'PlantDesk simulator',
  kind: 'SIMULATOR',
  configSchema: { fields: [] },
};
export const SMA: Vendor = {
  vendorUuid: uuid(302),
  code: 'SMA',
  name: 'SMA Modbus',
  kind: 'DEVICE_BRAND',
  configSchema: { fields: [] },
};
export const VENDORS = [SIMULATOR, SMA];

export const INVERTER_TYPE: DeviceType = {
  deviceTypeUuid: uuid(401),
  code: 'INVERTER',
  name: 'PV inverter',
  category: 'PRODUCER',
  description: 'Converts PV power to AC',
  createdAt: AT,
  updatedAt: AT,
};
export const HEAT_PUMP_TYPE: DeviceType = {
  deviceTypeUuid: uuid(402),
  code: 'HEAT_PUMP',
  name: 'Heat pump',
  category: 'CONSUMER',
  description: null,
  createdAt: AT,
  updatedAt: AT,
};
export const DEVICE_TYPES = [HEAT_PUMP_TYPE, INVERTER_TYPE];

export const HEAT_PUMP_WINTER: LoadSignature = {
  loadSignatureUuid: uuid(501),
  code: 'HEAT_PUMP_WINTER',
  name: 'Heat pump, winter day',
  description: null,
  deviceTypeUuid: HEAT_PUMP_TYPE.deviceTypeUuid,
  hourlyProfile: Array.from({ length: 24 }, () => 1 / 24),
  typicalDailyKwh: 14,
  createdAt: AT,
  updatedAt: AT,
};

export function device(n: number, overrides: Partial<Device> = {}): Device {
  return {
    deviceUuid: uuid(600 + n),
    plantUuid: PLANT,
    name: `Device ${n}`,
    deviceTypeUuid: INVERTER_TYPE.deviceTypeUuid,
    vendorUuid: null,
    model: null,
    serialNumber: null,
    ratedPowerW: null,
    loadSignatureUuid: null,
    metadata: {},
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

export function sensor(n: number, overrides: Partial<Sensor> = {}): Sensor {
  return {
    sensorUuid: uuid(700 + n),
    plantUuid: PLANT,
    deviceUuid: null,
    name: `Sensor ${n}`,
    sensorTypeUuid: POWER_METER.sensorTypeUuid,
    dataTypesCollectUuids: [POWER.dataTypesCollectUuid],
    flow: 'CONSUMPTION',
    samplingIntervalSeconds: 60,
    connection: null,
    metadata: {},
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** A list route's answer with every entry on one page. */
export function pageOf<Row>(content: Row[]) {
  return {
    content,
    page: { number: 0, size: 200, totalElements: content.length, totalPages: 1 },
  };
}

/** The catalog routes the forms read, answered with the fixtures above. */
export const CATALOG_ROUTES = {
  listSensorTypes: pageOf(SENSOR_TYPES),
  listDataTypesCollects: pageOf(DATA_TYPES),
  listVendors: pageOf(VENDORS),
  listDeviceTypes: pageOf(DEVICE_TYPES),
  listLoadSignatures: pageOf([HEAT_PUMP_WINTER]),
};
