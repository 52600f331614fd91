import type { PlantDataHealth, SensorDataHealth } from '../../../api/schemas/dataHealth.ts';

/**
 * What a report shows of the data-health extension for its period: the coverage of the energy
 * sensors behind production and consumption, and how many findings (gaps, counter resets and
 * negative deltas, frozen values) they had. The sensors behind a figure are chosen as the
 * metrics choose them (plant-level meters before device-level ones; consumption from the balance
 * production + grid + storage when no consumption meter exists), so the coverage is that of the
 * readings the figure rests on.
 */

export interface FindingCounts {
  gaps: number;
  /** Counter resets and negative deltas of energy counters. */
  counterIssues: number;
  frozen: number;
}

export interface ReportDataHealth {
  /** Coverage of the period by the sensors behind each figure, 0..1; null: no such sensors. */
  productionCoverage: number | null;
  consumptionCoverage: number | null;
  findings: FindingCounts;
  /** Energy sensors read. */
  sensors: number;
}

const ENERGY_FLOWS = new Set(['CONSUMPTION', 'PRODUCTION', 'GRID', 'STORAGE']);
const ENERGY_TYPES = new Set(['POWER', 'ENERGY']);

type Sensor = Pick<
  SensorDataHealth,
  | 'flow'
  | 'deviceUuid'
  | 'dataType'
  | 'coverageTotal'
  | 'gapCount'
  | 'counterIssueCount'
  | 'frozenCount'
>;

/** A flow's sensors: the plant-level ones when there are any (they measure the whole plant). */
function flowSensors(sensors: readonly Sensor[], flow: string): Sensor[] {
  const all = sensors.filter((sensor) => sensor.flow === flow);
  const plantLevel = all.filter((sensor) => sensor.deviceUuid === null);
  return plantLevel.length > 0 ? plantLevel : all;
}

const meanCoverage = (sensors: readonly Sensor[]): number | null =>
  sensors.length === 0
    ? null
    : sensors.reduce((total, sensor) => total + sensor.coverageTotal, 0) / sensors.length;

/** A sum of terms is only as covered as its least covered term. */
function termsCoverage(terms: readonly (readonly Sensor[])[]): number | null {
  const covered = terms.filter((term) => term.length > 0).map(meanCoverage) as number[];
  return covered.length === 0 ? null : Math.min(...covered);
}

export function reportDataHealth(answer: Pick<PlantDataHealth, 'sensors'>): ReportDataHealth {
  const energy = answer.sensors.filter(
    (sensor) => ENERGY_FLOWS.has(sensor.flow) && ENERGY_TYPES.has(sensor.dataType ?? ''),
  );
  const production = flowSensors(energy, 'PRODUCTION');
  const consumers = flowSensors(energy, 'CONSUMPTION');
  const grid = flowSensors(energy, 'GRID');
  const consumption =
    consumers.length > 0
      ? termsCoverage([consumers])
      : grid.length > 0
        ? termsCoverage([production, grid, flowSensors(energy, 'STORAGE')])
        : null;
  return {
    // Unrounded: one sensor's coverage is the data-health answer's own figure.
    productionCoverage: termsCoverage([production]),
    consumptionCoverage: consumption,
    findings: {
      gaps: energy.reduce((total, sensor) => total + sensor.gapCount, 0),
      counterIssues: energy.reduce((total, sensor) => total + sensor.counterIssueCount, 0),
      frozen: energy.reduce((total, sensor) => total + sensor.frozenCount, 0),
    },
    sensors: energy.length,
  };
}
