import type { PlantDataHealth, SensorDataHealth } from '../../api/schemas/dataHealth.ts';

/**
 * Crafted data-health answers: three local days around the spring DST change in Madrid
 * (24, 23 and 24 hours; the last one half elapsed), evaluated at 2026-03-30 12:00 local.
 */

export const HEALTH_PLANT_UUID = '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a';

/** A consumption meter missing two hours of the 23-hour day. */
export function sensorHealth(overrides: Partial<SensorDataHealth> = {}): SensorDataHealth {
  return {
    sensorUuid: '00000000-0000-4000-8000-000000000001',
    name: 'House consumption',
    deviceUuid: null,
    flow: 'CONSUMPTION',
    dataType: 'POWER',
    samplingIntervalSeconds: 60,
    coverage: [1, 21 / 23, 0.4],
    coverageTotal: 0.93,
    gapCount: 1,
    gaps: [
      {
        start: '2026-03-29T03:59:00+02:00',
        end: '2026-03-29T06:00:00+02:00',
        durationSeconds: 7260,
      },
    ],
    counterIssueCount: 0,
    counterIssues: [],
    frozenCount: 0,
    frozen: [],
    suspicions: [],
    ...overrides,
  };
}

export function plantHealth(sensors: SensorDataHealth[]): PlantDataHealth {
  return {
    plantUuid: HEALTH_PLANT_UUID,
    timezone: 'Europe/Madrid',
    evaluatedAt: '2026-03-30T10:00:00.000Z',
    from: '2026-03-28T00:00:00+01:00',
    to: '2026-03-31T00:00:00+02:00',
    days: [
      { date: '2026-03-28', hours: 24, elapsedHours: 24 },
      { date: '2026-03-29', hours: 23, elapsedHours: 23 },
      { date: '2026-03-30', hours: 24, elapsedHours: 12 },
    ],
    sensors,
  };
}
