import { counterIssues } from './counters.ts';
import { dailyCoverage, coverageOf, findGaps, heldSpans } from './coverage.ts';
import { frozenPeriods, isZero, type FrozenOptions, type ValueKind } from './frozen.ts';
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
 * Which values are at rest: no power or current flowing (0), no irradiance, a battery at the
 * limits its own history shows (full or empty), a counter standing still (any value); which are
 * at a limit: power or current at the extremes of its history (a battery or charger at full
 * power, an inverter clipping). At rest by night is legitimate for production and irradiance:
 * only their daylight counts.
 */
function frozenOptions(input: SensorHealthInput, isCounter: boolean): FrozenOptions {
  const restByNight = input.flow === 'PRODUCTION' || input.dataType === 'IRRADIANCE';
  return {
    intervalMs: input.intervalMs,
    kindOf: kindsOf(input.dataType, input.samples, isCounter),
    ...(restByNight && input.isDaylight && { restOnlyByDay: input.isDaylight }),
  };
}

function kindsOf(
  dataType: string | null,
  samples: HealthSamples,
  isCounter: boolean,
): ((value: number) => ValueKind) | undefined {
  if (isCounter) return () => 'rest';
  let low = Infinity;
  let high = -Infinity;
  for (let index = 0; index < samples.values.length; index++) {
    low = Math.min(low, samples.values[index]!);
    high = Math.max(high, samples.values[index]!);
  }
  const atExtreme = (value: number) => value <= low || value >= high;
  switch (dataType) {
    case 'POWER':
    case 'CURRENT':
      return (value) => (isZero(value) ? 'rest' : atExtreme(value) ? 'limit' : 'working');
    case 'IRRADIANCE':
      return (value) => (value <= 0 ? 'rest' : 'working');
    case 'STATE_OF_CHARGE':
      return (value) => (atExtreme(value) ? 'rest' : 'working');
    default:
      return undefined;
  }
}
