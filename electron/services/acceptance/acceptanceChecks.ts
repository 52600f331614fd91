import type {
  AcceptanceFinding,
  AcceptanceResult,
  AcceptanceStatus,
  Alert,
} from '../../ipc/contract.ts';
import { createPvModel, type PvSite } from '../../../server/domain/index.ts';
import { figure } from '../../../server/domain/wiring/wording.ts';

/**
 * The acceptance re-check's judgement, 24 hours after commissioning: did every sensor's data
 * arrive, is the production plausible against what a clear sky allowed, and is any alert still
 * open. Pure: the service reads the figures and hands them in.
 */

/** A bucket of a plant's power history (the sensor-history routes), in epoch ms. */
export interface PowerBucket {
  startMs: number;
  endMs: number;
  /** Mean power over the bucket, W; null without data. */
  value: number | null;
  /** Share of the bucket with data, 0..1. */
  coverage: number;
}

export interface SensorCoverage {
  name: string;
  flow: string;
  /** Share of the 24 hours up to the check with data (sensor-statuses' coverage24h). */
  coverage: number;
}

export interface AcceptanceInput {
  window: { startMs: number; endMs: number };
  checkedAtMs: number;
  /** Null without PV settings: there is nothing to expect. */
  site: PvSite | null;
  /** The plant's production and consumption power; null when not measured or unreadable. */
  production: readonly PowerBucket[] | null;
  consumption: readonly PowerBucket[] | null;
  /** Per sensor, where the server has the sensor-statuses extension; else null. */
  sensors: readonly SensorCoverage[] | null;
  /** The monitor's open alerts of the plant. */
  openAlerts: readonly Pick<Alert, 'severity' | 'message' | 'muted'>[];
}

export const COVERAGE_PASS = 0.95;
export const COVERAGE_WARN = 0.8;
/** Ambient temperature for the clear-sky model, °C (as the forecasts and wiring checks take it). */
const CLEAR_SKY_AMBIENT_C = 15;
/** Less clear-sky energy than this many hours at peak power: no daylight to judge by. */
const MIN_DAYLIGHT_PEAK_HOURS = 0.05;
/** Cloud edges lift irradiance above clear sky briefly; over a day, a little allowance. */
const ABOVE_CLEAR_SKY = 1.15;
/** At most this share of clear sky over a day: nothing was produced (even overcast gives more). */
const NOTHING_SHARE = 0.01;
/** Below this share of clear sky over a day: heavily overcast, snow, or a partial fault. */
const LOW_SHARE = 0.15;
/** Production data over less than this share of the window is too little to judge energy. */
const MIN_PRODUCTION_COVERAGE = 0.5;
/** A check this long after the window ended reads sensor coverage of a later 24 hours. */
const LATE_MS = 3_600_000;
const MS_PER_HOUR = 3_600_000;

export const ACCEPTANCE_TITLES = {
  dataCoverage: 'Data coverage over the 24 hours',
  production: 'Production against clear-sky expectation',
  openAlerts: 'Open alerts',
} as const;

const percent = (share: number) => `${figure('', share * 100, '%', 1).value} %`;

const overlapMs = (bucket: PowerBucket, window: AcceptanceInput['window']) =>
  Math.max(0, Math.min(bucket.endMs, window.endMs) - Math.max(bucket.startMs, window.startMs));

/**
 * The share of the window with data. Buckets are weighted by their overlap with the window,
 * so a window starting mid-hour and a DST day's repeated local hour count by real time.
 */
export function windowCoverage(
  buckets: readonly PowerBucket[],
  window: AcceptanceInput['window'],
): number {
  const length = window.endMs - window.startMs;
  if (length <= 0) return 0;
  let covered = 0;
  for (const bucket of buckets) covered += bucket.coverage * overlapMs(bucket, window);
  return Math.min(1, covered / length);
}

/** Energy over the window, kWh: each bucket's mean power over its part of the window. */
export function windowEnergyKwh(
  buckets: readonly PowerBucket[],
  window: AcceptanceInput['window'],
): number {
  let wattHours = 0;
  for (const bucket of buckets) {
    if (bucket.value === null) continue;
    wattHours += (bucket.value * overlapMs(bucket, window)) / MS_PER_HOUR;
  }
  return wattHours / 1000;
}

const gradeCoverage = (share: number): AcceptanceStatus =>
  share >= COVERAGE_PASS ? 'pass' : share >= COVERAGE_WARN ? 'warning' : 'fail';

