import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type {
  Reading,
  WiringDevice,
  WiringDeviceCategory,
  WiringInput,
  WiringSensor,
} from '../../../server/domain/wiring/index.ts';
import { primaryDataType, type LivePoint, type LiveReadings } from './liveReadings.ts';

/**
 * The wiring checks' input from what the wizard has: the plant, its devices and sensors (read
 * with relationships) and the live readings. With the `recent` extension each sensor carries its
 * own readings; through the specification's routes only the plant's production and consumption
 * are known, given as `flows` so the checks use them for the sensors that make those flows.
 */

const CATEGORIES: readonly string[] = ['PRODUCER', 'CONSUMER', 'STORAGE', 'GRID'];

const toReadings = (points: readonly LivePoint[]): Reading[] =>
  points.map((point): Reading => [point.at, point.value]);

export function wiringDevice(device: Device): WiringDevice {
  const category = device.relationships?.deviceType.category ?? null;
  return {
    deviceUuid: device.deviceUuid,
    name: device.name,
    category:
      category !== null && CATEGORIES.includes(category)
        ? (category as WiringDeviceCategory)
        : null,
    ratedPowerW: device.ratedPowerW,
  };
}

export function wiringSensor(sensor: Sensor, live: LiveReadings | null): WiringSensor {
  const primary = primaryDataType(sensor);
  const own =
    live?.mode === 'extension'
      ? live.sensors.find((entry) => entry.sensorUuid === sensor.sensorUuid)
      : undefined;
  return {
    sensorUuid: sensor.sensorUuid,
    name: sensor.name,
    deviceUuid: sensor.deviceUuid,
    flow: sensor.flow,
    dataType: primary?.code ?? '',
    unit: primary?.unit ?? null,
    signInverted: sensor.signInverted ?? false,
    readings: own?.recent ? toReadings(own.recent) : null,
  };
}

export function buildWiringInput(
  plant: Pick<Plant, 'location' | 'pv'>,
  devices: readonly Device[],
  sensors: readonly Sensor[],
  live: LiveReadings | null,
  nowMs: number,
): WiringInput {
  const flows = live?.mode === 'specification' ? live.flows : {};
  return {
    plant: { location: plant.location, pv: plant.pv },
    devices: devices.map(wiringDevice),
    sensors: sensors.map((sensor) => wiringSensor(sensor, live)),
    flows: {
      ...(flows.production ? { production: toReadings(flows.production) } : {}),
      ...(flows.consumption ? { consumption: toReadings(flows.consumption) } : {}),
    },
    now: nowMs,
  };
}
