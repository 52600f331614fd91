import type { PvFault, SensorFault } from '../../../server/simulator/faults.ts';
import { createPlantSimulation } from '../../../server/simulator/plantSimulation.ts';
import {
  sensorReadings,
  type SimulatedSensorSpec,
} from '../../../server/simulator/sensorReadings.ts';
import type { Channel } from '../../../server/simulator/channels.ts';
import type {
  Reading,
  WiringDevice,
  WiringInput,
  WiringSensor,
} from '../../../server/domain/wiring/index.ts';
import { bolzanoHome } from '../simulator/simulatorFixture.ts';

/**
 * The simulator's demo home near Bolzano (8.4 kWp, battery, heat pump, wallbox) as the wiring
 * checks see it at one instant: its sensors' readings of the 15 minutes before, made by the
 * simulator's own functions (createPlantSimulation, sensorReadings, applySensorFault), with the
 * simulator's faults injected as its metadata would inject them.
 */

export const INVERTER = 'dddddddd-0000-4000-8000-000000000001';
export const BATTERY = 'dddddddd-0000-4000-8000-000000000002';
export const HEAT_PUMP = 'dddddddd-0000-4000-8000-000000000003';
export const WALLBOX = 'dddddddd-0000-4000-8000-000000000004';

export const SENSOR = {
  pv: 'aaaaaaaa-0000-4000-8000-000000000001',
  grid: 'aaaaaaaa-0000-4000-8000-000000000002',
  consumption: 'aaaaaaaa-0000-4000-8000-000000000003',
  battery: 'aaaaaaaa-0000-4000-8000-000000000004',
  soc: 'aaaaaaaa-0000-4000-8000-000000000005',
  heatPump: 'aaaaaaaa-0000-4000-8000-000000000006',
} as const;
export type SimulatedSensorKey = keyof typeof SENSOR;

const DEVICES: WiringDevice[] = [
  { deviceUuid: INVERTER, name: 'Inverter', category: 'PRODUCER', ratedPowerW: 8000 },
  { deviceUuid: BATTERY, name: 'Battery', category: 'STORAGE', ratedPowerW: 5000 },
  { deviceUuid: HEAT_PUMP, name: 'Heat pump', category: 'CONSUMER', ratedPowerW: 3200 },
  { deviceUuid: WALLBOX, name: 'Wallbox', category: 'CONSUMER', ratedPowerW: 11_000 },
];

interface SensorPlan {
  sensor: Omit<WiringSensor, 'readings' | 'sensorUuid'>;
  channel: Channel;
}

const PLANS: Record<SimulatedSensorKey, SensorPlan> = {
  pv: {
    sensor: {
      name: 'PV meter',
      deviceUuid: INVERTER,
      flow: 'PRODUCTION',
      dataType: 'POWER',
      unit: 'W',
    },
    channel: { source: 'pv' },
  },
  grid: {
    sensor: { name: 'Grid meter', deviceUuid: null, flow: 'GRID', dataType: 'POWER', unit: 'W' },
    channel: { source: 'grid' },
  },
  consumption: {
    sensor: {
      name: 'House meter',
      deviceUuid: null,
      flow: 'CONSUMPTION',
      dataType: 'POWER',
      unit: 'W',
    },
    channel: { source: 'consumption' },
  },
  battery: {
    sensor: {
      name: 'Battery power',
      deviceUuid: BATTERY,
      flow: 'STORAGE',
      dataType: 'POWER',
      unit: 'W',
    },
    channel: { source: 'battery' },
  },
  soc: {
    sensor: {
      name: 'Battery charge',
      deviceUuid: BATTERY,
      flow: 'STORAGE',
      dataType: 'STATE_OF_CHARGE',
      unit: '%',
    },
    channel: { source: 'soc' },
  },
  heatPump: {
    sensor: {
      name: 'Heat pump meter',
      deviceUuid: HEAT_PUMP,
      flow: 'CONSUMPTION',
      dataType: 'POWER',
      unit: 'W',
    },
    channel: { source: 'load', loadKey: 'heat-pump' },
  },
};

export interface SimulatedFaults {
  pvFaults?: PvFault[];
  sensorFaults?: Partial<Record<SimulatedSensorKey, SensorFault>>;
}

/** The plant's wiring input at `now` (epoch ms), sensors sampled every 60 s. */
export function simulatedWiringInput(now: number, faults: SimulatedFaults = {}): WiringInput {
  const config = bolzanoHome({ pvFaults: faults.pvFaults ?? [] });
  const simulation = createPlantSimulation(config);
  const sensors = (Object.keys(PLANS) as SimulatedSensorKey[]).map((key): WiringSensor => {
    const spec: SimulatedSensorSpec = {
      channel: PLANS[key].channel,
      kind: key === 'soc' ? 'level' : 'power',
      samplingIntervalSeconds: 60,
      fault: faults.sensorFaults?.[key] ?? null,
    };
    const { takenAt, values } = sensorReadings(simulation, spec, now - 15 * 60_000, now);
    const readings = takenAt.map((atMs, index): Reading => [atMs, values[index]!]);
    return { ...PLANS[key].sensor, sensorUuid: SENSOR[key], readings };
  });
  return {
    plant: {
      location: {
        latitude: config.site.latitudeDeg,
        longitude: config.site.longitudeDeg,
        altitudeM: config.site.altitudeM,
        timezone: config.timezone,
      },
      pv: { peakPowerKw: 8.4, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
    },
    devices: DEVICES,
    sensors,
    now,
  };
}
