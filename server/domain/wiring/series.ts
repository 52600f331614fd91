import type { Reading, WiringFlow, WiringInput, WiringSensor } from './types.ts';

/**
 * Readings as the checks look at them: power in W over the last 15 minutes, sampled on a
 * one-minute grid so that meters reporting at different instants can be compared instant by
 * instant. A reading holds until the next one but never for longer than 3 of the sensor's
 * sampling intervals (api-decisions, "Measurements"), so a gap is a gap, not a flat line.
 */

/** The window every check looks at. */
export const WINDOW_MS = 15 * 60_000;
/** Spacing of the instants meters are compared at. */
export const GRID_STEP_MS = 60_000;
const HOLD_INTERVALS = 3;
/** Hold of a series too short to tell its interval. */
const DEFAULT_HOLD_MS = 5 * 60_000;

const WATTS_PER_UNIT: Record<string, number> = { W: 1, kW: 1000, MW: 1e6 };

/** How many W one unit of `unit` is; null for a unit that is not power. */
export function wattsPerUnit(unit: string | null): number | null {
  return unit === null ? null : (WATTS_PER_UNIT[unit.trim()] ?? null);
}

/** The sensor reports power in a unit we can convert to W. */
export function isPowerSensor(sensor: WiringSensor): boolean {
  return sensor.dataType === 'POWER' && wattsPerUnit(sensor.unit ?? 'W') !== null;
}

/** The readings within the window ending at `now`, oldest first, values scaled by `factor`. */
export function inWindow(readings: readonly Reading[], now: number, factor = 1): Reading[] {
  return readings
    .filter(([atMs]) => atMs > now - WINDOW_MS && atMs <= now)
    .map(([atMs, value]): Reading => [atMs, value * factor])
    .sort((a, b) => a[0] - b[0]);
}

/** A sensor's readings of the window in W; null when unreadable or not power. */
export function powerReadingsW(sensor: WiringSensor, now: number): Reading[] | null {
  const factor = wattsPerUnit(sensor.unit ?? 'W');
  if (sensor.readings === null || sensor.dataType !== 'POWER' || factor === null) return null;
  return inWindow(sensor.readings, now, factor);
}

function holdMs(series: readonly Reading[]): number {
  if (series.length < 2) return DEFAULT_HOLD_MS;
  const gaps = series
    .slice(1)
    .map(([atMs], index) => atMs - series[index]![0])
    .sort((a, b) => a - b);
  return HOLD_INTERVALS * Math.max(gaps[Math.floor(gaps.length / 2)]!, 1000);
}

/** The comparison instants of the window ending at `now`: every minute, the last at `now`. */
export function gridInstants(now: number): number[] {
  const instants: number[] = [];
  for (let atMs = now - WINDOW_MS + GRID_STEP_MS; atMs <= now; atMs += GRID_STEP_MS) {
    instants.push(atMs);
  }
  return instants;
}

/** The series' value at each instant (the latest reading at or before it, if recent enough). */
export function sampleAt(
  series: readonly Reading[],
  instants: readonly number[],
): (number | null)[] {
  const hold = holdMs(series);
  let index = -1;
  return instants.map((atMs) => {
    while (index + 1 < series.length && series[index + 1]![0] <= atMs) index++;
    if (index < 0) return null;
    const [takenAt, value] = series[index]!;
    return atMs - takenAt <= hold ? value : null;
  });
}

/** Instant by instant sum of sampled series; null where any of them is. */
export function sumSampled(
  columns: readonly (number | null)[][],
  length: number,
): (number | null)[] {
  return Array.from({ length }, (_, index) => {
    let sum = 0;
    for (const column of columns) {
      const value = column[index];
      if (value === null || value === undefined) return null;
      sum += value;
    }
    return sum;
  });
}

/** Time-weighted mean of a series over the window ending at `now`, from its samples. */
export function meanOf(samples: readonly (number | null)[]): number | null {
  const values = samples.filter((value): value is number => value !== null);
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The power sensors of a flow as the server combines them: plant-level ones, else devices'. */
export function flowMeters(sensors: readonly WiringSensor[], flow: WiringFlow): WiringSensor[] {
  const power = sensors.filter((sensor) => sensor.flow === flow && isPowerSensor(sensor));
  const plantLevel = power.filter((sensor) => sensor.deviceUuid === null);
  return plantLevel.length > 0 ? plantLevel : power;
}

/** A flow's power at the comparison instants, and which sensors it comes from. */
export interface FlowSamples {
  flow: WiringFlow;
  sensors: WiringSensor[];
  /** W at each of `gridInstants(now)`; null where unknown. */
  samples: (number | null)[];
}

/**
 * A flow's power on the comparison grid: the sum of its meters when each one's readings are
 * known, else the server's combined production or consumption (when the flow has meters),
 * else null (not measured or not readable).
 */
export function flowSamples(input: WiringInput, flow: WiringFlow): FlowSamples | null {
  const instants = gridInstants(input.now);
  const meters = flowMeters(input.sensors, flow);
  const columns = meters.map((sensor) => powerReadingsW(sensor, input.now));
  if (meters.length > 0 && columns.every((column) => column !== null)) {
    return {
      flow,
      sensors: meters,
      samples: sumSampled(
        columns.map((column) => sampleAt(column!, instants)),
        instants.length,
      ),
    };
  }
  // Without meters of its own the server's combined consumption is derived from the balance,
  // which would make every check against the balance agree with itself.
  if (meters.length === 0) return null;
  const combined =
    flow === 'PRODUCTION'
      ? input.flows?.production
      : flow === 'CONSUMPTION'
        ? input.flows?.consumption
        : undefined;
  if (!combined) return null;
  return {
    flow,
    sensors: meters,
    samples: sampleAt(inWindow(combined, input.now), instants),
  };
}

/** A sensor's own power on the comparison grid; null when unreadable or not power. */
export function sensorSamples(sensor: WiringSensor, now: number): (number | null)[] | null {
  const readings = powerReadingsW(sensor, now);
  return readings === null ? null : sampleAt(readings, gridInstants(now));
}

export const knownValues = (samples: readonly (number | null)[]): number[] =>
  samples.filter((value): value is number => value !== null);
