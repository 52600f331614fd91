/**
 * What the data-health rules read and find. Pure data: epoch milliseconds, no zone (the caller
 * cuts local days), so the renderer, the main process and the server share the rules.
 */

/** Readings of one sensor as columns: epoch ms strictly increasing, and their values. */
export interface HealthSamples {
  takenAt: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** `[start, end)` in epoch milliseconds. */
export interface Span {
  start: number;
  end: number;
}

/** A stretch without readings longer than the sensor's interval allows. */
export interface Gap extends Span {
  durationMs: number;
}

export type CounterIssueKind = 'RESET' | 'NEGATIVE_DELTA';

/** An energy counter that went down between two readings. */
export interface CounterIssue {
  kind: CounterIssueKind;
  at: number;
  before: number;
  after: number;
}

/** A value that stood unchanged far longer than the sensor's own history says is normal. */
export interface FrozenPeriod extends Span {
  value: number;
  /** The part of the period that counted (legitimate rest, e.g. PV at night, left out). */
  countedMs: number;
}

export type SuspicionCode =
  'POWER_LOOKS_LIKE_KILOWATTS' | 'POWER_LOOKS_LIKE_MILLIWATTS' | 'PRODUCTION_NEGATIVE_BY_DAY';

export interface Suspicion {
  code: SuspicionCode;
  /** The figure that raised it: the largest |reading| for units, the negative share by day. */
  observed: number;
  /** What it was compared with: the rating in W, or the share allowed. */
  reference: number;
}

/** True while the sun is above the horizon at the plant (server/domain's solar position). */
export type IsDaylight = (ms: number) => boolean;
