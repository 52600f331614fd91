import type { PvHealth } from '../../api/index.ts';
import { STC_IRRADIANCE_W_M2 } from '../domain/index.ts';
import { roundMetric } from '../measurements/metrics/flowMeasures.ts';
import type { PvHealthThresholds } from './pvHealthThresholds.ts';

/**
 * PV health from what was measured and expected in each quarter-hour of a range. Pure.
 *
 * Expected energy, per quarter-hour, for the time production was measured there (so that a
 * data gap reads as a gap, reported as such, not as under-performance):
 * - where plane-of-array irradiance was measured (IEC 61724-1): P_STC × H_POA / G_STC ×
 *   (1 − losses), with H_POA the insolation (kWh/m²) over the time production was measured;
 * - elsewhere: the clear-sky AC energy × the climatological clear-sky index.
 * The performance ratio (IEC 61724-1, final yield over reference yield) is
 * PR = (E_AC / P_STC) / (H_POA / G_STC), over the quarter-hours with irradiance; null without it.
 * performancePercent = produced / expected × 100.
 */

export type HealthIndicator = PvHealth['indicators'][number];
export type HealthAssessment = Pick<
  PvHealth,
  | 'energyProducedKwh'
  | 'expectedEnergyKwh'
  | 'performancePercent'
  | 'performanceRatio'
  | 'status'
  | 'indicators'
>;

export interface QuarterHourFacts {
  /** Measured production, kWh. */
  producedKwh: number;
  /** Share of the quarter-hour with production data, 0..1. */
  productionCoverage: number;
  /** Sun elevation at its middle, degrees. */
  sunElevationDeg: number;
  /** Clear-sky AC energy of the whole quarter-hour, kWh (0 without PV settings). */
  clearSkyKwh: number;
  /** Mean plane-of-array irradiance over the part with irradiance data, W/m²; null for none. */
  irradianceWm2: number | null;
  /** Share of the quarter-hour with irradiance data, 0..1. */
  irradianceCoverage: number;
  /** Highest production power sample, W; null when not measured as power. */
  peakPowerW: number | null;
}

export interface HealthDay {
  /** yyyy-MM-dd */
  date: string;
  quarterHours: readonly QuarterHourFacts[];
}

export interface PvHealthFacts {
  days: readonly HealthDay[];
  pv: { peakPowerKw: number; lossesPercent: number } | null;
  hasProductionSensor: boolean;
  hasIrradianceSensor: boolean;
  /** The producer devices' rated AC power, W; null when unknown. */
  inverterLimitW: number | null;
}

const QUARTER_HOUR_HOURS = 0.25;
/** The sun must be this high for a quarter-hour to count as daylight a PV array works in. */
export const DAYLIGHT_ELEVATION_DEG = 5;
/** A day of daylight "without production" made less than this share of its expected energy... */
const ZERO_PRODUCTION_SHARE = 0.005;
/** ...or, without an expectation, less than this, kWh. */
const ZERO_PRODUCTION_KWH = 0.01;
/** Power at or above this share of the inverter rating counts as clipped. */
const CLIPPING_SHARE_OF_LIMIT = 0.99;
/** Clipping in at least this share of producing daylight quarter-hours is a warning. */
const CLIPPING_WARNING_SHARE = 0.05;
/** Dates listed in an indicator's message before "and N more". */
const LISTED_DATES = 10;

interface Totals {
  producedKwh: number;
  expectedKwh: number;
  /** Production where irradiance was measured, and the insolation there (kWh/m²). */
  irradiatedProducedKwh: number;
  insolationKwhPerM2: number;
}

