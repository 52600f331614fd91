import type { PV_HEALTH_STATUSES } from '../../../api/schemas/metrics.ts';
import type { SensorStatus } from '../../../api/schemas/fleet.ts';
// Production rules count only daylight (the word): the domain's.
import { DAYLIGHT_SUN_ELEVATION_DEG } from '../../../server/domain/clearSky.ts';
import { createPvModel, type PvSite } from '../../../server/domain/index.ts';
import { FORECAST_AMBIENT_C } from '../../../server/forecasts/clearSkyProduction.ts';
import type { AlertLink, AlertRule, AlertSeverity } from '../../ipc/contract.ts';
import type { HostText } from '../hostText.ts';
import { localMinute } from './alertWording.ts';

/**
 * The alert rules: pure functions from what is known about a plant at one instant to the
 * conditions that hold. Whether a condition becomes an alert (delay, hysteresis, mutes) is the
 * lifecycle's business (alertLifecycle.ts); these only say what is wrong now and why: a message
 * key with the raw figures, put into words in the reader's language when the alert is read.
 */

export interface PlantSnapshot {
  plantUuid: string;
  name: string;
  timezone: string;
  /** The pv settings as the PV model takes them; null for a plant without PV. */
  site: PvSite | null;
  /** PV health of the last 7 full days; null when unknown (no permission, no answer). */
  health: { status: (typeof PV_HEALTH_STATUSES)[number]; performancePercent: number | null } | null;
  /** Freshness of every sensor; null when unknown (a server without sensor-statuses). */
  sensors: readonly SensorStatus[] | null;
}

export interface Finding {
  rule: AlertRule;
  subjectUuid: string | null;
  subjectName: string | null;
  severity: AlertSeverity;
  message: HostText;
  link: AlertLink;
}

/** NO_PRODUCTION: clear sky must expect more than this share of peak power… */
export const NO_PRODUCTION_MIN_CLEAR_SKY_SHARE = 0.1;
/** …for this long while production is at rest. */
export const NO_PRODUCTION_DAYLIGHT_MS = 60 * 60_000;
/** ABOVE_CLEAR_SKY: cloud edges lift irradiance above clear sky by up to a fifth, briefly. */
export const CLEAR_SKY_ENHANCEMENT = 1.25;
/** SOC_STUCK: unchanged this long while reporting. */
export const SOC_STUCK_MS = 24 * 3_600_000;
/** Balance rules ignore power below max(this, 3 % of peak): meters disagree by that much. */
export const BALANCE_MIN_W = 150;
const BALANCE_PEAK_SHARE = 0.03;
/** METER_UNITS: a meter reading between these fractions of what the balance says. */
const KILO_LOW = 1 / 3000;
const KILO_HIGH = 1 / 300;
/** How far apart two meters' last readings may be for their values to be compared. */
const SAME_MOMENT_MS = 180_000;
/** Steps of the daylight count. */
const DAYLIGHT_STEP_MS = 5 * 60_000;
/** How far back NO_PRODUCTION looks for daylight. */
const DAYLIGHT_LOOKBACK_MS = 48 * 3_600_000;

const ms = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));
const isReporting = (sensor: SensorStatus) =>
  sensor.state === 'REPORTING' || sensor.state === 'LATE';
/** Power in W from a sensor's last value (its unit W or kW). */
function powerW(sensor: SensorStatus): number | null {
  if (sensor.lastValue === null || sensor.dataType !== 'POWER') return null;
  return sensor.unit === 'kW' ? sensor.lastValue * 1000 : sensor.lastValue;
}

/** The history chart around an instant, in the plant's zone. */
function historyLink(zone: string, fromMs: number, toMs: number): AlertLink {
  const span = toMs - fromMs;
  return {
    view: 'history',
    start: localMinute(fromMs - Math.max(span / 4, 30 * 60_000), zone),
    end: localMinute(toMs + 15 * 60_000, zone),
    granularity: span > 2 * 24 * 3_600_000 ? 'hours' : 'minutes',
  };
}

// ── Each rule ─────────────────────────────────────────────────────────────────────────────

