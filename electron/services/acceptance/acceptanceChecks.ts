import type { AcceptanceStatus } from '../../ipc/contract.ts';
import type { StoredAlert } from '../monitor/alertLifecycle.ts';
import { createPvModel, type PvSite } from '../../../server/domain/index.ts';
import { figure } from '../../../server/domain/wiring/wording.ts';
import type { HostText, StoredText } from '../hostText.ts';
import type {
  StoredAcceptanceFigure,
  StoredAcceptanceFinding,
  StoredAcceptanceResult,
} from './acceptanceWording.ts';

/**
 * The acceptance re-check's judgement, 24 hours after commissioning: did every sensor's data
 * arrive, is the production plausible against what a clear sky allowed, and is any alert still
 * open. Pure: the service reads the figures and hands them in. Its words are message keys with
 * the raw figures, put into words in the reader's language when the re-check is read.
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
  /** The monitor's open alerts of the plant, their messages as the monitor keeps them. */
  openAlerts: readonly Pick<StoredAlert, 'severity' | 'message' | 'muted'>[];
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

const title = (id: StoredAcceptanceFinding['id']): HostText => ({ key: `acceptance.title.${id}` });
const text = (key: string, params?: HostText['params']): HostText => ({
  key: `acceptance.${key}`,
  ...(params && { params }),
});
/** Sentences of a finding, the ones not said left out. */
const sentences = (...parts: (StoredText | false)[]): StoredText => ({
  list: parts.filter((part) => part !== false),
  separator: ' ',
});
const percent = (share: number) => ({ percent: share, digits: 1 });
const kwh = (value: number, digits: number) => ({ number: value, digits, minDigits: digits });
/** A figure whose name is a message (the value rounded as the report shows it). */
const named = (
  name: StoredText,
  value: number | null,
  unit: string,
  digits?: number,
): StoredAcceptanceFigure => ({ ...figure('', value, unit, digits), name });
const NOTHING_TO_DO = '';

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

export function dataCoverage(input: AcceptanceInput): StoredAcceptanceFinding {
  const flows = [
    { name: text('flow.production'), buckets: input.production },
    { name: text('flow.consumption'), buckets: input.consumption },
  ].flatMap(({ name, buckets }) =>
    buckets ? [{ name, share: windowCoverage(buckets, input.window) }] : [],
  );
  const sensors = input.sensors ?? [];
  const figures = [
    ...flows.map((flow) =>
      named(text('figure.flowWindow', { flow: flow.name }), flow.share * 100, '%', 1),
    ),
    ...sensors.map((sensor) =>
      named(text('figure.sensorDay', { sensor: sensor.name }), sensor.coverage * 100, '%', 1),
    ),
  ];
  const base = { id: 'dataCoverage' as const, title: title('dataCoverage'), figures };
  if (flows.length === 0 && sensors.length === 0) {
    return {
      ...base,
      status: 'notApplicable',
      finding: text('coverage.none'),
      action: NOTHING_TO_DO,
    };
  }
  const status = worst([
    ...flows.map((flow) => gradeCoverage(flow.share)),
    ...sensors.map((sensor) => gradeCoverage(sensor.coverage)),
  ]);
  const short = [
    ...flows
      .filter((flow) => flow.share < COVERAGE_PASS)
      .map((f) => text('coverage.shortFlow', { flow: f.name, share: percent(f.share) })),
    ...sensors
      .filter((sensor) => sensor.coverage < COVERAGE_PASS)
      .map((sensor) =>
        text('coverage.shortSensor', { sensor: sensor.name, share: percent(sensor.coverage) }),
      ),
  ];
  const late =
    input.sensors !== null &&
    input.checkedAtMs - input.window.endMs > LATE_MS &&
    text('coverage.late');
  const perSensor = input.sensors === null && text('coverage.plantTotalsOnly');
  if (status === 'pass') {
    return {
      ...base,
      status,
      finding: sentences(text('coverage.pass', { pass: percent(COVERAGE_PASS) }), perSensor, late),
      action: NOTHING_TO_DO,
    };
  }
  return {
    ...base,
    status,
    finding: sentences(
      text('coverage.gaps', {
        short: { list: short },
        pass: percent(COVERAGE_PASS),
        warn: percent(COVERAGE_WARN),
      }),
      perSensor,
      late,
    ),
    action: text('coverage.action'),
  };
}

