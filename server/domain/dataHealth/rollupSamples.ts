import { BUCKET_MS } from '../../measurements/rollups.ts';
import type { Span } from './types.ts';

/**
 * Where raw retention (`--raw-retention-days`) has dropped a sensor's raw readings, only its
 * 15-minute rollups say when it reported: how many samples each bucket counted, not when. The
 * coverage and gap rules (coverage.ts) read times only, so each counted sample becomes a stand-in
 * time: a bucket's n samples are taken one sampling interval apart from the bucket's start (closer
 * when n intervals overrun the bucket, so that no stand-in leaves it). The held-until-the-next
 * rule then applies unchanged, at the resolution of a bucket: a bucket of n samples holds
 * n intervals of it, as its raw readings did whenever they came as regularly as the sensor says;
 * where in the bucket they came is what the rollup no longer knows, so a gap inside a bucket
 * starts at its stand-ins' end, not at the real last reading.
 */

/** A 15-minute rollup's bucket start (epoch ms, a multiple of BUCKET_MS) and its sample count. */
export interface BucketSamples {
  bucketStart: number;
  sampleCount: number;
}

/** The stand-in times of the buckets' samples, increasing; buckets oldest first. */
export function standInTimes(buckets: readonly BucketSamples[], intervalMs: number): number[] {
  const times: number[] = [];
  for (const { bucketStart, sampleCount } of buckets) {
    if (sampleCount <= 0) continue;
    const step = Math.min(intervalMs, BUCKET_MS / sampleCount);
    for (let index = 0; index < sampleCount; index++) times.push(bucketStart + index * step);
  }
  return times;
}

/** The last stand-in time of a bucket (the sample before a range, from its last counted bucket). */
export function lastStandIn(bucket: BucketSamples, intervalMs: number): number | undefined {
  if (bucket.sampleCount <= 0) return undefined;
  const step = Math.min(intervalMs, BUCKET_MS / bucket.sampleCount);
  return bucket.bucketStart + (bucket.sampleCount - 1) * step;
}

/** Per day: whether any part of it lies in `rollupSpan` (its coverage rests on rollups there). */
export function daysOnRollups(days: readonly Span[], rollupSpan: Span | undefined): boolean[] {
  return days.map(
    (day) => rollupSpan !== undefined && day.start < rollupSpan.end && day.end > rollupSpan.start,
  );
}