export function sensorSilent(plant: PlantSnapshot, now: number): Finding[] {
  return (plant.sensors ?? [])
    .filter((sensor) => sensor.state === 'SILENT')
    .map((sensor) => {
      const last = ms(sensor.lastReadingAt)!;
      return {
        rule: 'SENSOR_SILENT',
        subjectUuid: sensor.sensorUuid,
        subjectName: sensor.name,
        severity: 'warning',
        message: {
          key: 'monitor.sensorSilent',
          params: {
            sensor: sensor.name,
            since: { clock: last, zone: plant.timezone },
            age: { duration: now - last },
            interval: { duration: sensor.expectedIntervalSeconds * 1000 },
          },
        },
        link: historyLink(plant.timezone, last, now),
      };
    });
}

export function pvHealth(plant: PlantSnapshot): Finding[] {
  const health = plant.health;
  if (!health || (health.status !== 'DEGRADED' && health.status !== 'FAULT')) return [];
  const status = { key: `monitor.healthStatus.${health.status}` };
  return [
    {
      rule: 'PV_HEALTH',
      subjectUuid: null,
      subjectName: null,
      severity: health.status === 'FAULT' ? 'critical' : 'warning',
      message:
        health.performancePercent === null
          ? { key: 'monitor.pvHealth', params: { status } }
          : {
              key: 'monitor.pvHealthPerformance',
              params: { status, performance: { percent: health.performancePercent / 100 } },
            },
      link: { view: 'dashboard' },
    },
  ];
}

/** The sensors whose values make a flow: plant-level meters when there are, else the devices'. */
function flowMeters(sensors: readonly SensorStatus[], flow: SensorStatus['flow']) {
  const power = sensors.filter((sensor) => sensor.flow === flow && sensor.dataType === 'POWER');
  const plantLevel = power.filter((sensor) => sensor.deviceUuid === null);
  return plantLevel.length > 0 ? plantLevel : power;
}

export function noProduction(plant: PlantSnapshot, now: number): Finding[] {
  const { site, sensors } = plant;
  if (!site || !sensors) return [];
  const producers = sensors.filter(
    (sensor) =>
      sensor.flow === 'PRODUCTION' && (sensor.dataType === 'POWER' || sensor.dataType === 'ENERGY'),
  );
  if (producers.length === 0 || !producers.every(isReporting)) return [];
  if (!producers.every((sensor) => sensor.valueAtRest && sensor.lastChangedAt !== null)) return [];
  const restingSince = Math.max(...producers.map((sensor) => ms(sensor.lastChangedAt)!));
  const model = createPvModel(site);
  const threshold = NO_PRODUCTION_MIN_CLEAR_SKY_SHARE * site.pv.peakPowerKw * 1000;
  let daylightMs = 0;
  let clearSkyNowW = 0;
  for (
    let time = Math.max(restingSince, now - DAYLIGHT_LOOKBACK_MS);
    time < now;
    time += DAYLIGHT_STEP_MS
  ) {
    const sample = model.clearSkySample(time, FORECAST_AMBIENT_C);
    if (sample.sun.elevationDeg > DAYLIGHT_SUN_ELEVATION_DEG && sample.acPowerW > threshold) {
      daylightMs += Math.min(DAYLIGHT_STEP_MS, now - time);
    }
    clearSkyNowW = sample.acPowerW;
  }
  if (daylightMs < NO_PRODUCTION_DAYLIGHT_MS) return [];
  const share = clearSkyNowW / (site.pv.peakPowerKw * 1000);
  return [
    {
      rule: 'NO_PRODUCTION',
      subjectUuid: producers[0]!.sensorUuid,
      subjectName: producers[0]!.name,
      severity: 'critical',
      message: {
        key: 'monitor.noProduction',
        params: {
          since: { clock: restingSince, zone: plant.timezone },
          daylight: { duration: daylightMs },
          clearSky: { power: clearSkyNowW },
          share: { percent: share },
          peak: { number: site.pv.peakPowerKw },
        },
      },
      link: historyLink(plant.timezone, restingSince, now),
    },
  ];
}

