import type { PlantSensorStatuses, SensorStatus } from '../../../api/schemas/fleet.ts';
import type { Sensor } from '../../../api/schemas/relationships.ts';
import { commissionedRoof, PLANT_UUID, sensor } from '../commissioning/fixtures.ts';

/**
 * A roof at noon in Turin (2026-06-21T10:00:00Z) with PV, a house consumption meter and a grid
 * meter, and `sensor-statuses?recent=true` answers built from one power per sensor and minute.
 */

export const NOW = Date.parse('2026-06-21T10:00:00Z');

export function liveRoof() {
  const roof = commissionedRoof();
  const house = sensor('House', 'CONSUMPTION', { address: 'sim://roof/consumption' });
  const sensors: Sensor[] = [...roof.sensors, house].map((entry) => ({
    ...entry,
    signInverted: false,
  }));
  return { ...roof, house: sensors[2]!, pv: sensors[0]!, grid: sensors[1]!, sensors };
}

/** Each minute's value of a sensor; `at` counts back from `endMs`, the last 20 s before it. */
export type Profile = (minutesAgo: number) => number;

export function statusWithRecent(
  entry: Sensor,
  profile: Profile,
  endMs: number,
  minutes = 15,
): SensorStatus {
  const recent = Array.from({ length: minutes }, (_, index) => {
    const minutesAgo = minutes - 1 - index;
    return {
      at: new Date(endMs - 20_000 - minutesAgo * 60_000).toISOString(),
      value: profile(minutesAgo),
    };
  });
  const last = recent[recent.length - 1]!;
  return {
    sensorUuid: entry.sensorUuid,
    name: entry.name,
    deviceUuid: entry.deviceUuid,
    flow: entry.flow,
    dataType: 'POWER',
    unit: 'W',
    expectedIntervalSeconds: 60,
    state: 'REPORTING',
    lastReadingAt: last.at,
    lastValue: last.value,
    lastChangedAt: last.at,
    valueAtRest: false,
    coverage24h: 1,
    recent,
  };
}

export function statusesAnswer(statuses: SensorStatus[], endMs: number): PlantSensorStatuses {
  return {
    plantUuid: PLANT_UUID,
    timezone: 'Europe/Rome',
    evaluatedAt: new Date(endMs).toISOString(),
    sensors: statuses,
  };
}

/** Noon: the PV makes 3 kW, the house uses 600 W, so 2.4 kW go out to the grid. */
export const PV_W = 3000;
export const HOUSE_W = 600;
export const EXPORT_W = PV_W - HOUSE_W;

/** The extension's answer for liveRoof() at noon, each sensor with its last 15 minutes. */
export const noonAnswer = (roof: ReturnType<typeof liveRoof>, endMs = Date.now()) =>
  statusesAnswer(
    [
      statusWithRecent(roof.pv, () => PV_W, endMs),
      statusWithRecent(roof.grid, () => -EXPORT_W, endMs),
      statusWithRecent(roof.house, (minutesAgo) => HOUSE_W + minutesAgo, endMs),
    ],
    endMs,
  );
