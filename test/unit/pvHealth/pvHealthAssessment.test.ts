import { describe, expect, test } from 'vitest';
import {
  assessPvHealth,
  type HealthDay,
  type PvHealthFacts,
  type QuarterHourFacts,
} from '../../../server/pvHealth/pvHealthAssessment.ts';
import {
  DEFAULT_PV_HEALTH_THRESHOLDS,
  resolvePvHealthThresholds,
} from '../../../server/pvHealth/pvHealthThresholds.ts';

/**
 * A day of 96 quarter-hours: daylight from 08:00 to 16:00 (32 quarter-hours, sun 30° up), 2 kW
 * (0.5 kWh a quarter-hour) under 500 W/m² in the plane of the array, nothing at night.
 * With 5 kWp and 10 % losses, by hand:
 *   E_AC = 32 × 0.5 = 16 kWh, H_POA = 0.5 kW/m² × 8 h = 4 kWh/m²,
 *   PR = (16 / 5) / (4 / 1) = 0.8, expected = 5 × 4 × 0.9 = 18 kWh, performance = 88.89 %.
 */
const isDaylight = (index: number) => index >= 32 && index < 64;

function quarter(index: number, overrides: Partial<QuarterHourFacts> = {}): QuarterHourFacts {
  const daylight = isDaylight(index);
  return {
    producedKwh: daylight ? 0.5 : 0,
    productionCoverage: 1,
    sunElevationDeg: daylight ? 30 : -10,
    clearSkyKwh: daylight ? 1 : 0,
    irradianceWm2: daylight ? 500 : 0,
    irradianceCoverage: 1,
    peakPowerW: daylight ? 2000 : 0,
    ...overrides,
  };
}

function day(
  date: string,
  change: (index: number) => Partial<QuarterHourFacts> = () => ({}),
): HealthDay {
  return {
    date,
    quarterHours: Array.from({ length: 96 }, (_, index) => quarter(index, change(index))),
  };
}

const week = (change?: (index: number) => Partial<QuarterHourFacts>) =>
  Array.from({ length: 7 }, (_, index) => day(`2026-06-0${index + 1}`, change));

function facts(overrides: Partial<PvHealthFacts> = {}): PvHealthFacts {
  return {
    days: week(),
    pv: { peakPowerKw: 5, lossesPercent: 10 },
    hasProductionSensor: true,
    hasIrradianceSensor: true,
    inverterLimitW: 4000,
    ...overrides,
  };
}

const codes = (result: ReturnType<typeof assessPvHealth>) =>
  result.indicators.map((indicator) => indicator.code);

describe('IEC 61724-1 performance ratio and expected energy', () => {
  test('match the hand computation', () => {
    const result = assessPvHealth(facts(), DEFAULT_PV_HEALTH_THRESHOLDS);
    expect(result.energyProducedKwh).toBe(7 * 16);
    expect(result.expectedEnergyKwh).toBeCloseTo(7 * 18, 9);
    expect(result.performanceRatio).toBeCloseTo(0.8, 9);
    expect(result.performancePercent).toBeCloseTo((16 / 18) * 100, 5);
    expect(result.status).toBe('HEALTHY');
    expect(result.indicators).toEqual([]);
  });

  test('a data gap is reported, not counted as under-performance', () => {
    const days = week();
    days[2] = day('2026-06-03', (index) =>
      index >= 40 ? { producedKwh: 0, productionCoverage: 0, peakPowerW: null } : {},
    );
    const result = assessPvHealth(facts({ days }), DEFAULT_PV_HEALTH_THRESHOLDS);
    // 2026-06-03 has data for 8 of its 32 daylight quarter-hours: 4 kWh produced, 4.5 expected.
    expect(result.energyProducedKwh).toBe(6 * 16 + 4);
    expect(result.expectedEnergyKwh).toBeCloseTo(6 * 18 + 4.5, 9);
    expect(result.performanceRatio).toBeCloseTo(0.8, 9);
    expect(result.status).toBe('HEALTHY');
    expect(result.indicators).toEqual([
      {
        code: 'DATA_GAPS',
        level: 'WARNING',
        message: 'Production data covers less than 90 % of daylight on 1 day: 2026-06-03',
      },
    ]);
  });

  test('without irradiance, expected energy is clear sky × the climatological index and PR is null', () => {
    const result = assessPvHealth(
      facts({
        hasIrradianceSensor: false,
        days: week(() => ({ irradianceWm2: null, irradianceCoverage: 0 })),
      }),
      DEFAULT_PV_HEALTH_THRESHOLDS,
    );
    // 32 quarter-hours × 1 kWh clear sky × 0.6 = 19.2 kWh a day.
    expect(result.expectedEnergyKwh).toBeCloseTo(7 * 19.2, 9);
    expect(result.performancePercent).toBeCloseTo((16 / 19.2) * 100, 5);
    expect(result.performanceRatio).toBeNull();
    expect(codes(result)).toEqual(['IRRADIANCE_SENSOR_MISSING']);
    expect(result.indicators[0]!.level).toBe('INFO');
  });

  test('irradiance gaps are filled by the clear-sky model and reported', () => {
    const result = assessPvHealth(
      facts({
        days: week((index) => (index >= 48 ? { irradianceWm2: null, irradianceCoverage: 0 } : {})),
      }),
      DEFAULT_PV_HEALTH_THRESHOLDS,
    );
    // Morning: 16 × 0.5 kWh under 2 kWh/m² (expected 9); afternoon: 16 × 1 × 0.6 = 9.6 kWh.
    expect(result.expectedEnergyKwh).toBeCloseTo(7 * (9 + 9.6), 9);
    expect(result.performanceRatio).toBeCloseTo(0.8, 9);
    expect(codes(result)).toEqual(['IRRADIANCE_DATA_GAPS']);
    expect(result.indicators[0]!.message).toBe(
      'Irradiance data covers 50 % of daylight; the clear-sky model stands in for the rest',
    );
  });
});

