import type { PlantCreateDto } from '../../api/index.ts';
import type { PlantFaultKind, SensorFaultKind } from '../simulator/faults.ts';
import { DEMO_DEVICES, DEMO_SENSORS, type DemoDevice, type DemoSensor } from './demoPlant.ts';

/**
 * The demo fleet: simulated plants of Demo Energy besides Demo Home, across zones, sizes and
 * equipment, some carrying one injected fault each (server/simulator/faults.ts) so that every
 * alert of the fleet monitoring has something to find. `--demo-fleet N` takes the first N of the
 * templates below, cycling through them again (numbered) past the twelfth.
 */

export const DEFAULT_DEMO_FLEET_SIZE = 12;

type Equipment = 'battery' | 'heatPump' | 'evCharger';

/** A fault set when the fleet is seeded; `minutesAgo` places its start before that moment. */
type SeededFault =
  | { on: 'plant'; kind: PlantFaultKind; minutesAgo?: number }
  | {
      on: 'sensor';
      sensor: DemoSensor['key'];
      kind: SensorFaultKind;
      minutesAgo?: number;
    };

interface FleetTemplate {
  name: string;
  slug: string;
  latitude: number;
  longitude: number;
  timezone: string;
  peakPowerKw: number;
  azimuthDeg: number;
  equipment: readonly Equipment[];
  fault?: SeededFault;
}

const TEMPLATES: readonly FleetTemplate[] = [
  {
    name: 'Roma Uffici',
    slug: 'roma',
    latitude: 41.9,
    longitude: 12.5,
    timezone: 'Europe/Rome',
    peakPowerKw: 12,
    azimuthDeg: 180,
    equipment: ['battery'],
  },
  {
    name: 'Berlin Dachhaus',
    slug: 'berlin',
    latitude: 52.52,
    longitude: 13.4,
    timezone: 'Europe/Berlin',
    peakPowerKw: 9.6,
    azimuthDeg: 170,
    equipment: ['heatPump'],
    fault: { on: 'plant', kind: 'INVERTER_TRIP', minutesAgo: 90 },
  },
  {
    name: 'Madrid Casa Solar',
    slug: 'madrid',
    latitude: 40.42,
    longitude: -3.7,
    timezone: 'Europe/Madrid',
    peakPowerKw: 6.5,
    azimuthDeg: 190,
    equipment: ['battery', 'evCharger'],
    fault: { on: 'plant', kind: 'SOILING' },
  },
  {
    name: 'London Terrace',
    slug: 'london',
    latitude: 51.5,
    longitude: -0.12,
    timezone: 'Europe/London',
    peakPowerKw: 4,
    azimuthDeg: 200,
    equipment: ['heatPump'],
    fault: { on: 'sensor', sensor: 'grid', kind: 'REVERSED_CT' },
  },
  {
    name: 'Kathmandu Guesthouse',
    slug: 'kathmandu',
    latitude: 27.7,
    longitude: 85.32,
    timezone: 'Asia/Kathmandu',
    peakPowerKw: 5,
    azimuthDeg: 180,
    equipment: ['battery'],
    fault: { on: 'sensor', sensor: 'consumption', kind: 'KW_INSTEAD_OF_W' },
  },
  {
    name: 'Milano Capannone',
    slug: 'milano',
    latitude: 45.46,
    longitude: 9.19,
    timezone: 'Europe/Rome',
    peakPowerKw: 30,
    azimuthDeg: 180,
    equipment: [],
    fault: { on: 'sensor', sensor: 'pv', kind: 'STOPS_REPORTING', minutesAgo: 60 },
  },
  {
    name: 'München Bauernhof',
    slug: 'muenchen',
    latitude: 48.14,
    longitude: 11.58,
    timezone: 'Europe/Berlin',
    peakPowerKw: 15,
    azimuthDeg: 160,
    equipment: ['battery', 'evCharger'],
    fault: { on: 'sensor', sensor: 'batterySoc', kind: 'FROZEN_VALUE', minutesAgo: 26 * 60 },
  },
  {
    name: 'Sevilla Finca',
    slug: 'sevilla',
    latitude: 37.39,
    longitude: -5.98,
    timezone: 'Europe/Madrid',
    peakPowerKw: 10,
    azimuthDeg: 180,
    equipment: ['battery'],
  },
  {
    name: 'Edinburgh Cottage',
    slug: 'edinburgh',
    latitude: 55.95,
    longitude: -3.19,
    timezone: 'Europe/London',
    peakPowerKw: 3.2,
    azimuthDeg: 190,
    equipment: ['heatPump'],
  },
  {
    name: 'Napoli Villetta',
    slug: 'napoli',
    latitude: 40.85,
    longitude: 14.27,
    timezone: 'Europe/Rome',
    peakPowerKw: 7,
    azimuthDeg: 200,
    equipment: ['evCharger'],
  },
  {
    name: 'Hamburg Lager',
    slug: 'hamburg',
    latitude: 53.55,
    longitude: 9.99,
    timezone: 'Europe/Berlin',
    peakPowerKw: 20,
    azimuthDeg: 180,
    equipment: [],
  },
  {
    name: 'Valencia Apartamentos',
    slug: 'valencia',
    latitude: 39.47,
    longitude: -0.38,
    timezone: 'Europe/Madrid',
    peakPowerKw: 8,
    azimuthDeg: 170,
    equipment: ['battery', 'heatPump'],
    fault: { on: 'plant', kind: 'PEAK_POWER_UNDERSTATED' },
  },
];

