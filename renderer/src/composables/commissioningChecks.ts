import type { Plant } from '../../../api/schemas/plants.ts';
import type { Device, Sensor } from '../../../api/schemas/relationships.ts';
import type { SensorFlow } from '../../../api/schemas/sensors.ts';

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
 */

export const CHECK_IDS = [
  'devicesHaveSensors',
  'productionMeasured',
  'consumptionMeasured',
  'connectionsPass',
  'readingsArrived',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export const CHECK_TITLES: Record<CheckId, string> = {
  devicesHaveSensors: 'Every device has a sensor',
  productionMeasured: 'Production is measured where there is PV',
  consumptionMeasured: 'Consumption or grid is measured',
  connectionsPass: "Every sensor's connection passes its test",
  readingsArrived: 'First readings arrived in the last minutes',
};

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

const quoted = (names: readonly string[]) => names.map((name) => `“${name}”`).join(', ');
const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

function devicesHaveSensors(input: VerificationInput): CheckResult {
  const base = { id: 'devicesHaveSensors' as const, title: CHECK_TITLES.devicesHaveSensors };
  if (input.devices.length === 0) {
    return {
      ...base,
      passed: false,
      reason: 'The plant has no devices yet: add them in step 3, Devices.',
      details: [],
    };
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
      ? `${device.name}: measured by ${quoted(names)}`
      : `${device.name}: no sensor linked`;
  });
  const missing = input.devices.filter((device) => sensorsOf(device).length === 0);
  if (missing.length > 0) {
    return {
      ...base,
      passed: false,
      reason: `No sensor is linked to ${quoted(missing.map((device) => device.name))}: link one in step 3, Devices.`,
      details,
    };
  }
  return {
    ...base,
    passed: true,
    reason:
      input.devices.length === 1
        ? 'The device has a sensor.'
        : `Each of the ${input.devices.length} devices has a sensor.`,
    details,
  };
}

function productionMeasured(input: VerificationInput): CheckResult {
  const base = { id: 'productionMeasured' as const, title: CHECK_TITLES.productionMeasured };
  const sources = [
    ...(input.plant.pv ? [`PV settings of ${input.plant.pv.peakPowerKw} kWp`] : []),
    ...producerDevices(input.devices).map(
      (device) => `${device.relationships?.deviceType.name ?? 'producer'} “${device.name}”`,
    ),
  ];
  const sensors = energySensorsOf(input.sensors, 'PRODUCTION');
  if (sources.length === 0) {
    return {
      ...base,
      passed: true,
      reason:
        'The plant has no PV: no PV settings and no producing device, so no production to measure.',
      details: [],
    };
  }
  const pv = sources.join(' and ');
  if (sensors.length === 0) {
    return {
      ...base,
      passed: false,
      reason: `The plant has PV (${pv}) but no sensor with flow Production measuring power or energy: add one in step 2, Sensors.`,
      details: [],
    };
  }
  return {
    ...base,
    passed: true,
    reason: `PV (${pv}) is measured by ${quoted(sensors.map((sensor) => sensor.name))}.`,
    details: [],
  };
}

function consumptionMeasured(input: VerificationInput): CheckResult {
  const base = { id: 'consumptionMeasured' as const, title: CHECK_TITLES.consumptionMeasured };
  const consumption = energySensorsOf(input.sensors, 'CONSUMPTION');
  const grid = energySensorsOf(input.sensors, 'GRID');
  if (consumption.length === 0 && grid.length === 0) {
    return {
      ...base,
      passed: false,
      reason:
        'No sensor with flow Consumption or Grid measures power or energy: add a consumption meter or a grid meter in step 2, Sensors.',
      details: [],
    };
  }
  const parts = [
    ...(consumption.length > 0
      ? [`consumption by ${quoted(consumption.map((sensor) => sensor.name))}`]
      : []),
    ...(grid.length > 0 ? [`the grid by ${quoted(grid.map((sensor) => sensor.name))}`] : []),
  ];
  const derived =
    consumption.length === 0 ? ' (consumption follows from production, grid and storage)' : '';
  return {
    ...base,
    passed: true,
    reason: `Measured: ${parts.join('; ')}${derived}.`,
    details: [],
  };
}