export function aboveClearSky(plant: PlantSnapshot, now: number): Finding[] {
  const { site, sensors } = plant;
  if (!site || !sensors) return [];
  const meters = flowMeters(sensors, 'PRODUCTION').filter((sensor) => sensor.state === 'REPORTING');
  const values = meters.map(powerW);
  if (meters.length === 0 || values.some((value) => value === null)) return [];
  const producedW = values.reduce((sum: number, value) => sum + value!, 0);
  const at = Math.max(...meters.map((sensor) => ms(sensor.lastReadingAt)!));
  const peakW = site.pv.peakPowerKw * 1000;
  const clearSkyW = createPvModel(site).clearSkySample(at, FORECAST_AMBIENT_C).acPowerW;
  const allowedW = Math.max(clearSkyW * CLEAR_SKY_ENHANCEMENT, BALANCE_PEAK_SHARE * peakW);
  if (producedW <= allowedW) return [];
  return [
    {
      rule: 'ABOVE_CLEAR_SKY',
      subjectUuid: meters[0]!.sensorUuid,
      subjectName: meters[0]!.name,
      severity: 'warning',
      message: {
        key: 'monitor.aboveClearSky',
        params: {
          produced: { power: producedW },
          at: { clock: at, zone: plant.timezone },
          clearSky: { power: clearSkyW },
          peak: { number: site.pv.peakPowerKw },
          ratio: { number: producedW / Math.max(clearSkyW, 1), digits: 1, minDigits: 1 },
        },
      },
      link: historyLink(plant.timezone, at - 3 * 3_600_000, now),
    },
  ];
}

interface BalanceTerm {
  flow: 'PRODUCTION' | 'CONSUMPTION' | 'GRID' | 'STORAGE';
  sensors: SensorStatus[];
  /** Summed power, W; each term signed by the conventions (grid import +, discharge +). */
  valueW: number;
}

/**
 * The plant's power balance at its meters' last readings (consumption = production + grid +
 * storage), when a grid and a consumption meter report at about the same moment; null otherwise.
 */
function balanceOf(sensors: readonly SensorStatus[]): BalanceTerm[] | null {
  const terms: BalanceTerm[] = [];
  for (const flow of ['PRODUCTION', 'CONSUMPTION', 'GRID', 'STORAGE'] as const) {
    const meters = flowMeters(sensors, flow);
    if (meters.length === 0) continue;
    if (!meters.every((sensor) => sensor.state === 'REPORTING' && powerW(sensor) !== null)) {
      return null;
    }
    terms.push({
      flow,
      sensors: meters,
      valueW: meters.reduce((sum, sensor) => sum + powerW(sensor)!, 0),
    });
  }
  if (!terms.some((term) => term.flow === 'GRID') || !terms.some((t) => t.flow === 'CONSUMPTION')) {
    return null;
  }
  const times = terms.flatMap((term) => term.sensors.map((sensor) => ms(sensor.lastReadingAt)!));
  return Math.max(...times) - Math.min(...times) <= SAME_MOMENT_MS ? terms : null;
}

/** What one term should read by the others: consumption = production + grid + storage. */
function impliedW(terms: readonly BalanceTerm[], flow: BalanceTerm['flow']): number {
  const value = (name: BalanceTerm['flow']) =>
    terms.find((term) => term.flow === name)?.valueW ?? 0;
  switch (flow) {
    case 'CONSUMPTION':
      return value('PRODUCTION') + value('GRID') + value('STORAGE');
    case 'GRID':
      return value('CONSUMPTION') - value('PRODUCTION') - value('STORAGE');
    case 'PRODUCTION':
      return value('CONSUMPTION') - value('GRID') - value('STORAGE');
    case 'STORAGE':
      return value('CONSUMPTION') - value('PRODUCTION') - value('GRID');
  }
}

const balanceThresholdW = (plant: PlantSnapshot) =>
  Math.max(BALANCE_MIN_W, BALANCE_PEAK_SHARE * (plant.site?.pv.peakPowerKw ?? 0) * 1000);

const gridWords = (valueW: number): HostText =>
  valueW >= 0
    ? { key: 'monitor.gridImport', params: { power: { power: valueW } } }
    : { key: 'monitor.gridExport', params: { power: { power: -valueW } } };

const balanceWords = (key: string, valueW: number | undefined): HostText[] =>
  valueW === undefined ? [] : [{ key, params: { power: { power: valueW } } }];

