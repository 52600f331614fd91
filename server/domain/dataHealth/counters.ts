import type { CounterIssue, HealthSamples } from './types.ts';

/**
 * Energy counters (cumulative kWh) only go up. A drop to near zero is a reset (the meter was
 * replaced or restarted: metrics count the new value as the energy, never negative energy); any
 * other drop is a negative delta, which a healthy meter never reports.
 */

/** A counter is reset when it falls to at most this share of what it read before. */
export const RESET_SHARE = 0.05;
/** Counters are read to a few decimals: a smaller drop is rounding, not an issue. */
export const COUNTER_TOLERANCE_KWH = 0.001;

export function counterIssues(samples: HealthSamples, before?: number): CounterIssue[] {
  const issues: CounterIssue[] = [];
  let previous = before;
  for (let index = 0; index < samples.values.length; index++) {
    const value = samples.values[index]!;
    if (previous !== undefined && previous - value > COUNTER_TOLERANCE_KWH) {
      issues.push({
        kind: value <= previous * RESET_SHARE ? 'RESET' : 'NEGATIVE_DELTA',
        at: samples.takenAt[index]!,
        before: previous,
        after: value,
      });
    }
    previous = value;
  }
  return issues;
}