function connectionsPass(input: VerificationInput): CheckResult {
  const base = { id: 'connectionsPass' as const, title: CHECK_TITLES.connectionsPass };
  if (input.sensors.length === 0) {
    return {
      ...base,
      passed: false,
      reason: 'The plant has no sensors yet: add them in step 2, Sensors.',
      details: [],
    };
  }
  const failures: string[] = [];
  const details = input.sensors.map((sensor) => {
    if (!sensor.connection) {
      failures.push(sensor.name);
      return `${sensor.name}: no connection, so nothing collects its readings`;
    }
    const test = input.connectionTests.get(sensor.sensorUuid);
    const where = sensor.connection.address;
    if (!test) {
      failures.push(sensor.name);
      return `${sensor.name} (${where}): not tested`;
    }
    if (test.status === 'passed') return `${sensor.name} (${where}): test passed`;
    failures.push(sensor.name);
    return test.status === 'failed'
      ? `${sensor.name} (${where}): test failed: ${test.message}`
      : `${sensor.name} (${where}): could not be tested: ${test.message}`;
  });
  if (failures.length > 0) {
    return {
      ...base,
      passed: false,
      reason: `${plural(failures.length, 'sensor')} of ${input.sensors.length} did not pass: ${quoted(failures)}.`,
      details,
    };
  }
  return {
    ...base,
    passed: true,
    reason:
      input.sensors.length === 1
        ? "The sensor's connection passed its test just now."
        : `All ${input.sensors.length} connections passed their test just now.`,
    details,
  };
}

/** "40 s ago", "3 min ago". */
export function ageText(fromMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  return `${Math.round(seconds / 60)} min ago`;
}

const FLOW_NAMES: Record<EnergyFlow, string> = {
  production: 'Production',
  consumption: 'Consumption',
};

function readingsArrived(input: VerificationInput): CheckResult {
  const base = { id: 'readingsArrived' as const, title: CHECK_TITLES.readingsArrived };
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
          `Not checked (the API does not read their readings back): ${quoted(unobserved.map((sensor) => sensor.name))}`,
        ]
      : [];
  if (measured.length === 0) {
    return {
      ...base,
      passed: false,
      reason:
        'No sensor measures production, consumption or the grid in power or energy, so no reading can be read back.',
      details: note,
    };
  }

  const nowMs = input.now.getTime();
  const problems: string[] = [];
  const details = measured.map((flow) => {
    const name = FLOW_NAMES[flow];
    const sensors = quoted(flows[flow].map((sensor) => sensor.name));
    const readings = input.readings[flow];
    if (!readings) {
      problems.push(`${name} was not read`);
      return `${name} (${sensors}): not read`;
    }
    if ('error' in readings) {
      problems.push(`${name} could not be read: ${readings.error}`);
      return `${name} (${sensors}): could not be read: ${readings.error}`;
    }
    if (readings.latestAt === null) {
      problems.push(`${name} has no reading in the last ${READINGS_WINDOW_MINUTES} minutes`);
      return `${name} (${sensors}): no reading in the last ${READINGS_WINDOW_MINUTES} minutes`;
    }
    const latestMs = Date.parse(readings.latestAt);
    const age = ageText(latestMs, nowMs);
    if (nowMs - latestMs > freshMinutes * 60_000) {
      problems.push(`${name}'s latest reading is ${age}`);
      return `${name} (${sensors}): latest reading ${age}, older than ${freshMinutes} minutes`;
    }
    if (readings.coverage < 1) {
      const percent = Math.round(readings.coverage * 100);
      problems.push(`${name}: only ${percent} % of its sensors have readings`);
      return `${name} (${sensors}): latest reading ${age}, but only ${percent} % of its sensors have one`;
    }
    return `${name} (${sensors}): latest reading ${age}`;
  });
  if (problems.length > 0) {
    return {
      ...base,
      passed: false,
      reason: `${problems.join('; ')}. New sensors get their first reading within a minute; check again shortly.`,
      details: [...details, ...note],
    };
  }
  return {
    ...base,
    passed: true,
    reason: `Readings arrived within the last ${freshMinutes} minutes for ${measured
      .map((flow) => FLOW_NAMES[flow].toLowerCase())
      .join(' and ')}.`,
    details: [...details, ...note],
  };
}

/** Runs every check; see the module comment. */
export function verifyCommissioning(input: VerificationInput): Verification {
  const checks = [
    devicesHaveSensors(input),
    productionMeasured(input),
    consumptionMeasured(input),
    connectionsPass(input),
    readingsArrived(input),
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