export function gridSign(plant: PlantSnapshot, now: number): Finding[] {
  const terms = plant.sensors ? balanceOf(plant.sensors) : null;
  if (!terms) return [];
  const grid = terms.find((term) => term.flow === 'GRID')!;
  const expected = impliedW(terms, 'GRID');
  const threshold = balanceThresholdW(plant);
  const contradicts =
    (grid.valueW > threshold && expected < -threshold) ||
    (grid.valueW < -threshold && expected > threshold);
  if (!contradicts) return [];
  const value = (flow: BalanceTerm['flow']) => terms.find((term) => term.flow === flow)?.valueW;
  return [
    {
      rule: 'GRID_SIGN',
      subjectUuid: grid.sensors[0]!.sensorUuid,
      subjectName: grid.sensors[0]!.name,
      severity: 'warning',
      message: {
        key: 'monitor.gridSign',
        params: {
          reading: gridWords(grid.valueW),
          balance: {
            list: [
              ...balanceWords('monitor.balance.consumption', value('CONSUMPTION')),
              ...balanceWords('monitor.balance.production', value('PRODUCTION')),
              ...balanceWords('monitor.balance.battery', value('STORAGE')),
            ],
          },
          expected: gridWords(expected),
        },
      },
      link: historyLink(plant.timezone, now - 3_600_000, now),
    },
  ];
}

export function meterUnits(plant: PlantSnapshot): Finding[] {
  const terms = plant.sensors ? balanceOf(plant.sensors) : null;
  if (!terms || terms.length < 3) return [];
  const threshold = balanceThresholdW(plant);
  return terms.flatMap((term): Finding[] => {
    const expected = impliedW(terms, term.flow);
    if (Math.abs(expected) < threshold || Math.sign(expected) !== Math.sign(term.valueW)) {
      return [];
    }
    const ratio = term.valueW / expected;
    if (ratio < KILO_LOW || ratio > KILO_HIGH) return [];
    const sensor = term.sensors[0]!;
    return [
      {
        rule: 'METER_UNITS',
        subjectUuid: sensor.sensorUuid,
        subjectName: sensor.name,
        severity: 'warning',
        message: {
          key: 'monitor.meterUnits',
          params: {
            sensor: sensor.name,
            reading: { power: term.valueW },
            expected: { power: expected },
            factor: Math.round(1 / ratio),
          },
        },
        link: { view: 'sensors' },
      },
    ];
  });
}

export function socStuck(plant: PlantSnapshot, now: number): Finding[] {
  return (plant.sensors ?? [])
    .filter(
      (sensor) =>
        sensor.dataType === 'STATE_OF_CHARGE' &&
        sensor.state === 'REPORTING' &&
        sensor.lastChangedAt !== null &&
        now - ms(sensor.lastChangedAt)! >= SOC_STUCK_MS,
    )
    .map((sensor) => {
      const since = ms(sensor.lastChangedAt)!;
      return {
        rule: 'SOC_STUCK',
        subjectUuid: sensor.sensorUuid,
        subjectName: sensor.name,
        severity: 'warning',
        message: {
          key: 'monitor.socStuck',
          params: {
            sensor: sensor.name,
            value: sensor.lastValue === null ? '—' : { number: sensor.lastValue },
            unit: sensor.unit ?? '',
            since: { clock: since, zone: plant.timezone },
            age: { duration: now - since },
          },
        },
        link: historyLink(plant.timezone, since, now),
      };
    });
}

// ── All rules ─────────────────────────────────────────────────────────────────────────────

/** Which rules the snapshot lets us judge: an unknown input neither opens nor clears an alert. */
export function judgeableRules(plant: PlantSnapshot): Set<AlertRule> {
  const rules = new Set<AlertRule>();
  if (plant.health) rules.add('PV_HEALTH');
  if (plant.sensors) {
    for (const rule of [
      'SENSOR_SILENT',
      'NO_PRODUCTION',
      'ABOVE_CLEAR_SKY',
      'GRID_SIGN',
      'METER_UNITS',
      'SOC_STUCK',
    ] as const) {
      rules.add(rule);
    }
  }
  return rules;
}

export function evaluatePlant(plant: PlantSnapshot, now: number): Finding[] {
  return [
    ...sensorSilent(plant, now),
    ...pvHealth(plant),
    ...noProduction(plant, now),
    ...aboveClearSky(plant, now),
    ...gridSign(plant, now),
    ...meterUnits(plant),
    ...socStuck(plant, now),
  ];
}
