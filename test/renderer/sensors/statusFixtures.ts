import type { PlantSensorStatuses, SensorStatus } from '../../../api/schemas/fleet.ts';
import { PLANT } from './fixtures.ts';

/**
 * The `sensor-statuses` extension's answers. `sensorStatus(n)` belongs to the fixtures'
 * `sensor(n)` (same UUID): a power meter reporting 12.3 kW two minutes before
 * 2026-06-21T10:00:00Z, its value changing, 98% of the last 24 hours covered.
 */

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function sensorStatus(n: number, overrides: Partial<SensorStatus> = {}): SensorStatus {
  return {
    sensorUuid: uuid(700 + n),
    name: `Sensor ${n}`,
    deviceUuid: null,
    flow: 'CONSUMPTION',
    dataType: 'POWER',
    unit: 'W',
    expectedIntervalSeconds: 60,
    state: 'REPORTING',
    lastReadingAt: '2026-06-21T09:58:00Z',
    lastValue: 12_300,
    lastChangedAt: '2026-06-21T09:58:00Z',
    valueAtRest: false,
    coverage24h: 0.98,
    ...overrides,
  };
}

export function statusesOf(
  sensors: SensorStatus[],
  plantUuid = PLANT,
  timezone = 'Europe/Rome',
): PlantSensorStatuses {
  return { plantUuid, timezone, evaluatedAt: '2026-06-21T10:00:00Z', sensors };
}
