import type { SensorStatus } from '../../../api/schemas/fleet.ts';
import type { Sensor } from '../../../api/schemas/relationships.ts';
import type { SensorFlow } from '../../../api/schemas/sensors.ts';
import type { Translate } from '../../../i18n/translator.ts';
import { flowSensors, type EnergyFlow } from './commissioningChecks.ts';

/**
 * Each sensor's readings of the last 15 minutes, as the live readings and the wiring checks use
 * them, from whichever source the server has:
 *
 * - `extension`: `sensor-statuses?recent=true` gives every sensor its own recent readings;
 * - `specification`: only the plant's combined production and consumption can be read (the
 *   sensor-history routes), so a sensor that makes one of those flows shows the flow, and the
 *   others have no live values from this server.
 */

/** The window shown and checked, as the wiring checks' WINDOW_MS. */
export const LIVE_WINDOW_MS = 15 * 60_000;

export interface LivePoint {
  /** Epoch ms. */
  at: number;
  value: number;
}

export type LiveSource =
  /** The sensor's own readings. */
  | 'sensor'
  /** The plant's flow this sensor is (part of), as the server combines it. */
  | 'flow'
  /** Nothing readable from this server. */
  | 'none';

export interface LiveSensor {
  sensorUuid: string;
  name: string;
  deviceUuid: string | null;
  flow: SensorFlow;
  /** The primary data type: what the readings are. */
  dataType: string | null;
  unit: string | null;
  signInverted: boolean;
  source: LiveSource;
  /** Oldest first, within the window; null when `source` is 'none'. */
  recent: LivePoint[] | null;
  /** For `source` 'flow': how many meters the flow combines (more than one: not this sensor alone). */
  flowMeters?: number;
}

export type LiveMode = 'extension' | 'specification';

export interface LiveReadings {
  mode: LiveMode;
  sensors: LiveSensor[];
  /** The plant's combined flows (W) when read through the specification's routes. */
  flows: Partial<Record<EnergyFlow, LivePoint[]>>;
  /** When they were read (the app's clock, epoch ms): ages count to it. */
  loadedAt: number;
}

/** The server answered `recent` for every sensor: the extension is there. */
export function hasRecent(statuses: readonly SensorStatus[]): boolean {
  return statuses.length > 0 && statuses.every((status) => Array.isArray(status.recent));
}

const byTime = (a: LivePoint, b: LivePoint) => a.at - b.at;

/** Points within the window ending at `nowMs`, oldest first. */
export function inLiveWindow(points: readonly LivePoint[], nowMs: number): LivePoint[] {
  return points
    .filter((point) => point.at > nowMs - LIVE_WINDOW_MS && point.at <= nowMs)
    .sort(byTime);
}

/** Live readings from `sensor-statuses?recent=true`. */
export function fromStatuses(
  statuses: readonly SensorStatus[],
  nowMs: number,
  signInverted: ReadonlyMap<string, boolean> = new Map(),
): LiveSensor[] {
  return statuses.map((status) => ({
    sensorUuid: status.sensorUuid,
    name: status.name,
    deviceUuid: status.deviceUuid,
    flow: status.flow,
    dataType: status.dataType,
    unit: status.unit,
    signInverted: signInverted.get(status.sensorUuid) ?? false,
    source: 'sensor',
    recent: inLiveWindow(
      (status.recent ?? []).map((point) => ({ at: Date.parse(point.at), value: point.value })),
      nowMs,
    ),
  }));
}

/** POWER if collected, else ENERGY, else the first by code: the server's primary data type. */
export function primaryDataType(sensor: Sensor): { code: string; unit: string } | null {
  const collected = sensor.relationships?.dataTypesCollects ?? [];
  const power = collected.find((dataType) => dataType.code === 'POWER');
  const energy = collected.find((dataType) => dataType.code === 'ENERGY');
  const first = [...collected].sort((a, b) => a.code.localeCompare(b.code))[0];
  const chosen = power ?? energy ?? first;
  return chosen ? { code: chosen.code, unit: chosen.unit } : null;
}

/**
 * Live readings through the specification's routes: a production sensor shows the plant's
 * production (W) when it is one of the sensors that make it, a consumption sensor likewise;
 * every other sensor (grid, storage, ambient, and consumption derived from the grid) has none.
 */
export function fromFlows(
  sensors: readonly Sensor[],
  flows: Partial<Record<EnergyFlow, readonly LivePoint[]>>,
  nowMs: number,
): LiveSensor[] {
  const makers = flowSensors(sensors);
  const flowOf = (sensor: Sensor): EnergyFlow | null => {
    if (sensor.flow === 'PRODUCTION' && makers.production.includes(sensor)) return 'production';
    if (sensor.flow === 'CONSUMPTION' && makers.consumption.includes(sensor)) return 'consumption';
    return null;
  };
  return sensors.map((sensor): LiveSensor => {
    const flow = flowOf(sensor);
    const points = flow ? flows[flow] : undefined;
    const primary = primaryDataType(sensor);
    const base = {
      sensorUuid: sensor.sensorUuid,
      name: sensor.name,
      deviceUuid: sensor.deviceUuid,
      flow: sensor.flow,
      dataType: primary?.code ?? null,
      unit: primary?.unit ?? null,
      signInverted: sensor.signInverted ?? false,
    };
    if (!flow || !points) return { ...base, source: 'none', recent: null };
    // The flow is power in W whatever the meters' own data type.
    return {
      ...base,
      dataType: 'POWER',
      unit: 'W',
      source: 'flow',
      recent: inLiveWindow([...points], nowMs),
      flowMeters: makers[flow].length,
    };
  });
}

/**
 * The readings with each sensor's `signInverted` as the sensor resource says (the statuses do
 * not carry it): the direction test words its advice by it.
 */
export function withSignInverted(
  readings: LiveReadings | null,
  sensors: readonly Pick<Sensor, 'sensorUuid' | 'signInverted'>[],
): LiveReadings | null {
  if (!readings) return null;
  const inverted = new Map(sensors.map((sensor) => [sensor.sensorUuid, sensor.signInverted]));
  return {
    ...readings,
    sensors: readings.sensors.map((sensor) => ({
      ...sensor,
      signInverted: inverted.get(sensor.sensorUuid) ?? sensor.signInverted,
    })),
  };
}

/** The latest point of a sensor, or null. */
export const latestPoint = (sensor: Pick<LiveSensor, 'recent'>): LivePoint | null =>
  sensor.recent && sensor.recent.length > 0 ? sensor.recent[sensor.recent.length - 1]! : null;

/** Sensor-history points (`{timestamp, value, coverage}`) with data, as live points. */
export function pointsOfHistory(
  points: readonly { timestamp: string; value: number | null; coverage: number }[],
): LivePoint[] {
  return points
    .filter((point) => point.coverage > 0 && point.value !== null)
    .map((point) => ({ at: Date.parse(point.timestamp), value: point.value! }));
}

/** "min 120 W, max 2.4 kW, latest 1.1 kW": the sparkline's text alternative. */
export function sparklineSummary(
  points: readonly LivePoint[],
  format: (value: number) => string,
  t: Translate,
): string {
  if (points.length === 0) return t('commissioning.live.sparkline.none');
  const values = points.map((point) => point.value);
  return t(
    'commissioning.live.sparkline.summary',
    {
      lowest: format(Math.min(...values)),
      highest: format(Math.max(...values)),
      latest: format(values[values.length - 1]!),
    },
    points.length,
  );
}
