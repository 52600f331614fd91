import type { DataTypeCode, DeviceCategory, VendorConfigField } from '../../api/index.ts';

/** The reference catalogs every PlantDesk server starts with. */

export const DATA_TYPES: readonly { code: DataTypeCode; name: string; unit: string }[] = [
  { code: 'POWER', name: 'Power', unit: 'W' },
  { code: 'ENERGY', name: 'Energy', unit: 'kWh' },
  { code: 'TEMPERATURE', name: 'Temperature', unit: '°C' },
  { code: 'STATE_OF_CHARGE', name: 'State of charge', unit: '%' },
  { code: 'IRRADIANCE', name: 'Irradiance', unit: 'W/m²' },
  { code: 'VOLTAGE', name: 'Voltage', unit: 'V' },
  { code: 'CURRENT', name: 'Current', unit: 'A' },
];

export const SENSOR_TYPES: readonly {
  code: string;
  name: string;
  description: string;
  dataTypes: readonly DataTypeCode[];
}[] = [
  {
    code: 'POWER_METER',
    name: 'Power meter',
    description: 'Measures active power and counts energy',
    dataTypes: ['POWER', 'ENERGY', 'VOLTAGE', 'CURRENT'],
  },
  {
    code: 'ENERGY_METER',
    name: 'Energy meter',
    description: 'Cumulative energy counter',
    dataTypes: ['ENERGY', 'POWER'],
  },
  {
    code: 'BATTERY_MONITOR',
    name: 'Battery monitor',
    description: 'Battery power and state of charge',
    dataTypes: ['POWER', 'ENERGY', 'STATE_OF_CHARGE', 'VOLTAGE', 'CURRENT'],
  },
  {
    code: 'TEMPERATURE_SENSOR',
    name: 'Temperature sensor',
    description: 'Air or water temperature',
    dataTypes: ['TEMPERATURE'],
  },
  {
    code: 'PYRANOMETER',
    name: 'Pyranometer',
    description: 'Irradiance in the plane of the array',
    dataTypes: ['IRRADIANCE', 'TEMPERATURE'],
  },
];

export const DEVICE_TYPES: readonly {
  code: string;
  name: string;
  category: DeviceCategory;
  description: string;
}[] = [
  {
    code: 'INVERTER',
    name: 'PV inverter',
    category: 'PRODUCER',
    description: 'Converts PV power to AC',
  },
  {
    code: 'BATTERY',
    name: 'Battery storage',
    category: 'STORAGE',
    description: 'Stationary battery',
  },
  {
    code: 'HEAT_PUMP',
    name: 'Heat pump',
    category: 'CONSUMER',
    description: 'Space heating and hot water',
  },
  {
    code: 'EV_CHARGER',
    name: 'EV charger',
    category: 'CONSUMER',
    description: 'Wallbox for electric vehicles',
  },
  {
    code: 'WATER_HEATER',
    name: 'Water heater',
    category: 'CONSUMER',
    description: 'Electric hot-water boiler',
  },
  {
    code: 'METER',
    name: 'Grid meter',
    category: 'GRID',
    description: 'Meter at the grid connection point',
  },
];

/** Hour-by-hour weights; normalised to shares summing to 1 when seeded. */
export const LOAD_SIGNATURES: readonly {
  code: string;
  name: string;
  description: string;
  deviceTypeCode: string | null;
  weights: readonly number[];
  typicalDailyKwh: number;
}[] = [
  {
    code: 'HOUSEHOLD_BASE',
    name: 'Household base load',
    description: 'Lighting, cooking and appliances of a four-person home',
    deviceTypeCode: null,
    weights: [
      3, 2.5, 2.2, 2.1, 2.1, 2.4, 3.5, 5, 4.8, 4, 3.8, 4.2, 5, 4.5, 3.9, 3.8, 4.2, 5.2, 6.8, 7.2,
      6.5, 5.5, 4.5, 3.6,
    ],
    typicalDailyKwh: 8.5,
  },
  {
    code: 'HEAT_PUMP_WINTER',
    name: 'Heat pump, winter day',
    description: 'Air-to-water heat pump heating a well-insulated house',
    deviceTypeCode: 'HEAT_PUMP',
    weights: [
      5, 5, 5.2, 5.4, 5.6, 6, 6.2, 5.8, 4.6, 3.8, 3.2, 2.8, 2.6, 2.6, 2.8, 3.2, 3.8, 4.4, 4.8, 4.8,
      4.6, 4.4, 4.6, 4.8,
    ],
    typicalDailyKwh: 14,
  },
  {
    code: 'EV_EVENING_CHARGING',
    name: 'EV charging after work',
    description: 'One car charged at 11 kW on arrival home',
    deviceTypeCode: 'EV_CHARGER',
    weights: [2, 1, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 9, 7, 5, 3, 2.5],
    typicalDailyKwh: 9,
  },
  {
    code: 'WATER_HEATER_MORNING',
    name: 'Water heater, morning and evening',
    description: 'Electric boiler reheating after showers',
    deviceTypeCode: 'WATER_HEATER',
    weights: [0, 0, 0, 0, 0, 0, 6, 9, 5, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 4, 5, 3, 0, 0],
    typicalDailyKwh: 4,
  },
];

export const VENDORS: readonly {
  code: string;
  name: string;
  kind: 'DEVICE_BRAND' | 'PLATFORM' | 'SIMULATOR';
  fields: readonly VendorConfigField[];
}[] = [
  { code: 'SIMULATOR', name: 'PlantDesk simulator', kind: 'SIMULATOR', fields: [] },
  {
    code: 'FRONIUS',
    name: 'Fronius Solar API',
    kind: 'DEVICE_BRAND',
    fields: [{ name: 'deviceId', label: 'Device ID', type: 'number', required: false }],
  },
  {
    code: 'SMA',
    name: 'SMA Modbus',
    kind: 'DEVICE_BRAND',
    fields: [
      { name: 'unitId', label: 'Modbus unit ID', type: 'number', required: true },
      { name: 'installerPassword', label: 'Installer password', type: 'secret', required: false },
    ],
  },
  {
    code: 'SHELLY',
    name: 'Shelly',
    kind: 'DEVICE_BRAND',
    fields: [
      { name: 'authEnabled', label: 'Authentication enabled', type: 'boolean', required: false },
      { name: 'password', label: 'Device password', type: 'secret', required: false },
    ],
  },
  {
    code: 'SOLAREDGE',
    name: 'SolarEdge monitoring',
    kind: 'PLATFORM',
    fields: [
      { name: 'siteId', label: 'Site ID', type: 'string', required: true },
      { name: 'apiKey', label: 'API key', type: 'secret', required: true },
    ],
  },
  {
    code: 'TESLA_ENERGY',
    name: 'Tesla Energy',
    kind: 'PLATFORM',
    fields: [
      { name: 'accountEmail', label: 'Account e-mail', type: 'string', required: true },
      { name: 'refreshToken', label: 'Refresh token', type: 'secret', required: true },
      { name: 'energySiteId', label: 'Energy site ID', type: 'number', required: false },
    ],
  },
];
