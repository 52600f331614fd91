import type { ReadingKind } from './readingKinds.ts';
import { sampleHold, WATT_MS_PER_KWH } from './sampleHolds.ts';

export { GAP_INTERVALS, MAX_COUNTER_SPREAD_MS } from './sampleHolds.ts';

/**
 * 15-minute rollups of one sensor's readings, computed from the raw samples. Pure.
 *
 * Every sample holds over a segment of time by the rules of `sampleHolds.ts` (`power` and
 * `level` as instant values, `counter` as cumulative kWh), and the segments are cut into
 * buckets. A counter's increase splits across buckets in proportion to time; over a gap longer
 * than MAX_COUNTER_SPREAD_MS only its last MAX_COUNTER_SPREAD_MS gets rows (and that share of
 * the energy): no day ever shows more than its even share, and everything a summary can ask (at
 * most 366 days) fits inside the limit.
 *
 * Per bucket: the time-weighted mean, min and max of the values held over its covered time,
 * the energy (power: the integral; counter: its share of the increases; level: null), the
 * number of samples taken in it, and the covered seconds. A bucket with no covered time and no
 * sample has no row. Half-open intervals throughout: a sample on a boundary opens its bucket.
 */

export const BUCKET_MS = 900_000;

export interface Sample {
  takenAt: number;
  value: number;
}

/** Columns of samples: epoch milliseconds, strictly increasing, and their values. */
export interface SampleColumns {
  takenAt: ArrayLike<number>;
  values: ArrayLike<number>;
}

export interface RollupSpan {
  kind: ReadingKind;
  samplingIntervalSeconds: number;
  /** The buckets to compute, [fromMs, toMs); both multiples of BUCKET_MS. */
  fromMs: number;
  toMs: number;
  /** Every sample of the sensor in [fromMs, toMs), strictly increasing (else a RangeError). */
  samples: SampleColumns;
  /** The sensor's latest sample before fromMs, if any: it may hold into the first buckets. */
  before?: Sample | null;
  /** The sensor's earliest sample at or after toMs, if any: it ends the last sample's hold. */
  after?: Sample | null;
}

export interface Rollup {
  bucketStart: number;
  energyKwh: number | null;
  meanValue: number;
  minValue: number;
  maxValue: number;
  sampleCount: number;
  coveredSeconds: number;
}

export function bucketStartOf(ms: number): number {
  return Math.floor(ms / BUCKET_MS) * BUCKET_MS;
}

/** The end of the bucket holding `ms`, or `ms` itself when it is a boundary. */
export function bucketCeil(ms: number): number {
  return Math.ceil(ms / BUCKET_MS) * BUCKET_MS;
}

export function computeRollups(span: RollupSpan): Rollup[] {
  return [...generateRollups(span)];
}

/** The rollups of the span's buckets, oldest first, one at a time (a span can be long). */
export function* generateRollups(span: RollupSpan): Generator<Rollup> {
  checkSpan(span);
  const { kind, fromMs, toMs, samples, before, after } = span;
  const intervalMs = span.samplingIntervalSeconds * 1000;
  const count = samples.takenAt.length;
  const finished: Rollup[] = [];
  const bucket = new BucketAccumulator(kind, fromMs, finished);

  // Points in time order: `before`, the samples, then `after`, which only ends the hold of the
  // one before it (its own segment starts at or after toMs).
  const pointCount = count + (before ? 1 : 0);
  const offset = before ? 1 : 0;
  const timeAt = (index: number): number =>
    index < offset ? before!.takenAt : samples.takenAt[index - offset]!;
  const valueAt = (index: number): number =>
    index < offset ? before!.value : samples.values[index - offset]!;

  const holdKind = kind === 'counter' ? 'counter' : 'instant';
  for (let index = 0; index < pointCount; index++) {
    const takenAt = timeAt(index);
    const value = valueAt(index);
    const isLast = index + 1 >= pointCount;
    const nextAt = isLast ? after?.takenAt : timeAt(index + 1);
    const nextValue = isLast ? after?.value : valueAt(index + 1);

    if (index >= offset) bucket.addSample(takenAt, value);
    // A counter's segment holds the reading itself (its mean, min and max) and its kWh.
    const hold = sampleHold(holdKind, intervalMs, takenAt, value, nextAt, nextValue);
    if (hold) bucket.addSegment(hold.start, hold.end, value, hold.counterKwh, fromMs, toMs);
    if (finished.length > 0) {
      yield* finished;
      finished.length = 0;
    }
  }
  bucket.finish();
  yield* finished;
}