const RANK: Record<AcceptanceStatus, number> = { notApplicable: 0, pass: 1, warning: 2, fail: 3 };
const worst = (statuses: readonly AcceptanceStatus[]): AcceptanceStatus =>
  statuses.reduce<AcceptanceStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), 'notApplicable');

export function dataCoverage(input: AcceptanceInput): AcceptanceFinding {
  const flows = [
    { name: 'production', buckets: input.production },
    { name: 'consumption', buckets: input.consumption },
  ].flatMap(({ name, buckets }) =>
    buckets ? [{ name, share: windowCoverage(buckets, input.window) }] : [],
  );
  const sensors = input.sensors ?? [];
  const figures = [
    ...flows.map((flow) => figure(`${flow.name} (plant), window`, flow.share * 100, '%', 1)),
    ...sensors.map((sensor) => figure(`${sensor.name}, last 24 h`, sensor.coverage * 100, '%', 1)),
  ];
  const base = { id: 'dataCoverage' as const, title: ACCEPTANCE_TITLES.dataCoverage, figures };
  if (flows.length === 0 && sensors.length === 0) {
    return {
      ...base,
      status: 'notApplicable',
      finding: 'Neither production nor consumption is measured, and the server lists no sensor.',
      action: '',
    };
  }
  const status = worst([
    ...flows.map((flow) => gradeCoverage(flow.share)),
    ...sensors.map((sensor) => gradeCoverage(sensor.coverage)),
  ]);
  const short = [
    ...flows
      .filter((flow) => flow.share < COVERAGE_PASS)
      .map((f) => `${f.name} ${percent(f.share)}`),
    ...sensors
      .filter((sensor) => sensor.coverage < COVERAGE_PASS)
      .map((sensor) => `“${sensor.name}” ${percent(sensor.coverage)}`),
  ];
  const late =
    input.sensors !== null && input.checkedAtMs - input.window.endMs > LATE_MS
      ? ' Per-sensor shares are of the 24 hours before the check, which ran late (the app was closed).'
      : '';
  const perSensor =
    input.sensors === null ? ' The server has no per-sensor statuses: plant totals only.' : '';
  if (status === 'pass') {
    return {
      ...base,
      status,
      finding: `Data arrived for at least ${percent(COVERAGE_PASS)} of the time from every measured source.${perSensor}${late}`,
      action: '',
    };
  }
  return {
    ...base,
    status,
    finding: `Gaps in the data: ${short.join(', ')} (pass from ${percent(COVERAGE_PASS)}, fail below ${percent(COVERAGE_WARN)}).${perSensor}${late}`,
    action:
      "Check the gateway's network connection and power supply, and the vendor integration's credentials; a sensor with no data at all may be addressed wrongly.",
  };
}