function expectedOf(
  quarter: QuarterHourFacts,
  facts: PvHealthFacts,
  thresholds: PvHealthThresholds,
  totals: Totals,
): number {
  const pv = facts.pv;
  if (!pv) return 0;
  const coverage = quarter.productionCoverage;
  if (quarter.irradianceWm2 !== null && quarter.irradianceCoverage > 0) {
    const insolation = (Math.max(quarter.irradianceWm2, 0) * QUARTER_HOUR_HOURS * coverage) / 1000;
    totals.irradiatedProducedKwh += quarter.producedKwh;
    totals.insolationKwhPerM2 += insolation;
    return (
      (pv.peakPowerKw * insolation * 1000 * (1 - pv.lossesPercent / 100)) / STC_IRRADIANCE_W_M2
    );
  }
  return coverage * quarter.clearSkyKwh * thresholds.climatologicalClearSkyIndex;
}

const listDates = (dates: readonly string[]) =>
  dates.length <= LISTED_DATES
    ? dates.join(', ')
    : `${dates.slice(0, LISTED_DATES).join(', ')} and ${dates.length - LISTED_DATES} more`;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const percentText = (value: number) => `${(Math.round(value * 10) / 10).toString()} %`;

export function assessPvHealth(
  facts: PvHealthFacts,
  thresholds: PvHealthThresholds,
): HealthAssessment {
  const totals: Totals = {
    producedKwh: 0,
    expectedKwh: 0,
    irradiatedProducedKwh: 0,
    insolationKwhPerM2: 0,
  };
  let coveredQuarters = 0;
  /** Daylight with production data, and the part of it with irradiance data too (quarter-hours). */
  let measuredDaylight = 0;
  let irradiatedDaylight = 0;
  let producingQuarters = 0;
  let clippedQuarters = 0;
  const gapDays: string[] = [];
  const zeroDays: string[] = [];

  for (const day of facts.days) {
    let dayProduced = 0;
    let dayExpected = 0;
    let dayDaylight = 0;
    let dayDaylightCoverage = 0;
    for (const quarter of day.quarterHours) {
      const expected = expectedOf(quarter, facts, thresholds, totals);
      dayProduced += quarter.producedKwh;
      dayExpected += expected;
      coveredQuarters += quarter.productionCoverage;
      if (quarter.sunElevationDeg < DAYLIGHT_ELEVATION_DEG) continue;
      dayDaylight += 1;
      dayDaylightCoverage += quarter.productionCoverage;
      measuredDaylight += quarter.productionCoverage;
      if (quarter.irradianceWm2 !== null) {
        irradiatedDaylight += quarter.productionCoverage * quarter.irradianceCoverage;
      }
      if (quarter.producedKwh > 0) producingQuarters += 1;
      if (
        facts.inverterLimitW !== null &&
        quarter.peakPowerW !== null &&
        quarter.peakPowerW >= CLIPPING_SHARE_OF_LIMIT * facts.inverterLimitW
      ) {
        clippedQuarters += 1;
      }
    }
    totals.producedKwh += dayProduced;
    totals.expectedKwh += dayExpected;
    if (dayDaylight === 0) continue;
    if (dayDaylightCoverage / dayDaylight < thresholds.minDaylightCoverage) {
      gapDays.push(day.date);
    } else if (
      dayProduced < (facts.pv ? ZERO_PRODUCTION_SHARE * dayExpected : ZERO_PRODUCTION_KWH)
    ) {
      zeroDays.push(day.date);
    }
  }

  const indicators: HealthIndicator[] = [];
  const hasData = facts.hasProductionSensor && coveredQuarters > 0;
  if (!hasData) {
    indicators.push(
      facts.hasProductionSensor
        ? {
            code: 'NO_PRODUCTION_DATA',
            level: 'WARNING',
            message: 'No production data in the range',
          }
        : {
            code: 'NO_PRODUCTION_SENSOR',
            level: 'WARNING',
            message: 'The plant has no PRODUCTION sensor measuring POWER or ENERGY',
          },
    );
  }
  if (!facts.pv) {
    indicators.push({
      code: 'PV_SETTINGS_MISSING',
      level: 'WARNING',
      message: 'The plant has no pv settings: expected energy and performance cannot be computed',
    });
  }

  const expected = facts.pv && hasData ? totals.expectedKwh : null;
  const performance =
    expected !== null && expected > 0 ? (totals.producedKwh / expected) * 100 : null;
  const performanceRatio =
    facts.pv && hasData && facts.hasIrradianceSensor && totals.insolationKwhPerM2 > 0
      ? totals.irradiatedProducedKwh /
        ((facts.pv.peakPowerKw * totals.insolationKwhPerM2 * 1000) / STC_IRRADIANCE_W_M2)
      : null;

  if (hasData) {
    if (zeroDays.length > 0) {
      indicators.push({
        code: 'DAYS_WITHOUT_PRODUCTION',
        level: 'CRITICAL',
        message: `No production on ${plural(zeroDays.length, 'day')} with daylight: ${listDates(zeroDays)}`,
      });
    }
    if (gapDays.length > 0) {
      indicators.push({
        code: 'DATA_GAPS',
        level: 'WARNING',
        message:
          `Production data covers less than ${percentText(thresholds.minDaylightCoverage * 100)} of daylight ` +
          `on ${plural(gapDays.length, 'day')}: ${listDates(gapDays)}`,
      });
    }
    if (performance !== null && performance < thresholds.degradedBelowPercent) {
      const ratio =
        performanceRatio === null ? '' : ` (performance ratio ${performanceRatio.toFixed(2)})`;
      indicators.push({
        code: 'LOW_PERFORMANCE_RATIO',
        level: performance < thresholds.faultBelowPercent ? 'CRITICAL' : 'WARNING',
        message:
          `Produced ${percentText(performance)} of the expected energy${ratio}; ` +
          `below ${percentText(thresholds.degradedBelowPercent)} counts as degraded`,
      });
    }
    if (clippedQuarters > 0 && facts.inverterLimitW !== null) {
      const share = clippedQuarters / Math.max(producingQuarters, 1);
      indicators.push({
        code: 'INVERTER_CLIPPING',
        level: share >= CLIPPING_WARNING_SHARE ? 'WARNING' : 'INFO',
        message:
          `Production reached the inverter limit (${roundMetric(facts.inverterLimitW / 1000)} kW) in ` +
          `${plural(clippedQuarters, 'quarter-hour')}, ${percentText(share * 100)} of producing daylight`,
      });
    }
    if (facts.pv && !facts.hasIrradianceSensor) {
      indicators.push({
        code: 'IRRADIANCE_SENSOR_MISSING',
        level: 'INFO',
        message:
          'No IRRADIANCE sensor: expected energy comes from the clear-sky model × a climatological ' +
          `clear-sky index of ${thresholds.climatologicalClearSkyIndex}, and performanceRatio is not computed`,
      });
    } else if (facts.pv && measuredDaylight > 0) {
      // Only where production was measured does the expectation need irradiance.
      const irradianceCoverage = irradiatedDaylight / measuredDaylight;
      if (irradianceCoverage < thresholds.minDaylightCoverage) {
        indicators.push({
          code: 'IRRADIANCE_DATA_GAPS',
          level: 'WARNING',
          message:
            `Irradiance data covers ${percentText(irradianceCoverage * 100)} of daylight; ` +
            'the clear-sky model stands in for the rest',
        });
      }
    }
  }

  let status: PvHealth['status'];
  if (!hasData) status = 'NO_DATA';
  else if (
    zeroDays.length > 0 ||
    (performance !== null && performance < thresholds.faultBelowPercent)
  )
    status = 'FAULT';
  else if (performance !== null && performance < thresholds.degradedBelowPercent)
    status = 'DEGRADED';
  else status = 'HEALTHY';

  return {
    energyProducedKwh: roundMetric(totals.producedKwh),
    expectedEnergyKwh: expected === null ? null : roundMetric(expected),
    performancePercent: performance === null ? null : roundMetric(performance),
    performanceRatio: performanceRatio === null ? null : roundMetric(performanceRatio),
    status,
    indicators,
  };
}
