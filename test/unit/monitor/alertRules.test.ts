import { describe, expect, test } from 'vitest';
import type { SensorStatus } from '../../../api/schemas/fleet.ts';
import {
  aboveClearSky,
  evaluatePlant,
  gridSign,
  judgeableRules,
  meterUnits,
  noProduction,
  pvHealth,
  sensorSilent,
  socStuck,
  type PlantSnapshot,
} from '../../../electron/services/monitor/alertRules.ts';

/**
 * Each alert rule on crafted sensor states of a plant in Berlin (9.6 kWp facing south): summer
 * noon and night, the spring DST day, and a plant without PV.
 */

const at = (iso: string) => Date.parse(iso);
let sensorCount = 0;

function sensor(overrides: Partial<SensorStatus>): SensorStatus {
  sensorCount += 1;
  return {
    sensorUuid: `00000000-0000-4000-8000-${String(sensorCount).padStart(12, '0')}`,
    name: `Sensor ${sensorCount}`,
    deviceUuid: null,
    flow: 'PRODUCTION',
    dataType: 'POWER',
    unit: 'W',
    expectedIntervalSeconds: 60,
    state: 'REPORTING',
    lastReadingAt: '2026-06-21T10:00:00Z',
    lastValue: 1000,
    lastChangedAt: '2026-06-21T10:00:00Z',
    valueAtRest: false,
    coverage24h: 1,
    ...overrides,
  };
}

function berlin(sensors: SensorStatus[] | null, pv = true): PlantSnapshot {
  return {
    plantUuid: '11111111-1111-4111-8111-111111111111',
    name: 'Berlin Dachhaus',
    timezone: 'Europe/Berlin',
    site: pv
      ? {
          latitudeDeg: 52.52,
          longitudeDeg: 13.4,
          altitudeM: 34,
          pv: { peakPowerKw: 9.6, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
        }
      : null,
    health: null,
    sensors,
  };
}

/** A PV meter at 0 W since `since`, read at `now`. */
const pvAtRest = (since: string, now: string) =>
  sensor({
    name: 'PV inverter',
    lastValue: 0,
    valueAtRest: true,
    lastChangedAt: since,
    lastReadingAt: now,
  });

describe('SENSOR_SILENT', () => {
  test('a silent sensor, with when it last reported in the plant’s zone and its interval', () => {
    const now = at('2026-06-21T10:00:00Z');
    const findings = sensorSilent(
      berlin([
        sensor({ name: 'Grid meter', state: 'SILENT', lastReadingAt: '2026-06-21T08:58:00Z' }),
        sensor({ state: 'REPORTING' }),
        sensor({ state: 'LATE' }),
        sensor({ state: 'NEVER', lastReadingAt: null }),
      ]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'SENSOR_SILENT', severity: 'warning' });
    expect(findings[0]!.message).toBe(
      'Grid meter: no reading since 10:58 (1 h 2 min); it should report every 1 min',
    );
    expect(findings[0]!.link).toEqual({
      view: 'history',
      start: '2026-06-21T10:28',
      end: '2026-06-21T12:15',
      granularity: 'minutes',
    });
  });
});

describe('PV_HEALTH', () => {
  const withHealth = (status: 'HEALTHY' | 'DEGRADED' | 'FAULT' | 'NO_DATA', percent: number) => ({
    ...berlin([]),
    health: { status, performancePercent: percent },
  });

  test('DEGRADED is a warning and FAULT critical, with the performance measured', () => {
    expect(pvHealth(withHealth('DEGRADED', 58.4))).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'PV health over the last 7 days is DEGRADED: 58 % of the expected energy',
      }),
    ]);
    expect(pvHealth(withHealth('FAULT', 3))[0]!.severity).toBe('critical');
  });

  test('HEALTHY, NO_DATA and an unknown health raise nothing', () => {
    expect(pvHealth(withHealth('HEALTHY', 97))).toEqual([]);
    expect(pvHealth(withHealth('NO_DATA', 0))).toEqual([]);
    expect(pvHealth(berlin([]))).toEqual([]);
  });
});

