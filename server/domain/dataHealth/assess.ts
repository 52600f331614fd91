import { counterIssues } from './counters.ts';
import { dailyCoverage, coverageOf, findGaps, heldSpans } from './coverage.ts';
import { daysOnRollups, lastStandIn, standInTimes, type BucketSamples } from './rollupSamples.ts';
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
  /**
   * Where raw retention dropped the raw readings: the 15-minute rollups of [range.start,
   * rawFrom) (rollupSamples.ts) and the last bucket with samples before the range; `samples`
   * are then the raw readings from rawFrom on, and `before` is left out.
   */
  rollups?: RollupPart;
}

export interface RollupPart {
  /** Where the raw readings start: a bucket start; the buckets all lie before it. */
  rawFrom: number;
  buckets: readonly BucketSamples[];
  before?: BucketSamples;
}

export interface SensorHealth {
  /** Per day of `days`, 0..1. */
  coverage: number[];
  coverageTotal: number;
  gaps: Gap[];
  counterIssues: CounterIssue[];
  frozen: FrozenPeriod[];
  suspicions: Suspicion[];
  /**
   * Per day of `days`: whether its coverage and gaps rest (in part) on 15-minute rollups; the
   * value rules (counters, frozen, suspicions) have no raw values there and did not assess it.
   */
  onRollups: boolean[];
}

export function assessSensorHealth(input: SensorHealthInput): SensorHealth {
  const { samples, intervalMs, range } = input;
  const times = readingTimes(input);
  const spans = heldSpans(times, intervalMs, range, times.before);
  const isCounter = input.dataType === 'ENERGY';
  const before = input.rollups ? undefined : input.before;
  return {
    coverage: dailyCoverage(spans, input.days),
    coverageTotal: coverageOf(spans, range),
    gaps: findGaps(times, intervalMs, range, times.before),
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
    onRollups: daysOnRollups(input.days, rollupSpan(input.rollups, range)),
  };
}

/** When the sensor reported: the rollups' stand-ins, then the raw readings. */
function readingTimes(input: SensorHealthInput): { takenAt: ArrayLike<number>; before?: number } {
  const { rollups, samples } = input;
  if (!rollups) return { takenAt: samples.takenAt, before: input.before?.takenAt };
  const standIns = standInTimes(rollups.buckets, input.intervalMs);
  const before = rollups.before && lastStandIn(rollups.before, input.intervalMs);
  return { takenAt: [...standIns, ...Array.from(samples.takenAt)], before };
}

/** The part of the range whose times are stand-ins: from the first known bucket to rawFrom. */
function rollupSpan(rollups: RollupPart | undefined, range: Span): Span | undefined {
  if (!rollups) return undefined;
  const first = rollups.buckets.find((bucket) => bucket.sampleCount > 0);
  const start = rollups.before ? range.start : first?.bucketStart;
  return start === undefined || start >= rollups.rawFrom
    ? undefined
    : { start, end: Math.min(rollups.rawFrom, range.end) };
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