export function productionAgainstExpectation(input: AcceptanceInput): AcceptanceFinding {
  const base = { id: 'production' as const, title: ACCEPTANCE_TITLES.production };
  if (!input.site) {
    return {
      ...base,
      status: 'notApplicable',
      figures: [],
      finding: 'The plant has no PV settings (no PV plant): there is no production to expect.',
      action: '',
    };
  }
  if (!input.production) {
    return {
      ...base,
      status: 'notApplicable',
      figures: [],
      finding: 'Production is not measured, so it cannot be compared with an expectation.',
      action: '',
    };
  }
  const peakKw = input.site.pv.peakPowerKw;
  const clearSkyKwh = createPvModel(input.site).clearSkyEnergyKwh(
    input.window.startMs,
    input.window.endMs,
    CLEAR_SKY_AMBIENT_C,
  );
  const measuredKwh = windowEnergyKwh(input.production, input.window);
  const coverage = windowCoverage(input.production, input.window);
  const ratio = clearSkyKwh > 0 ? measuredKwh / clearSkyKwh : null;
  const figures = [
    figure('production', measuredKwh, 'kWh', 2),
    figure('clear-sky expectation', clearSkyKwh, 'kWh', 2),
    figure('production ÷ clear sky', ratio === null ? null : ratio * 100, '%', 1),
    figure('production data coverage', coverage * 100, '%', 1),
    figure('peak power', peakKw, 'kWp', 2),
  ];
  const judged = { ...base, figures };
  if (clearSkyKwh < MIN_DAYLIGHT_PEAK_HOURS * peakKw) {
    return {
      ...judged,
      status: 'notApplicable',
      finding: `The sun gave almost no light in the window (clear sky allows ${clearSkyKwh.toFixed(2)} kWh): production cannot be judged.`,
      action: 'Look at PV health once the plant has had daylight.',
    };
  }
  if (coverage < MIN_PRODUCTION_COVERAGE) {
    return {
      ...judged,
      status: 'notApplicable',
      finding: `Production data covers only ${percent(coverage)} of the window: too little to judge its energy (see data coverage).`,
      action: '',
    };
  }
  const share = ratio!;
  if (share > ABOVE_CLEAR_SKY) {
    return {
      ...judged,
      status: 'fail',
      finding: `${measuredKwh.toFixed(1)} kWh produced, ${percent(share)} of the ${clearSkyKwh.toFixed(1)} kWh a clear sky allows for ${peakKw} kWp: more than the sun can give.`,
      action: "Check the meter's unit (W or kW) and the plant's peak power in the PV settings.",
    };
  }
  if (share <= NOTHING_SHARE) {
    return {
      ...judged,
      status: 'fail',
      finding: `${measuredKwh.toFixed(2)} kWh produced against ${clearSkyKwh.toFixed(1)} kWh a clear sky allows: even an overcast day gives more.`,
      action:
        "Check the inverter's display and its AC breaker (disconnected or tripped), and that the production meter measures the PV.",
    };
  }
  if (share < LOW_SHARE) {
    return {
      ...judged,
      status: 'warning',
      finding: `${measuredKwh.toFixed(1)} kWh produced, ${percent(share)} of the ${clearSkyKwh.toFixed(1)} kWh a clear sky allows: low, as on a heavily overcast day or with snow, or a partial fault.`,
      action:
        'If the day was not dark, check the strings and the inverter; watch PV health over the coming days.',
    };
  }
  return {
    ...judged,
    status: 'pass',
    finding: `${measuredKwh.toFixed(1)} kWh produced, ${percent(share)} of the ${clearSkyKwh.toFixed(1)} kWh a clear sky allows (clouds lower it).`,
    action: '',
  };
}

export function openAlerts(input: AcceptanceInput): AcceptanceFinding {
  const critical = input.openAlerts.filter((alert) => alert.severity === 'critical');
  const warnings = input.openAlerts.filter((alert) => alert.severity !== 'critical');
  const figures = [
    figure('open critical alerts', critical.length, '', 0),
    figure('open warnings', warnings.length, '', 0),
  ];
  const base = { id: 'openAlerts' as const, title: ACCEPTANCE_TITLES.openAlerts, figures };
  if (input.openAlerts.length === 0) {
    return {
      ...base,
      status: 'pass',
      finding: 'The monitor has no open alert for the plant.',
      action: '',
    };
  }
  const listed = [...critical, ...warnings].slice(0, 3).map((alert) => alert.message);
  const more = input.openAlerts.length > 3 ? ` and ${input.openAlerts.length - 3} more` : '';
  return {
    ...base,
    status: critical.length > 0 ? 'fail' : 'warning',
    finding: `Open: ${listed.join('; ')}${more}.`,
    action: 'Open the plant’s alerts and resolve each before handing the plant over.',
  };
}

/** The three findings and the overall verdict (not applicable counts as a pass). */
export function judgeAcceptance(input: AcceptanceInput): AcceptanceResult {
  const findings = [dataCoverage(input), productionAgainstExpectation(input), openAlerts(input)];
  const status = worst(findings.map((finding) => finding.status));
  return {
    checkedAt: new Date(input.checkedAtMs).toISOString(),
    windowStart: new Date(input.window.startMs).toISOString(),
    windowEnd: new Date(input.window.endMs).toISOString(),
    status: status === 'notApplicable' ? 'pass' : status,
    findings,
  };
}

/** A sensor-history answer as buckets: each ends where the next starts, the last at `to`. */
export function bucketsOf(series: {
  to: string;
  points: readonly { timestamp: string; value: number | null; coverage: number }[];
}): PowerBucket[] {
  const starts = series.points.map((point) => Date.parse(point.timestamp));
  return series.points.map((point, index) => ({
    startMs: starts[index]!,
    endMs: starts[index + 1] ?? Date.parse(series.to),
    value: point.value,
    coverage: point.coverage,
  }));
}