function checkSpan(span: RollupSpan): void {
  const { fromMs, toMs, samples, before, after, samplingIntervalSeconds } = span;
  if (fromMs % BUCKET_MS !== 0 || toMs % BUCKET_MS !== 0 || toMs < fromMs) {
    throw new RangeError(`Rollup span [${fromMs}, ${toMs}) is not a range of whole buckets`);
  }
  if (!(samplingIntervalSeconds > 0)) {
    throw new RangeError(`Sampling interval ${samplingIntervalSeconds} s is not positive`);
  }
  const { takenAt, values } = samples;
  if (takenAt.length !== values.length) {
    throw new RangeError('Sample times and values differ in length');
  }
  let previous = before ? before.takenAt : -Infinity;
  if (before && before.takenAt >= fromMs) {
    throw new RangeError(`The sample before the span (${before.takenAt}) is not before it`);
  }
  for (let index = 0; index < takenAt.length; index++) {
    const time = takenAt[index]!;
    if (!(time > previous)) {
      throw new RangeError(`Samples must be strictly increasing in time (index ${index})`);
    }
    if (time < fromMs || time >= toMs) {
      throw new RangeError(`Sample at ${time} lies outside the span [${fromMs}, ${toMs})`);
    }
    previous = time;
  }
  if (after && after.takenAt < toMs) {
    throw new RangeError(`The sample after the span (${after.takenAt}) is not after it`);
  }
}

/**
 * Sums for the current bucket. Samples and segments arrive in time order, so buckets are
 * finished one after the other and only one is ever open; finished ones go to `finished`.
 */
class BucketAccumulator {
  readonly #kind: ReadingKind;
  readonly #finished: Rollup[];
  #start: number;
  #integral = 0; // value × ms over the covered time
  #coveredMs = 0;
  #counterKwh = 0;
  #min = Infinity;
  #max = -Infinity;
  #sampleCount = 0;
  #sampleSum = 0;

  constructor(kind: ReadingKind, start: number, finished: Rollup[]) {
    this.#kind = kind;
    this.#start = start;
    this.#finished = finished;
  }

  addSample(takenAt: number, value: number): void {
    this.#moveTo(bucketStartOf(takenAt));
    this.#sampleCount += 1;
    this.#sampleSum += value;
    this.#see(value);
  }

  /** `value` holds over [start, end) (clipped to the span); a counter increase `spreadKwh` is
   * spread over it evenly. */
  addSegment(
    start: number,
    end: number,
    value: number,
    spreadKwh: number,
    fromMs: number,
    toMs: number,
  ): void {
    const duration = end - start;
    const clippedStart = Math.max(start, fromMs);
    const clippedEnd = Math.min(end, toMs);
    for (let bucket = bucketStartOf(clippedStart); bucket < clippedEnd; bucket += BUCKET_MS) {
      const overlap = Math.min(clippedEnd, bucket + BUCKET_MS) - Math.max(clippedStart, bucket);
      if (overlap <= 0) continue;
      this.#moveTo(bucket);
      this.#integral += value * overlap;
      this.#coveredMs += overlap;
      if (spreadKwh !== 0) this.#counterKwh += (spreadKwh * overlap) / duration;
      this.#see(value);
    }
  }

  finish(): void {
    this.#close();
  }

  #moveTo(bucket: number): void {
    if (bucket === this.#start) return;
    this.#close();
    this.#start = bucket;
  }

  #see(value: number): void {
    if (value < this.#min) this.#min = value;
    if (value > this.#max) this.#max = value;
  }

  #close(): void {
    if (this.#sampleCount === 0 && this.#coveredMs === 0) return;
    this.#finished.push({
      bucketStart: this.#start,
      energyKwh: this.#energyKwh(),
      meanValue:
        this.#coveredMs > 0
          ? this.#integral / this.#coveredMs
          : this.#sampleSum / this.#sampleCount,
      minValue: this.#min,
      maxValue: this.#max,
      sampleCount: this.#sampleCount,
      coveredSeconds: this.#coveredMs / 1000,
    });
    this.#integral = 0;
    this.#coveredMs = 0;
    this.#counterKwh = 0;
    this.#min = Infinity;
    this.#max = -Infinity;
    this.#sampleCount = 0;
    this.#sampleSum = 0;
  }

  #energyKwh(): number | null {
    if (this.#kind === 'power') return this.#integral / WATT_MS_PER_KWH;
    if (this.#kind === 'counter') return this.#counterKwh;
    return null;
  }
}
