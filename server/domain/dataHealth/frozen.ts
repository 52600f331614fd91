import { GAP_INTERVALS } from '../../measurements/sampleHolds.ts';
import type { FrozenPeriod, HealthSamples, IsDaylight, Span } from './types.ts';

/**
 * Frozen values: a reading that repeats far longer than the sensor's own history says a value
 * normally stands. Each run of equal readings stands from its first reading to the next other
 * value (or its last reading, for the run still going; a gap ends it). "Normal" is the time-weighted median of
 * how long values stand (half of the sensor's time is spent in runs no longer than it), so a
 * sensor that idles for hours every day has long normal runs and a noisy meter short ones, and
 * a stuck stretch covering less than half the range cannot make itself normal.
 *
 * Legitimate rest is not counted: where `restCountsByDaylight` (a PV or irradiance sensor at 0,
 * a production counter standing still), only the daylight part of a run counts.
 */

/** A run counts as frozen when it stands this many times longer than normal… */
export const FROZEN_FACTOR = 6;
/** …and at least this many sampling intervals… */
export const FROZEN_MIN_INTERVALS = 12;
/** …and at least this long (a quarter-hour meter repeating for an hour is not news). */
export const FROZEN_MIN_MS = 3_600_000;
/** Daylight is sampled at this step over a run. */
const DAYLIGHT_STEP_MS = 300_000;
const REST_TOLERANCE = 1e-9;

export interface FrozenOptions {
  intervalMs: number;
  /** Only the daylight part of a run at rest counts (PV at night is no fault). */
  restOnlyByDay?: { isDaylight: IsDaylight; atRest: (value: number) => boolean };
}

interface Run extends Span {
  value: number;
  counted: number;
}

export const isZero = (value: number) => Math.abs(value) <= REST_TOLERANCE;

/**
 * Runs of equal readings with their counted duration. A gap ends a run (what the sensor read
 * while silent is unknown): its last reading then stands for one interval.
 */
export function valueRuns(samples: HealthSamples, options: FrozenOptions): Run[] {
  const runs: Run[] = [];
  const { intervalMs } = options;
  const count = samples.values.length;
  let first = 0;
  for (let index = 1; index <= count; index++) {
    const previousAt = samples.takenAt[index - 1]!;
    const nextAt = index < count ? samples.takenAt[index]! : undefined;
    const joined = nextAt !== undefined && nextAt - previousAt <= GAP_INTERVALS * intervalMs;
    if (joined && samples.values[index] === samples.values[first]) continue;
    const start = samples.takenAt[first]!;
    // The run still going at the end stands until its last reading.
    const end = joined ? nextAt : nextAt === undefined ? previousAt : previousAt + intervalMs;
    const value = samples.values[first]!;
    runs.push({ start, end, value, counted: countedMs(start, end, value, options) });
    first = index;
  }
  return runs;
}

function countedMs(start: number, end: number, value: number, options: FrozenOptions): number {
  const rest = options.restOnlyByDay;
  if (!rest || !rest.atRest(value)) return end - start;
  return daylightWithin(start, end, rest.isDaylight);
}

/** The time of `[start, end)` the sun is up, sampled every 5 minutes. */
export function daylightWithin(start: number, end: number, isDaylight: IsDaylight): number {
  let daylight = 0;
  for (let at = start; at < end; at += DAYLIGHT_STEP_MS) {
    const step = Math.min(DAYLIGHT_STEP_MS, end - at);
    if (isDaylight(at + step / 2)) daylight += step;
  }
  return daylight;
}

/** The time-weighted median of the runs' counted durations. */
export function normalRunMs(runs: readonly Run[]): number {
  const sorted = runs
    .map((run) => run.counted)
    .filter((ms) => ms > 0)
    .sort((a, b) => a - b);
  const total = sorted.reduce((sum, ms) => sum + ms, 0);
  let seen = 0;
  for (const ms of sorted) {
    seen += ms;
    if (seen >= total / 2) return ms;
  }
  return 0;
}

export function frozenThresholdMs(runs: readonly Run[], intervalMs: number): number {
  return Math.max(
    FROZEN_FACTOR * normalRunMs(runs),
    FROZEN_MIN_INTERVALS * intervalMs,
    FROZEN_MIN_MS,
  );
}

export function frozenPeriods(samples: HealthSamples, options: FrozenOptions): FrozenPeriod[] {
  const runs = valueRuns(samples, options);
  const threshold = frozenThresholdMs(runs, options.intervalMs);
  return runs
    .filter((run) => run.counted > threshold)
    .map((run) => ({ start: run.start, end: run.end, value: run.value, countedMs: run.counted }));
}
