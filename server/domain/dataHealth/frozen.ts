import { GAP_INTERVALS } from '../../measurements/sampleHolds.ts';
import type { FrozenPeriod, HealthSamples, IsDaylight, Span } from './types.ts';

/**
 * Frozen values: a reading that repeats far longer than the sensor's own history says a value
 * normally stands. Each run of equal readings stands from its first reading to the next other
 * value (or its last reading, for the run still going; a gap ends it).
 *
 * Values at rest (0 W, a battery full or empty, a counter standing still) and at a limit (a
 * battery or a charger at full power) stand longer than working values by nature, so each kind
 * is judged against its own history: "normal" is the median, over the days of the series, of
 * each day's longest run of that kind (a run counts on every day it spans). A day without a
 * working value counts as 0 (a sensor stuck all day is not normal); rest and limits come and go
 * (a charger at full power twice a week), so only the days that have them count, except for
 * rest that only daylight counts (PV at 0 W by day is never normal). A battery empty every night has long normal rest and is not flagged; PV at 0 W
 * by day, or a gauge stuck at a working value, is judged against the minutes such values
 * usually last; a stuck stretch, or several, on less than half of the days cannot make itself
 * normal.
 *
 * Legitimate rest by night is not counted at all: with `restOnlyByDay` (PV at 0 W, a production
 * counter standing still, irradiance at 0), only the daylight part of a run at rest counts.
 */

/** A run counts as frozen when it stands this many times longer than normal… */
export const FROZEN_FACTOR = 6;
/** …and at least this many sampling intervals… */
export const FROZEN_MIN_INTERVALS = 12;
/** …and at least this long (a quarter-hour meter repeating for an hour is not news). */
export const FROZEN_MIN_MS = 3_600_000;
/**
 * A value at its limit stands at least this long before it counts as frozen: a battery or a
 * charger runs at full power for hours (until full or empty), however rarely it does.
 */
export const FROZEN_AT_LIMIT_MIN_MS = 6 * 3_600_000;
/** Daylight is sampled at this step over a run. */
const DAYLIGHT_STEP_MS = 300_000;
const REST_TOLERANCE = 1e-9;

export interface FrozenOptions {
  intervalMs: number;
  /** Which kind of value each is (judged apart); default all `working`. */
  kindOf?: (value: number) => ValueKind;
  /** Only the daylight part of a run at rest counts (PV at night is no fault). */
  restOnlyByDay?: IsDaylight;
}

/** `rest`: 0 W, empty or full, a counter still; `limit`: at its extreme power; else `working`. */
export type ValueKind = 'rest' | 'limit' | 'working';
const VALUE_KINDS: readonly ValueKind[] = ['rest', 'limit', 'working'];

export interface Run extends Span {
  value: number;
  kind: ValueKind;
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
    const kind = options.kindOf?.(value) ?? 'working';
    const counted =
      kind === 'rest' && options.restOnlyByDay
        ? daylightWithin(start, end, options.restOnlyByDay)
        : end - start;
    runs.push({ start, end, value, kind, counted });
    first = index;
  }
  return runs;
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

const DAY_MS = 86_400_000;

/**
 * The median over the series' days (24-hour steps from its first reading) of each day's
 * longest counted run among `runs` (on each day it spans); a day without one counts as 0 with
 * `emptyDaysCount`, else only days with one count (0 when none has).
 */
export function normalRunMs(
  runs: readonly Run[],
  firstMs: number,
  lastMs: number,
  emptyDaysCount: boolean,
): number {
  const days = Math.max(1, Math.ceil((lastMs - firstMs) / DAY_MS));
  const longest = new Float64Array(days);
  for (const run of runs) {
    const first = Math.min(days - 1, Math.floor((run.start - firstMs) / DAY_MS));
    const last = Math.min(days - 1, Math.floor((run.end - firstMs) / DAY_MS));
    for (let day = first; day <= last; day++) longest[day] = Math.max(longest[day]!, run.counted);
  }
  const counted = emptyDaysCount ? longest : longest.filter((ms) => ms > 0);
  counted.sort();
  return counted.length === 0 ? 0 : counted[Math.floor((counted.length - 1) / 2)]!;
}

export function frozenThresholdMs(normalMs: number, intervalMs: number, kind: ValueKind): number {
  return Math.max(
    FROZEN_FACTOR * normalMs,
    FROZEN_MIN_INTERVALS * intervalMs,
    kind === 'limit' ? FROZEN_AT_LIMIT_MIN_MS : FROZEN_MIN_MS,
  );
}

export function frozenPeriods(samples: HealthSamples, options: FrozenOptions): FrozenPeriod[] {
  const count = samples.takenAt.length;
  if (count === 0) return [];
  const runs = valueRuns(samples, options);
  const [firstMs, lastMs] = [samples.takenAt[0]!, samples.takenAt[count - 1]!];
  const thresholds = new Map(
    VALUE_KINDS.map((kind) => {
      const ofKind = runs.filter((run) => run.kind === kind);
      const emptyDaysCount = kind === 'working' || (kind === 'rest' && !!options.restOnlyByDay);
      const normal = normalRunMs(ofKind, firstMs, lastMs, emptyDaysCount);
      return [kind, frozenThresholdMs(normal, options.intervalMs, kind)];
    }),
  );
  return runs
    .filter((run) => run.counted > thresholds.get(run.kind)!)
    .map((run) => ({ start: run.start, end: run.end, value: run.value, countedMs: run.counted }));
}
