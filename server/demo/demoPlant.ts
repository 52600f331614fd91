import type { PlantCreateDto, SensorFlow } from '../../api/index.ts';

/**
 * "Demo Home": a family house near Bolzano with rooftop PV, a battery, a heat pump, an EV
 * charger, a grid meter and a consumption meter, every sensor fed by the simulator.
 */
export const DEMO_PLANT: PlantCreateDto = {
  name: 'Demo Home',
  externalIds: ['DEMO-HOME-001'],
  location: { latitude: 46.4983, longitude: 11.3548, timezone: 'Europe/Rome', altitudeM: 262 },
  pv: { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
  metadata: {
    address: 'Via dei Campi 12, Bolzano',
    householdSize: 4,
    commissionedBy: 'PlantDesk demo',
  },
};

export interface DemoDevice {
  key: string;
  name: string;
  deviceTypeCode: string;
  model: string;
  serialNumber: string;
  ratedPowerW: number;
  loadSignatureCode: string | null;
}

export const DEMO_DEVICES: readonly DemoDevice[] = [
  {
    key: 'inverter',
    name: 'Rooftop inverter',
    deviceTypeCode: 'INVERTER',
    model: 'Symo GEN24 8.0 Plus',
    serialNumber: 'INV-24-000815',
    ratedPowerW: 8000,
    loadSignatureCode: null,
  },
  {
    key: 'battery',
    name: 'Home battery',
    deviceTypeCode: 'BATTERY',
    model: 'BYD HVS 10.2',
    serialNumber: 'BAT-10-004711',
    ratedPowerW: 5000,
    loadSignatureCode: null,
  },
  {
    key: 'heatPump',
    name: 'Heat pump',
    deviceTypeCode: 'HEAT_PUMP',
    model: 'Vitocal 250-A 8 kW',
    serialNumber: 'HP-250-031415',
    ratedPowerW: 3200,
    loadSignatureCode: 'HEAT_PUMP_WINTER',
  },
  {
    key: 'evCharger',
    name: 'Garage wallbox',
    deviceTypeCode: 'EV_CHARGER',
    model: 'Wattpilot Home 11 J',
    serialNumber: 'EV-11-271828',
    ratedPowerW: 11000,
    loadSignatureCode: 'EV_EVENING_CHARGING',
  },
  {
    key: 'gridMeter',
    name: 'Grid meter',
    deviceTypeCode: 'METER',
    model: 'Smart Meter TS 65A-3',
    serialNumber: 'MTR-65-161803',
    ratedPowerW: 17000,
    loadSignatureCode: null,
  },
];

export interface DemoSensor {
  key: string;
  name: string;
  sensorTypeCode: string;
  dataTypes: readonly string[];
  flow: SensorFlow;
  deviceKey: string | null;
  address: string;
}

export const DEMO_SENSORS: readonly DemoSensor[] = [
  {
    key: 'pv',
    name: 'PV production',
    sensorTypeCode: 'POWER_METER',
    dataTypes: ['POWER', 'ENERGY'],
    flow: 'PRODUCTION',
    deviceKey: 'inverter',
    address: 'sim://demo-home/pv',
  },
  {
    key: 'batteryPower',
    name: 'Battery power',
    sensorTypeCode: 'BATTERY_MONITOR',
    dataTypes: ['POWER'],
    flow: 'STORAGE',
    deviceKey: 'battery',
    address: 'sim://demo-home/battery/power',
  },
  {
    key: 'batterySoc',
    name: 'Battery state of charge',
    sensorTypeCode: 'BATTERY_MONITOR',
    dataTypes: ['STATE_OF_CHARGE'],
    flow: 'STORAGE',
    deviceKey: 'battery',
    address: 'sim://demo-home/battery/soc',
  },
  {
    key: 'heatPump',
    name: 'Heat pump power',
    sensorTypeCode: 'POWER_METER',
    dataTypes: ['POWER'],
    flow: 'CONSUMPTION',
    deviceKey: 'heatPump',
    address: 'sim://demo-home/heat-pump',
  },
  {
    key: 'evCharger',
    name: 'Wallbox power',
    sensorTypeCode: 'POWER_METER',
    dataTypes: ['POWER'],
    flow: 'CONSUMPTION',
    deviceKey: 'evCharger',
    address: 'sim://demo-home/ev-charger',
  },
  {
    key: 'grid',
    name: 'Grid exchange',
    sensorTypeCode: 'POWER_METER',
    dataTypes: ['POWER', 'ENERGY'],
    flow: 'GRID',
    deviceKey: 'gridMeter',
    address: 'sim://demo-home/grid',
  },
  {
    key: 'consumption',
    name: 'House consumption',
    sensorTypeCode: 'POWER_METER',
    dataTypes: ['POWER', 'ENERGY'],
    flow: 'CONSUMPTION',
    deviceKey: null,
    address: 'sim://demo-home/consumption',
  },
  {
    key: 'outdoorTemperature',
    name: 'Outdoor temperature',
    sensorTypeCode: 'TEMPERATURE_SENSOR',
    dataTypes: ['TEMPERATURE'],
    flow: 'AMBIENT',
    deviceKey: null,
    address: 'sim://demo-home/outdoor-temperature',
  },
  {
    key: 'irradiance',
    name: 'Plane-of-array irradiance',
    sensorTypeCode: 'PYRANOMETER',
    dataTypes: ['IRRADIANCE'],
    flow: 'AMBIENT',
    deviceKey: null,
    address: 'sim://demo-home/irradiance',
  },
];
