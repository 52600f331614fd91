import { counterIssues } from './counters.ts';
import { dailyCoverage, coverageOf, findGaps, heldSpans } from './coverage.ts';
import { frozenPeriods, isZero, type FrozenOptions } from './frozen.ts';
import { suspicions } from './suspicions.ts';
import type {
  CounterIssue,
  FrozenPeriod,
  Gap,
  HealthSamples,
  IsDaylight,
  Span,
  Suspicion,
} from './types.ts';

/** One sensor's readings over a range, and what is known of it. */
export interface SensorHealthInput {
  /** The sensor's primary data type (POWER, ENERGY, IRRADIANCE…); null before any reading. */
  dataType: string | null;
  flow: string;
  intervalMs: number;
  /** The readings taken in `range`. */
  samples: HealthSamples;
  /** The last reading before `range`, if any: it may hold into it and bounds a first gap. */
  before?: { takenAt: number; value: number };
  range: Span;
  /** The local days of `range`, oldest first (23, 24 or 25 hours each). */
  days: readonly Span[];
  /** Sun above the horizon at the plant; without it every instant counts as day. */
  isDaylight?: IsDaylight;
  ratingW?: number | null;
  plantScaleW?: number | null;
}

export interface SensorHealth {
  /** Per day of `days`, 0..1. */
  coverage: number[];
  coverageTotal: number;
  gaps: Gap[];
  counterIssues: CounterIssue[];
  frozen: FrozenPeriod[];
  suspicions: Suspicion[];
}

export function assessSensorHealth(input: SensorHealthInput): SensorHealth {
  const { samples, intervalMs, range, before } = input;
  const spans = heldSpans(samples, intervalMs, range, before?.takenAt);
  const isCounter = input.dataType === 'ENERGY';
  return {
    coverage: dailyCoverage(spans, input.days),
    coverageTotal: coverageOf(spans, range),
    gaps: findGaps(samples, intervalMs, range, before?.takenAt),
    counterIssues: isCounter ? counterIssues(samples, before?.value) : [],
    frozen: frozenPeriods(samples, frozenOptions(input, isCounter)),
    suspicions: suspicions({
      samples,
      isPower: input.dataType === 'POWER',
      isProduction: input.flow === 'PRODUCTION',
      ratingW: input.ratingW ?? null,
      plantScaleW: input.plantScaleW ?? null,
      isDaylight: input.isDaylight,
    }),
  };
}

/**
 * Which standing values are legitimate at night: production at 0 W (or its counter standing
 * still, any value) and irradiance at or below 0.
 */
function frozenOptions(input: SensorHealthInput, isCounter: boolean): FrozenOptions {
  const isDaylight = input.isDaylight;
  if (!isDaylight) return { intervalMs: input.intervalMs };
  if (input.dataType === 'IRRADIANCE') {
    return { intervalMs: input.intervalMs, restOnlyByDay: { isDaylight, atRest: (v) => v <= 0 } };
  }
  if (input.flow !== 'PRODUCTION') return { intervalMs: input.intervalMs };
  return {
    intervalMs: input.intervalMs,
    restOnlyByDay: { isDaylight, atRest: isCounter ? () => true : isZero },
  };
}
