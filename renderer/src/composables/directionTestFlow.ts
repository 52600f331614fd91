import type {
  DirectionChange,
  DirectionTestInput,
  DirectionTestMeter,
  Reading,
} from '../../../server/domain/wiring/index.ts';
import { wattsPerUnit } from '../../../server/domain/wiring/series.ts';
import type { LivePoint, LiveSensor } from './liveReadings.ts';

/**
 * The guided direction test's bookkeeping around directionTest(): which meters it watches (the
 * grid and consumption power meters with live values), which of their readings count as
 * "before" (the steady stretch up to the moment the user made the change) and "after" (once
 * the meters settled), and when enough has arrived to conclude.
 */

/** The stretch before the change that counts as "before". */
export const BEFORE_MS = 2 * 60_000;
/** Readings this soon after the change are the meter settling, not the new level. */
export const SETTLE_MS = 5_000;
/** Each meter needs this many readings after settling before the test concludes by itself. */
export const AFTER_READINGS = 2;

export type ChangeKind = DirectionChange['kind'];

/** The meters the test watches: grid and consumption power sensors with live values. */
export function directionMeters(sensors: readonly LiveSensor[]): LiveSensor[] {
  return sensors.filter(
    (sensor) =>
      (sensor.flow === 'GRID' || sensor.flow === 'CONSUMPTION') &&
      sensor.dataType === 'POWER' &&
      sensor.recent !== null,
  );
}

const toReadings = (points: readonly LivePoint[]): Reading[] =>
  points.map((point): Reading => [point.at, point.value]);

export const beforeStretch = (points: readonly LivePoint[], changedAt: number): LivePoint[] =>
  points.filter((point) => point.at > changedAt - BEFORE_MS && point.at <= changedAt);

export const afterStretch = (points: readonly LivePoint[], changedAt: number): LivePoint[] =>
  points.filter((point) => point.at >= changedAt + SETTLE_MS);

/**
 * Readings kept across loads: the live window is 15 minutes, so a reading seen once stays
 * (the "before" stretch must not slide out while the user walks to the fuse box).
 */
export function mergePoints(kept: readonly LivePoint[], fresh: readonly LivePoint[]): LivePoint[] {
  const byAt = new Map<number, LivePoint>();
  for (const point of [...kept, ...fresh]) byAt.set(point.at, point);
  return [...byAt.values()].sort((a, b) => a.at - b.at);
}

/** Every meter has enough readings after the change. */
export function settled(
  meters: readonly { points: readonly LivePoint[] }[],
  changedAt: number,
): boolean {
  return (
    meters.length > 0 &&
    meters.every((meter) => afterStretch(meter.points, changedAt).length >= AFTER_READINGS)
  );
}

export interface WatchedMeter {
  sensor: LiveSensor;
  /** Its readings seen since the test started, oldest first. */
  points: LivePoint[];
}

export function directionTestInput(
  change: DirectionChange,
  meters: readonly WatchedMeter[],
  changedAt: number,
): DirectionTestInput {
  return {
    change,
    meters: meters.map(({ sensor, points }): DirectionTestMeter => ({
      sensorUuid: sensor.sensorUuid,
      name: sensor.name,
      flow: sensor.flow as 'GRID' | 'CONSUMPTION',
      unit: sensor.unit,
      signInverted: sensor.signInverted,
      before: toReadings(beforeStretch(points, changedAt)),
      after: toReadings(afterStretch(points, changedAt)),
    })),
  };
}

/** The PV's power just now (W), for "switch the PV off": the mean of its last 2 minutes. */
export function currentProductionW(sensors: readonly LiveSensor[], nowMs: number): number | null {
  const producing = sensors.filter(
    (sensor) => sensor.flow === 'PRODUCTION' && sensor.dataType === 'POWER' && sensor.recent,
  );
  const perSensor = producing.map((sensor) => {
    const recent = beforeStretch(sensor.recent!, nowMs);
    const factor = wattsPerUnit(sensor.unit ?? 'W');
    if (recent.length === 0 || factor === null) return null;
    return (recent.reduce((sum, point) => sum + point.value, 0) / recent.length) * factor;
  });
  // A flow combined by the server counts once.
  const unique = producing.some((sensor) => sensor.source === 'flow')
    ? perSensor.slice(0, 1)
    : perSensor;
  if (unique.length === 0 || unique.some((value) => value === null)) return null;
  return unique.reduce((sum: number, value) => sum + value!, 0);
}