export function productionAgainstExpectation(input: AcceptanceInput): StoredAcceptanceFinding {
  const base = { id: 'production' as const, title: title('production') };
  if (!input.site) {
    return {
      ...base,
      status: 'notApplicable',
      figures: [],
      finding: text('production.noPv'),
      action: NOTHING_TO_DO,
    };
  }
  if (!input.production) {
    return {
      ...base,
      status: 'notApplicable',
      figures: [],
      finding: text('production.notMeasured'),
      action: NOTHING_TO_DO,
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
    named(text('figure.production'), measuredKwh, 'kWh', 2),
    named(text('figure.clearSky'), clearSkyKwh, 'kWh', 2),
    named(text('figure.ratio'), ratio === null ? null : ratio * 100, '%', 1),
    named(text('figure.productionCoverage'), coverage * 100, '%', 1),
    named(text('figure.peak'), peakKw, 'kWp', 2),
  ];
  const judged = { ...base, figures };
  if (clearSkyKwh < MIN_DAYLIGHT_PEAK_HOURS * peakKw) {
    return {
      ...judged,
      status: 'notApplicable',
      finding: text('production.dark', { clearSky: kwh(clearSkyKwh, 2) }),
      action: text('production.darkAction'),
    };
  }
  if (coverage < MIN_PRODUCTION_COVERAGE) {
    return {
      ...judged,
      status: 'notApplicable',
      finding: text('production.sparse', { coverage: percent(coverage) }),
      action: NOTHING_TO_DO,
    };
  }
  const share = ratio!;
  const energy = (digits: number) => ({
    measured: kwh(measuredKwh, digits),
    share: percent(share),
    clearSky: kwh(clearSkyKwh, 1),
  });
  if (share > ABOVE_CLEAR_SKY) {
    return {
      ...judged,
      status: 'fail',
      finding: text('production.above', { ...energy(1), peak: { number: peakKw } }),
      action: text('production.aboveAction'),
    };
  }
  if (share <= NOTHING_SHARE) {
    return {
      ...judged,
      status: 'fail',
      finding: text('production.nothing', energy(2)),
      action: text('production.nothingAction'),
    };
  }
  if (share < LOW_SHARE) {
    return {
      ...judged,
      status: 'warning',
      finding: text('production.low', energy(1)),
      action: text('production.lowAction'),
    };
  }
  return {
    ...judged,
    status: 'pass',
    finding: text('production.pass', energy(1)),
    action: NOTHING_TO_DO,
  };
}

export function openAlerts(input: AcceptanceInput): StoredAcceptanceFinding {
  const critical = input.openAlerts.filter((alert) => alert.severity === 'critical');
  const warnings = input.openAlerts.filter((alert) => alert.severity !== 'critical');
  const figures = [
    named(text('figure.critical'), critical.length, '', 0),
    named(text('figure.warnings'), warnings.length, '', 0),
  ];
  const base = { id: 'openAlerts' as const, title: title('openAlerts'), figures };
  if (input.openAlerts.length === 0) {
    return {
      ...base,
      status: 'pass',
      finding: text('openAlerts.none'),
      action: NOTHING_TO_DO,
    };
  }
  const listed = {
    list: [...critical, ...warnings].slice(0, 3).map((alert) => alert.message),
    separator: '; ',
  };
  const more = input.openAlerts.length - 3;
  return {
    ...base,
    status: critical.length > 0 ? 'fail' : 'warning',
    finding:
      more > 0
        ? { key: 'acceptance.openAlerts.openMore', params: { alerts: listed }, plural: more }
        : text('openAlerts.open', { alerts: listed }),
    action: text('openAlerts.action'),
  };
}

/** The three findings and the overall verdict (not applicable counts as a pass). */
export function judgeAcceptance(input: AcceptanceInput): StoredAcceptanceResult {
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
