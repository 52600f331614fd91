import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { SensorFlow } from '../../../api/schemas/sensors.ts';
import type { Formatters } from '../../../i18n/format.ts';
import type { Translate } from '../../../i18n/translator.ts';

/**
 * The commissioning checklist (wizard step 5), as a pure function of what the API answered:
 * the plant, its devices and sensors read with `includeRelationships=true`, the result of
 * re-testing each sensor's connection, and the latest readings of the plant's production and
 * consumption flows. Each check passes or fails with a reason a person can act on.
 *
 * What the checks rely on (the decisions file, "Measurements"): a plant's production is its
 * PRODUCTION sensors that measure power or energy (the plant-level ones when there are any, else
 * the device-level ones); its consumption is its CONSUMPTION sensors likewise, else, when the
 * grid is measured, the balance production + grid + storage. Those are the sensors whose
 * readings the API reads back (the sensor-history routes); the others' readings are not
 * readable through the API and are named, not checked.
 *
 * The words are the chosen language's (`CheckWords`): a result holds text, so the caller runs
 * the checks again when the language changes (useCommissioning does, in a computed).
 */

export const CHECK_IDS = [
  'devicesHaveSensors',
  'productionMeasured',
  'consumptionMeasured',
  'connectionsPass',
  'readingsArrived',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export interface CheckResult {
  id: CheckId;
  title: string;
  passed: boolean;
  /** One sentence: why it passed or failed. */
  reason: string;
  /** Per device or sensor, when there is more to say. */
  details: string[];
}

export interface Verification {
  checks: CheckResult[];
  /** True when every check passed. */
  passed: boolean;
  /** When the checks ran (ISO 8601, UTC). */
  checkedAt: string;
}

/** What re-testing one sensor's connection gave. */
export type ConnectionTestResult =
  | { status: 'passed' }
  | { status: 'failed'; message: string }
  /** The test could not run (no permission, network): not a verdict on the connection. */
  | { status: 'error'; message: string };

/** The latest readings of a flow over the window read (sensor-history, raw samples). */
export type FlowReadings =
  | {
      /** The latest sample instant with data (ISO 8601), or null when the window has none. */
      latestAt: string | null;
      /** Share of the flow's sensors holding a reading at that instant, 0..1. */
      coverage: number;
    }
  | { error: string };

export type EnergyFlow = 'production' | 'consumption';

export interface VerificationInput {
  plant: Pick<Plant, 'name' | 'pv'>;
  /** Read with includeRelationships=true. */
  devices: readonly Device[];
  /** Read with includeRelationships=true. */
  sensors: readonly Sensor[];
  /** By sensor uuid, for the sensors that have a connection. */
  connectionTests: ReadonlyMap<string, ConnectionTestResult>;
  /** For each flow the plant measures (see `measuredFlows`). */
  readings: Partial<Record<EnergyFlow, FlowReadings>>;
  now: Date;
  /** How recent the latest reading must be. Default FRESH_READING_MINUTES. */
  freshMinutes?: number;
}

/** "In the last minutes": a reading at most this old counts as arrived. */
export const FRESH_READING_MINUTES = 5;
/** The window the latest readings are looked for in (minutes before now). */
export const READINGS_WINDOW_MINUTES = 15;

const ENERGY_DATA_TYPES = new Set(['POWER', 'ENERGY']);
const PRODUCER_DEVICE_CODES = new Set(['INVERTER']);

/** The sensor's readings are power or energy (what production and consumption are made of). */
export function measuresEnergy(sensor: Sensor): boolean {
  return (sensor.relationships?.dataTypesCollects ?? []).some((dataType) =>
    ENERGY_DATA_TYPES.has(dataType.code),
  );
}

const energySensorsOf = (sensors: readonly Sensor[], flow: SensorFlow) =>
  sensors.filter((sensor) => sensor.flow === flow && measuresEnergy(sensor));

/** The plant-level sensors when there are any (they measure the whole plant), else all. */
function preferPlantLevel(sensors: Sensor[]): Sensor[] {
  const plantLevel = sensors.filter((sensor) => sensor.deviceUuid === null);
  return plantLevel.length > 0 ? plantLevel : sensors;
}

/** The sensors that make each flow, as the server combines them (module comment). */
export function flowSensors(sensors: readonly Sensor[]): Record<EnergyFlow, Sensor[]> {
  const production = preferPlantLevel(energySensorsOf(sensors, 'PRODUCTION'));
  const consumptionMeters = preferPlantLevel(energySensorsOf(sensors, 'CONSUMPTION'));
  const grid = preferPlantLevel(energySensorsOf(sensors, 'GRID'));
  const storage = preferPlantLevel(energySensorsOf(sensors, 'STORAGE'));
  const consumption =
    consumptionMeters.length > 0
      ? consumptionMeters
      : grid.length > 0
        ? [...production, ...grid, ...storage]
        : [];
  return { production, consumption };
}

/** The flows whose readings the API can read back for this plant. */
export function measuredFlows(sensors: readonly Sensor[]): EnergyFlow[] {
  const flows = flowSensors(sensors);
  return (['production', 'consumption'] as const).filter((flow) => flows[flow].length > 0);
}

/** Devices that produce PV power: the PRODUCER category (or an inverter). */
function producerDevices(devices: readonly Device[]): Device[] {
  return devices.filter((device) => {
    const type = device.relationships?.deviceType;
    return type ? type.category === 'PRODUCER' || PRODUCER_DEVICE_CODES.has(type.code) : false;
  });
}

/** What the checks put into words with: the chosen language's messages and formatters. */
export interface CheckWords {
  t: Translate;
  f: Formatters;
}

/** “Roof”, “Garage” with the language's own quotation marks. */
const quoted = (t: Translate, names: readonly string[]) =>
  names.map((name) => t('checks.quoted', { name })).join(', ');
/** "A and B and C" as the language joins them. */
const joined = (t: Translate, parts: readonly string[]) =>
  parts.reduce((first, second) => t('checks.and', { first, second }));

function devicesHaveSensors(input: VerificationInput, { t }: CheckWords): CheckResult {
  const base = { id: 'devicesHaveSensors' as const, title: t('checks.titles.devicesHaveSensors') };
  if (input.devices.length === 0) {
    return { ...base, passed: false, reason: t('checks.devices.none'), details: [] };
  }
  const linkedTo = new Map<string, string[]>();
  for (const sensor of input.sensors) {
    if (sensor.deviceUuid) {
      linkedTo.set(sensor.deviceUuid, [...(linkedTo.get(sensor.deviceUuid) ?? []), sensor.name]);
    }
  }
  const sensorsOf = (device: Device) =>
    device.relationships?.sensors.map((sensor) => sensor.name) ??
    linkedTo.get(device.deviceUuid) ??
    [];
  const details = input.devices.map((device) => {
    const names = sensorsOf(device);
    return names.length > 0
      ? t('checks.devices.measuredBy', { device: device.name, sensors: quoted(t, names) })
      : t('checks.devices.noSensor', { device: device.name });
  });
  const missing = input.devices.filter((device) => sensorsOf(device).length === 0);
  if (missing.length > 0) {
    return {
      ...base,
      passed: false,
      reason: t('checks.devices.missing', {
        devices: quoted(
          t,
          missing.map((device) => device.name),
        ),
      }),
      details,
    };
  }
  return {
    ...base,
    passed: true,
    reason: t('checks.devices.passed', {}, input.devices.length),
    details,
  };
}

function productionMeasured(input: VerificationInput, { t, f }: CheckWords): CheckResult {
  const base = { id: 'productionMeasured' as const, title: t('checks.titles.productionMeasured') };
  const sources = [
    ...(input.plant.pv
      ? [t('checks.production.pvSettings', { peak: f.number(input.plant.pv.peakPowerKw, 3) })]
      : []),
    ...producerDevices(input.devices).map((device) =>
      t('checks.production.producer', {
        type: device.relationships?.deviceType.name ?? t('checks.production.producerType'),
        device: quoted(t, [device.name]),
      }),
    ),
  ];
  const sensors = energySensorsOf(input.sensors, 'PRODUCTION');
  if (sources.length === 0) {
    return { ...base, passed: true, reason: t('checks.production.noPv'), details: [] };
  }
  const pv = joined(t, sources);
  if (sensors.length === 0) {
    return {
      ...base,
      passed: false,
      reason: t('checks.production.unmeasured', { pv }),
      details: [],
    };
  }
  return {
    ...base,
    passed: true,
    reason: t('checks.production.measured', {
      pv,
      sensors: quoted(
        t,
        sensors.map((sensor) => sensor.name),
      ),
    }),
    details: [],
  };
}

function consumptionMeasured(input: VerificationInput, { t }: CheckWords): CheckResult {
  const base = {
    id: 'consumptionMeasured' as const,
    title: t('checks.titles.consumptionMeasured'),
  };
  const consumption = energySensorsOf(input.sensors, 'CONSUMPTION');
  const grid = energySensorsOf(input.sensors, 'GRID');
  if (consumption.length === 0 && grid.length === 0) {
    return { ...base, passed: false, reason: t('checks.consumption.none'), details: [] };
  }
  const names = (sensors: Sensor[]) =>
    quoted(
      t,
      sensors.map((sensor) => sensor.name),
    );
  const parts = [
    ...(consumption.length > 0
      ? [t('checks.consumption.consumptionBy', { sensors: names(consumption) })]
      : []),
    ...(grid.length > 0 ? [t('checks.consumption.gridBy', { sensors: names(grid) })] : []),
  ].join('; ');
  return {
    ...base,
    passed: true,
    reason:
      consumption.length === 0
        ? t('checks.consumption.measuredDerived', { parts })
        : t('checks.consumption.measured', { parts }),
    details: [],
  };
}

function connectionsPass(input: VerificationInput, { t }: CheckWords): CheckResult {
  const base = { id: 'connectionsPass' as const, title: t('checks.titles.connectionsPass') };
  if (input.sensors.length === 0) {
    return { ...base, passed: false, reason: t('checks.connections.none'), details: [] };
  }
  const failures: string[] = [];
  const details = input.sensors.map((sensor) => {
    if (!sensor.connection) {
      failures.push(sensor.name);
      return t('checks.connections.noConnection', { sensor: sensor.name });
    }
    const test = input.connectionTests.get(sensor.sensorUuid);
    const named = { sensor: sensor.name, address: sensor.connection.address };
    if (!test) {
      failures.push(sensor.name);
      return t('checks.connections.notTested', named);
    }
    if (test.status === 'passed') return t('checks.connections.testPassed', named);
    failures.push(sensor.name);
    return test.status === 'failed'
      ? t('checks.connections.testFailed', { ...named, message: test.message })
      : t('checks.connections.notTestable', { ...named, message: test.message });
  });
  if (failures.length > 0) {
    return {
      ...base,
      passed: false,
      reason: t(
        'checks.connections.failed',
        { total: input.sensors.length, sensors: quoted(t, failures) },
        failures.length,
      ),
      details,
    };
  }
  return {
    ...base,
    passed: true,
    reason: t('checks.connections.passed', {}, input.sensors.length),
    details,
  };
}

/** "40 s ago", "3 min ago". */
export function ageText(fromMs: number, nowMs: number, t: Translate): string {
  const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (seconds < 90) return t('checks.age.seconds', { n: seconds });
  return t('checks.age.minutes', { n: Math.round(seconds / 60) });
}

function readingsArrived(input: VerificationInput, { t }: CheckWords): CheckResult {
  const base = { id: 'readingsArrived' as const, title: t('checks.titles.readingsArrived') };
  const freshMinutes = input.freshMinutes ?? FRESH_READING_MINUTES;
  const flows = flowSensors(input.sensors);
  const measured = measuredFlows(input.sensors);
  const observed = new Set(
    [...flows.production, ...flows.consumption].map((sensor) => sensor.sensorUuid),
  );
  const unobserved = input.sensors.filter((sensor) => !observed.has(sensor.sensorUuid));
  const note =
    unobserved.length > 0
      ? [
          t('checks.readings.notChecked', {
            sensors: quoted(
              t,
              unobserved.map((sensor) => sensor.name),
            ),
          }),
        ]
      : [];
  if (measured.length === 0) {
    return { ...base, passed: false, reason: t('checks.readings.noneMeasured'), details: note };
  }

  const nowMs = input.now.getTime();
  const problems: string[] = [];
  const details = measured.map((flow) => {
    const named = {
      flow: t(`checks.readings.flows.${flow}`),
      sensors: quoted(
        t,
        flows[flow].map((sensor) => sensor.name),
      ),
    };
    const readings = input.readings[flow];
    if (!readings) {
      problems.push(t('checks.readings.problems.notRead', named));
      return t('checks.readings.details.notRead', named);
    }
    if ('error' in readings) {
      problems.push(t('checks.readings.problems.error', { ...named, error: readings.error }));
      return t('checks.readings.details.error', { ...named, error: readings.error });
    }
    if (readings.latestAt === null) {
      problems.push(t('checks.readings.problems.none', named, READINGS_WINDOW_MINUTES));
      return t('checks.readings.details.none', named, READINGS_WINDOW_MINUTES);
    }
    const latestMs = Date.parse(readings.latestAt);
    const age = ageText(latestMs, nowMs, t);
    if (nowMs - latestMs > freshMinutes * 60_000) {
      problems.push(t('checks.readings.problems.stale', { ...named, age }));
      return t('checks.readings.details.stale', { ...named, age }, freshMinutes);
    }
    if (readings.coverage < 1) {
      const percent = Math.round(readings.coverage * 100);
      problems.push(t('checks.readings.problems.coverage', { ...named, percent }));
      return t('checks.readings.details.coverage', { ...named, age, percent });
    }
    return t('checks.readings.details.fresh', { ...named, age });
  });
  if (problems.length > 0) {
    return {
      ...base,
      passed: false,
      reason: t('checks.readings.failed', { problems: problems.join('; ') }),
      details: [...details, ...note],
    };
  }
  return {
    ...base,
    passed: true,
    reason: t(
      'checks.readings.passed',
      {
        flows: joined(
          t,
          measured.map((flow) => t(`checks.readings.flowsInline.${flow}`)),
        ),
      },
      freshMinutes,
    ),
    details: [...details, ...note],
  };
}

/** Runs every check; see the module comment. */
export function verifyCommissioning(input: VerificationInput, words: CheckWords): Verification {
  const checks = [
    devicesHaveSensors(input, words),
    productionMeasured(input, words),
    consumptionMeasured(input, words),
    connectionsPass(input, words),
    readingsArrived(input, words),
  ];
  return {
    checks,
    passed: checks.every((check) => check.passed),
    checkedAt: input.now.toISOString(),
  };
}

/** The latest instant with data of a sensor-history series of raw samples. */
export function latestReadings(points: readonly { timestamp: string; coverage: number }[]): {
  latestAt: string | null;
  coverage: number;
} {
  for (let index = points.length - 1; index >= 0; index--) {
    const point = points[index]!;
    if (point.coverage > 0) return { latestAt: point.timestamp, coverage: point.coverage };
  }
  return { latestAt: null, coverage: 0 };
}