export interface FleetPlant {
  plant: PlantCreateDto;
  devices: readonly DemoDevice[];
  sensors: readonly (DemoSensor & { metadata: Record<string, unknown> })[];
}

/** Which devices (and with them sensors) each piece of equipment brings. */
const EQUIPMENT_DEVICES: Record<Equipment, DemoDevice['key']> = {
  battery: 'battery',
  heatPump: 'heatPump',
  evCharger: 'evCharger',
};
const ALWAYS: readonly DemoDevice['key'][] = ['inverter', 'gridMeter'];
/** The sensors a fleet plant has; ambient sensors stay Demo Home's. */
const FLEET_SENSOR_KEYS = new Set([
  'pv',
  'batteryPower',
  'batterySoc',
  'heatPump',
  'evCharger',
  'grid',
  'consumption',
]);

function faultSetting(fault: SeededFault, seededAtMs: number) {
  return {
    kind: fault.kind,
    ...(fault.minutesAgo !== undefined && {
      from: new Date(seededAtMs - fault.minutesAgo * 60_000).toISOString(),
    }),
  };
}

/** The first `count` fleet plants, faults placed relative to `seededAtMs`. */
export function demoFleet(count: number, seededAtMs: number): FleetPlant[] {
  return Array.from({ length: count }, (_, index) => {
    const template = TEMPLATES[index % TEMPLATES.length]!;
    const round = Math.floor(index / TEMPLATES.length);
    // Past the first round: numbered copies nearby, without faults.
    const fault = round === 0 ? template.fault : undefined;
    const name = round === 0 ? template.name : `${template.name} ${round + 1}`;
    const slug = round === 0 ? template.slug : `${template.slug}-${round + 1}`;
    const devices = DEMO_DEVICES.filter(
      (device) =>
        ALWAYS.includes(device.key) ||
        template.equipment.some((item) => EQUIPMENT_DEVICES[item] === device.key),
    ).map((device) => ({
      ...device,
      serialNumber: `${device.serialNumber}-${slug.toUpperCase()}`,
      ratedPowerW:
        device.key === 'inverter' ? Math.round(template.peakPowerKw * 950) : device.ratedPowerW,
    }));
    const deviceKeys = new Set(devices.map((device) => device.key));
    const sensors = DEMO_SENSORS.filter(
      (sensor) =>
        FLEET_SENSOR_KEYS.has(sensor.key) &&
        (sensor.deviceKey === null || deviceKeys.has(sensor.deviceKey)),
    ).map((sensor) => ({
      ...sensor,
      address: sensor.address.replace('sim://demo-home/', `sim://${slug}/`),
      metadata:
        fault?.on === 'sensor' && fault.sensor === sensor.key
          ? { simulated: true, simulation: { fault: faultSetting(fault, seededAtMs) } }
          : { simulated: true },
    }));
    const offset = round * 0.05;
    return {
      plant: {
        name,
        externalIds: [`FLEET-${slug.toUpperCase()}`],
        location: {
          latitude: template.latitude + offset,
          longitude: template.longitude + offset,
          timezone: template.timezone,
        },
        pv: {
          peakPowerKw: template.peakPowerKw,
          tiltDeg: 30,
          azimuthDeg: template.azimuthDeg,
          lossesPercent: 14,
        },
        metadata: {
          demoFleet: true,
          simulation: {
            // Its first week before the server listens, the rest of its history after.
            backgroundHistory: true,
            ...(fault?.on === 'plant' && { faults: [faultSetting(fault, seededAtMs)] }),
          },
        },
      },
      devices,
      sensors,
    };
  });
}
