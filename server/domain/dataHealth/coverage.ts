import { GAP_INTERVALS } from '../../measurements/sampleHolds.ts';
import type { Gap, HealthSamples, Span } from './types.ts';

/**
 * Coverage and gaps of one sensor, by the rule every metric follows (sampleHolds.ts, for an
 * instantaneous value): a reading holds until the next when that comes within GAP_INTERVALS
 * sampling intervals, else for one interval. This is about readings arriving, so a counter is
 * held the same way (its spread over a gap is not data).
 */

/** The merged spans of `range` that readings hold over; `before` is the reading before it. */
export function heldSpans(
  samples: Pick<HealthSamples, 'takenAt'>,
  intervalMs: number,
  range: Span,
  before?: number,
): Span[] {
  const times = before === undefined ? [] : [before];
  for (let index = 0; index < samples.takenAt.length; index++) {
    times.push(samples.takenAt[index]!);
  }
  const spans: Span[] = [];
  for (let index = 0; index < times.length; index++) {
    const at = times[index]!;
    const next = times[index + 1];
    const end =
      next !== undefined && next - at <= GAP_INTERVALS * intervalMs ? next : at + intervalMs;
    const start = Math.max(at, range.start);
    const clipped = Math.min(end, range.end);
    if (clipped <= start) continue;
    const last = spans[spans.length - 1];
    if (last && last.end >= start) last.end = Math.max(last.end, clipped);
    else spans.push({ start, end: clipped });
  }
  return spans;
}

/** The share of each day (local days of any length: 23, 24, 25 hours) that spans cover, 0..1. */
export function dailyCoverage(spans: readonly Span[], days: readonly Span[]): number[] {
  let first = 0;
  return days.map((day) => {
    while (first < spans.length && spans[first]!.end <= day.start) first++;
    let covered = 0;
    for (let index = first; index < spans.length && spans[index]!.start < day.end; index++) {
      const span = spans[index]!;
      covered += Math.max(0, Math.min(span.end, day.end) - Math.max(span.start, day.start));
    }
    return roundShare(covered / (day.end - day.start));
  });
}

/** The covered share of a whole range (a period of a report, a dashboard's day). */
export function coverageOf(spans: readonly Span[], range: Span): number {
  return dailyCoverage(spans, [range])[0] ?? 0;
}

const roundShare = (share: number) => Math.min(1, Math.max(0, Math.round(share * 1e6) / 1e6));

/**
 * Stretches of `range` without a reading for longer than GAP_INTERVALS intervals: from the last
 * reading before (clipped to the range's start) to the next reading (or the range's end). Before
 * the sensor's first reading ever nothing is missing (it was not reporting yet: coverage says
 * so), so a sensor without a reading before the range has no gap before its first one. No
 * reading lies inside a gap.
 */
export function findGaps(
  samples: Pick<HealthSamples, 'takenAt'>,
  intervalMs: number,
  range: Span,
  before?: number,
): Gap[] {
  const allowed = GAP_INTERVALS * intervalMs;
  const gaps: Gap[] = [];
  let previous = before;
  const add = (start: number, end: number) => {
    const from = Math.max(start, range.start);
    const to = Math.min(end, range.end);
    if (end - start > allowed && to > from)
      gaps.push({ start: from, end: to, durationMs: to - from });
  };
  for (let index = 0; index < samples.takenAt.length; index++) {
    const at = samples.takenAt[index]!;
    if (at < range.start || at >= range.end) continue;
    if (previous !== undefined) add(previous, at);
    previous = at;
  }
  if (previous !== undefined) add(previous, range.end);
  return gaps;
}