describe('NO_PRODUCTION', () => {
  test('at rest for 90 minutes of a summer late morning: critical, with clear sky’s figure', () => {
    const now = at('2026-06-21T10:00:00Z');
    const findings = noProduction(
      berlin([pvAtRest('2026-06-21T08:30:00Z', '2026-06-21T10:00:00Z')]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBe('critical');
    expect(findings[0]!.message).toMatch(
      /^No production since 10:30: 1 h 30 min of daylight at rest, while clear sky allows [\d.]+ kW now \(\d+ % of 9\.6 kWp\)$/,
    );
  });

  test('45 minutes are not yet an hour', () => {
    const now = at('2026-06-21T10:00:00Z');
    expect(
      noProduction(berlin([pvAtRest('2026-06-21T09:15:00Z', '2026-06-21T10:00:00Z')]), now),
    ).toEqual([]);
  });

  test('the night does not count: at rest since sunset, read at 02:00', () => {
    const now = at('2026-06-22T00:00:00Z');
    expect(
      noProduction(berlin([pvAtRest('2026-06-21T19:45:00Z', '2026-06-22T00:00:00Z')]), now),
    ).toEqual([]);
  });

  test('dawn does not count: clear sky is below 10 % of peak at 05:15', () => {
    const now = at('2026-06-21T03:15:00Z');
    expect(
      noProduction(berlin([pvAtRest('2026-06-20T19:45:00Z', '2026-06-21T03:15:00Z')]), now),
    ).toEqual([]);
  });

  test('the spring DST day: local times after the change are right, the night before stays quiet', () => {
    // 2026-03-29: clocks go from 02:00 to 03:00 in Berlin; 07:00Z is 09:00 CEST.
    const morning = noProduction(
      berlin([pvAtRest('2026-03-29T07:00:00Z', '2026-03-29T08:30:00Z')]),
      at('2026-03-29T08:30:00Z'),
    );
    expect(morning[0]?.message).toMatch(/^No production since 09:00: 1 h 30 min of daylight/);
    expect(
      noProduction(
        berlin([pvAtRest('2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z')]),
        at('2026-03-29T01:30:00Z'),
      ),
    ).toEqual([]);
  });

  test('a plant without PV, a producing meter or a silent one raise nothing', () => {
    const now = at('2026-06-21T10:00:00Z');
    const resting = pvAtRest('2026-06-21T07:00:00Z', '2026-06-21T10:00:00Z');
    expect(noProduction(berlin([resting], false), now)).toEqual([]);
    expect(
      noProduction(berlin([{ ...resting, valueAtRest: false, lastValue: 3000 }]), now),
    ).toEqual([]);
    expect(noProduction(berlin([{ ...resting, state: 'SILENT' }]), now)).toEqual([]);
  });
});

describe('ABOVE_CLEAR_SKY', () => {
  const now = at('2026-06-21T10:00:00Z');
  test('15 kW from 9.6 kWp at noon is more than clear sky allows', () => {
    const findings = aboveClearSky(
      berlin([sensor({ name: 'PV inverter', lastValue: 15_000 })]),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(
      /^Production 15 kW at 12:00 is above the [\d.]+ kW clear sky allows for 9\.6 kWp \([\d.]+×\): check the meter's unit and the plant's peak power$/,
    );
  });

  test('what clear sky allows is fine, also a kW meter', () => {
    expect(aboveClearSky(berlin([sensor({ lastValue: 7000 })]), now)).toEqual([]);
    expect(aboveClearSky(berlin([sensor({ lastValue: 7, unit: 'kW' })]), now)).toEqual([]);
  });

  test('at night, 2 kW of production is impossible', () => {
    const night = at('2026-06-21T23:00:00Z');
    expect(
      aboveClearSky(
        berlin([sensor({ lastValue: 2000, lastReadingAt: '2026-06-21T23:00:00Z' })]),
        night,
      ),
    ).toHaveLength(1);
    expect(
      aboveClearSky(
        berlin([sensor({ lastValue: 0, lastReadingAt: '2026-06-21T23:00:00Z' })]),
        night,
      ),
    ).toEqual([]);
  });

  test('no PV settings: nothing to compare with', () => {
    expect(aboveClearSky(berlin([sensor({ lastValue: 15_000 })], false), now)).toEqual([]);
  });
});

/** Meters of a balance: consumption = production + grid + storage. */
function balance(values: {
  production?: number;
  consumption: number;
  grid: number;
  storage?: number;
}) {
  const meters = [
    sensor({ name: 'Consumption', flow: 'CONSUMPTION', lastValue: values.consumption }),
    sensor({ name: 'Grid meter', flow: 'GRID', lastValue: values.grid }),
  ];
  if (values.production !== undefined) {
    meters.push(sensor({ name: 'PV inverter', flow: 'PRODUCTION', lastValue: values.production }));
  }
  if (values.storage !== undefined) {
    meters.push(sensor({ name: 'Battery', flow: 'STORAGE', lastValue: values.storage }));
  }
  return meters;
}

describe('GRID_SIGN', () => {
  const now = at('2026-06-21T10:00:00Z');
  test('import while production exceeds consumption: a reversed current transformer', () => {
    const findings = gridSign(
      berlin(balance({ production: 5000, consumption: 1000, grid: 4000 })),
      now,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toBe(
      'Grid meter reads 4 kW import while consumption 1 kW, production 5 kW mean 4 kW export: is its current transformer mounted backwards?',
    );
  });

  test('export at night while the house consumes is the same fault', () => {
    expect(
      gridSign(berlin(balance({ production: 0, consumption: 800, grid: -800 })), now),
    ).toHaveLength(1);
  });

  test('a balance that closes, small flows and meters read at different moments raise nothing', () => {
    expect(
      gridSign(berlin(balance({ production: 5000, consumption: 1000, grid: -4000 })), now),
    ).toEqual([]);
    expect(
      gridSign(berlin(balance({ production: 300, consumption: 200, grid: 100 })), now),
    ).toEqual([]);
    const apart = balance({ production: 5000, consumption: 1000, grid: 4000 });
    apart[1] = { ...apart[1]!, lastReadingAt: '2026-06-21T09:50:00Z' };
    expect(gridSign(berlin(apart), now)).toEqual([]);
  });

  test('a battery is part of the balance', () => {
    // Charging 3 kW of the 5 kW produced, 1 kW consumed: 1 kW export expected.
    expect(
      gridSign(
        berlin(balance({ production: 5000, consumption: 1000, grid: -1000, storage: -3000 })),
        now,
      ),
    ).toEqual([]);
  });
});

describe('METER_UNITS', () => {
  test('a consumption meter reading kW as W: a thousand times below the balance', () => {
    const findings = meterUnits(
      berlin(balance({ production: 3000, consumption: 0.5, grid: -1500, storage: -1000 })),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'METER_UNITS', subjectName: 'Consumption' });
    expect(findings[0]!.message).toBe(
      "Consumption reads 0.5 W where the plant's other meters say 500 W (1/1000): does it report kW where W is expected?",
    );
  });

  test('meters that agree, or two meters only, raise nothing', () => {
    expect(
      meterUnits(
        berlin(balance({ production: 3000, consumption: 500, grid: -1500, storage: -1000 })),
      ),
    ).toEqual([]);
    expect(meterUnits(berlin(balance({ consumption: 0.5, grid: 500 })))).toEqual([]);
  });
});

describe('SOC_STUCK', () => {
  const now = at('2026-06-21T10:00:00Z');
  const soc = (overrides: Partial<SensorStatus>) =>
    sensor({
      name: 'Battery state of charge',
      flow: 'STORAGE',
      dataType: 'STATE_OF_CHARGE',
      unit: '%',
      lastValue: 57,
      ...overrides,
    });

  test('unchanged for 26 hours while reporting', () => {
    const findings = socStuck(berlin([soc({ lastChangedAt: '2026-06-20T08:00:00Z' })]), now);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toBe(
      'Battery state of charge has read 57 % since Sat 10:00 (26 h) while reporting: a battery in use changes its charge',
    );
  });

  test('23 hours, or a silent sensor, are not this alert', () => {
    expect(socStuck(berlin([soc({ lastChangedAt: '2026-06-20T11:00:00Z' })]), now)).toEqual([]);
    expect(
      socStuck(berlin([soc({ lastChangedAt: '2026-06-19T08:00:00Z', state: 'SILENT' })]), now),
    ).toEqual([]);
  });
});

describe('all rules', () => {
  test('without sensor statuses only PV health is judged', () => {
    expect([
      ...judgeableRules({ ...berlin(null), health: { status: 'HEALTHY', performancePercent: 99 } }),
    ]).toEqual(['PV_HEALTH']);
    expect(judgeableRules(berlin([])).size).toBe(6);
  });

  test('a healthy plant at noon raises nothing', () => {
    const now = at('2026-06-21T10:00:00Z');
    expect(
      evaluatePlant(
        {
          ...berlin(balance({ production: 6000, consumption: 1500, grid: -4500 })),
          health: { status: 'HEALTHY', performancePercent: 96 },
        },
        now,
      ),
    ).toEqual([]);
  });
});