describe('status thresholds', () => {
  test('performance below the degraded threshold is DEGRADED, below the fault threshold FAULT', () => {
    const degraded = assessPvHealth(
      facts(),
      resolvePvHealthThresholds({ degradedBelowPercent: 90 }),
    );
    expect(degraded.status).toBe('DEGRADED');
    expect(degraded.indicators).toEqual([
      {
        code: 'LOW_PERFORMANCE_RATIO',
        level: 'WARNING',
        message:
          'Produced 88.9 % of the expected energy (performance ratio 0.80); below 90 % counts as degraded',
      },
    ]);
    const fault = assessPvHealth(
      facts(),
      resolvePvHealthThresholds({ degradedBelowPercent: 95, faultBelowPercent: 89 }),
    );
    expect(fault.status).toBe('FAULT');
    expect(fault.indicators[0]!.level).toBe('CRITICAL');
  });

  test('a day of daylight without production is a FAULT', () => {
    const days = week();
    days[4] = day('2026-06-05', () => ({ producedKwh: 0, peakPowerW: 0 }));
    const result = assessPvHealth(facts({ days }), DEFAULT_PV_HEALTH_THRESHOLDS);
    expect(result.status).toBe('FAULT');
    expect(result.indicators[0]).toEqual({
      code: 'DAYS_WITHOUT_PRODUCTION',
      level: 'CRITICAL',
      message: 'No production on 1 day with daylight: 2026-06-05',
    });
  });

  test('no production data, or no production sensor, is NO_DATA', () => {
    const silent = assessPvHealth(
      facts({ days: week(() => ({ producedKwh: 0, productionCoverage: 0, peakPowerW: null })) }),
      DEFAULT_PV_HEALTH_THRESHOLDS,
    );
    expect(silent).toMatchObject({
      status: 'NO_DATA',
      energyProducedKwh: 0,
      expectedEnergyKwh: null,
      performancePercent: null,
      performanceRatio: null,
    });
    expect(codes(silent)).toEqual(['NO_PRODUCTION_DATA']);
    const unmeasured = assessPvHealth(
      facts({ hasProductionSensor: false }),
      DEFAULT_PV_HEALTH_THRESHOLDS,
    );
    expect(unmeasured.status).toBe('NO_DATA');
    expect(codes(unmeasured)).toEqual(['NO_PRODUCTION_SENSOR']);
  });

  test('without pv settings there is no expectation, and the status rests on the days', () => {
    const result = assessPvHealth(facts({ pv: null }), DEFAULT_PV_HEALTH_THRESHOLDS);
    expect(result).toMatchObject({
      status: 'HEALTHY',
      energyProducedKwh: 112,
      expectedEnergyKwh: null,
      performancePercent: null,
      performanceRatio: null,
    });
    expect(codes(result)).toEqual(['PV_SETTINGS_MISSING']);
  });

  test('thresholds that make no sense are refused at startup', () => {
    expect(() => resolvePvHealthThresholds({ faultBelowPercent: 90 })).toThrow(/faultBelowPercent/);
    expect(() => resolvePvHealthThresholds({ minDaylightCoverage: 1.5 })).toThrow(
      /minDaylightCoverage/,
    );
    expect(() => resolvePvHealthThresholds({ climatologicalClearSkyIndex: 0 })).toThrow(
      /climatological/,
    );
  });
});

describe('inverter clipping', () => {
  test('is a warning from 5 % of producing daylight at the limit', () => {
    const result = assessPvHealth(
      facts({ days: week((index) => (index >= 44 && index < 48 ? { peakPowerW: 4000 } : {})) }),
      DEFAULT_PV_HEALTH_THRESHOLDS,
    );
    expect(result.indicators).toEqual([
      {
        code: 'INVERTER_CLIPPING',
        level: 'WARNING',
        message:
          'Production reached the inverter limit (4 kW) in 28 quarter-hours, 12.5 % of producing daylight',
      },
    ]);
    expect(
      codes(assessPvHealth(facts({ inverterLimitW: null }), DEFAULT_PV_HEALTH_THRESHOLDS)),
    ).toEqual([]);
  });
});
