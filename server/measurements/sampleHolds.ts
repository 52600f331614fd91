/**
 * Over what time a sensor's sample holds: the one place for these rules, which both the
 * 15-minute rollups (`rollups.ts`, cutting holds into buckets) and the raw-reading power
 * segments of `minutes`/`seconds` history and the exact grid import
 * (`metrics/powerSegments.ts`) follow. Pure.
 *
 * - An instantaneous value (`power`, `level`) holds from its sample until the next one when that
 *   comes within GAP_INTERVALS sampling intervals; otherwise (a gap, or the last sample) for one
 *   sampling interval only, and the rest of the gap is uncovered.
 * - A `counter`'s increase to the next reading (after a decrease, a reset: the new value itself,
 *   never negative energy) is the energy of the whole time between them, spread over it evenly
 *   as constant power, however far apart they are; over a gap longer than MAX_COUNTER_SPREAD_MS
 *   only its last MAX_COUNTER_SPREAD_MS is covered, at the same power, so no stray pair of
 *   readings years apart can make millions of rollup rows. After the last reading nothing is
 *   known yet, so it holds nowhere.
 */

/** A sample holds until the next one only if the next comes within this many sampling intervals. */
export const GAP_INTERVALS = 3;
/** 400 days: 38,400 buckets a sensor at most for one gap. */
export const MAX_COUNTER_SPREAD_MS = 400 * 86_400_000;
export const WATT_MS_PER_KWH = 3_600_000_000;

/** `instant`: a power or level value; `counter`: cumulative kWh. */
export type HoldKind = 'instant' | 'counter';

export interface Hold {
  /** The sample holds over [start, end), epoch milliseconds. */
  start: number;
  end: number;
  /** The constant power over it: an instant sample's value; a counter's increase as watts. */
  watts: number;
  /** The share of a counter's increase that falls in [start, end), kWh; 0 for an instant value. */
  counterKwh: number;
}

/**
 * Where the sample (`takenAt`, `value`) holds, given the sensor's next sample (`nextAt`,
 * `nextValue`; both undefined when there is none yet). Undefined when it holds nowhere.
 */
export function sampleHold(
  kind: HoldKind,
  intervalMs: number,
  takenAt: number,
  value: number,
  nextAt: number | undefined,
  nextValue: number | undefined,
): Hold | undefined {
  if (kind === 'instant') {
    const holdsToNext = nextAt !== undefined && nextAt - takenAt <= GAP_INTERVALS * intervalMs;
    return {
      start: takenAt,
      end: holdsToNext ? nextAt : takenAt + intervalMs,
      watts: value,
      counterKwh: 0,
    };
  }
  if (nextAt === undefined || nextValue === undefined) return undefined;
  const increase = nextValue >= value ? nextValue - value : nextValue;
  const start = Math.max(takenAt, nextAt - MAX_COUNTER_SPREAD_MS);
  return {
    start,
    end: nextAt,
    watts: (increase * WATT_MS_PER_KWH) / (nextAt - takenAt),
    counterKwh: (increase * (nextAt - start)) / (nextAt - takenAt),
  };
}
