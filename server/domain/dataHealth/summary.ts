import type { PlantDataHealth, SensorDataHealth } from '../../../api/schemas/dataHealth.ts';

/**
 * What other features take from a data-health answer: a compact summary per sensor (the support
 * bundle includes it) and the coverage a period's figures rest on (dashboard, reports).
 */

export interface SensorHealthSummary {
  sensorUuid: string;
  name: string;
  flow: string;
  dataType: string | null;
  /** Over the answer's whole range, 0..100 with one decimal. */
  coveragePercent: number;
  gapCount: number;
  /** The latest gap (local ISO timestamps, seconds), or null. */
  lastGap: { start: string; end: string; durationSeconds: number } | null;
  counterIssueCount: number;
  frozenCount: number;
  suspicions: string[];
  /**
   * Present when days of the range rest on 15-minute rollups (raw retention): how many, and where
   * the raw readings start, before which counter issues, frozen values and suspicions were not
   * assessed (a count of 0 there means "not looked at", not "none").
   */
  rollupDays?: number;
  valuesAssessedFrom?: string;
}

export interface DataHealthSummary {
  plantUuid: string;
  timezone: string;
  from: string;
  to: string;
  evaluatedAt: string;
  sensors: SensorHealthSummary[];
}

export function summarizeDataHealth(health: PlantDataHealth): DataHealthSummary {
  return {
    plantUuid: health.plantUuid,
    timezone: health.timezone,
    from: health.from,
    to: health.to,
    evaluatedAt: health.evaluatedAt,
    sensors: health.sensors.map(summarizeSensor),
  };
}

function summarizeSensor(sensor: SensorDataHealth): SensorHealthSummary {
  return {
    sensorUuid: sensor.sensorUuid,
    name: sensor.name,
    flow: sensor.flow,
    dataType: sensor.dataType,
    coveragePercent: Math.round(sensor.coverageTotal * 1000) / 10,
    gapCount: sensor.gapCount,
    lastGap: sensor.gaps.at(-1) ?? null,
    counterIssueCount: sensor.counterIssueCount,
    frozenCount: sensor.frozenCount,
    suspicions: sensor.suspicions.map((suspicion) => suspicion.code),
    ...rollupFacts(sensor),
  };
}

function rollupFacts(
  sensor: SensorDataHealth,
): Pick<SensorHealthSummary, 'rollupDays' | 'valuesAssessedFrom'> {
  const rollupDays = sensor.resolution?.filter((resolution) => resolution === '15min').length ?? 0;
  if (rollupDays === 0) return {};
  return { rollupDays, ...(sensor.rawFrom && { valuesAssessedFrom: sensor.rawFrom }) };
}

export interface PeriodCoverage {
  /** Per sensor: the share of the period's elapsed time with data, 0..1; null if no day is known. */
  bySensor: Map<string, number | null>;
  /** The weakest of the chosen sensors: a figure is no better than its weakest input. */
  weakest: number | null;
}

/**
 * The coverage of local days `startDate`..`endDate` (yyyy-MM-dd, inclusive) from a data-health
 * answer whose range holds them, for the sensors `accept` keeps (e.g. the PRODUCTION ones for a
 * production figure). Days weigh by their length (23, 24, 25 hours; today's so far); days to come are left out.
 */
export function periodCoverage(
  health: PlantDataHealth,
  startDate: string,
  endDate: string,
  accept: (sensor: SensorDataHealth) => boolean = () => true,
): PeriodCoverage {
  const bySensor = new Map<string, number | null>();
  for (const sensor of health.sensors.filter(accept)) {
    let hours = 0;
    let covered = 0;
    health.days.forEach((day, index) => {
      const share = sensor.coverage[index];
      if (day.date < startDate || day.date > endDate || share === null || share === undefined) {
        return;
      }
      hours += day.elapsedHours;
      covered += share * day.elapsedHours;
    });
    bySensor.set(sensor.sensorUuid, hours === 0 ? null : covered / hours);
  }
  const known = [...bySensor.values()].filter((share): share is number => share !== null);
  return { bySensor, weakest: known.length === 0 ? null : Math.min(...known) };
}
