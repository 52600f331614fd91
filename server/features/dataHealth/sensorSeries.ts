import type { Db } from '../../db/database.ts';
import { tuplesOf } from '../../db/fastQuery.ts';
import type { BucketSamples, RollupPart } from '../../domain/dataHealth/index.ts';
import { bucketStartOf, type Sample } from '../../measurements/rollups.ts';
import { readingBefore } from '../../measurements/readingsStore.ts';

/** One sensor's readings of a range as columns, and the reading before it. */
export interface SensorSeries {
  takenAt: Float64Array;
  values: Float64Array;
  before: Sample | undefined;
}

/**
 * One range scan of the readings' primary key, read as tuples into typed columns: 90 days of a
 * 1-minute sensor are 130,000 rows, too many to build an object for each.
 */
export async function sensorSeries(
  db: Db,
  sensorUuid: string,
  fromMs: number,
  toMs: number,
): Promise<SensorSeries> {
  const [rows, before] = await Promise.all([
    tuplesOf(
      db,
      db
        .selectFrom('readings')
        .select(['taken_at', 'value'])
        .where('sensor_uuid', '=', sensorUuid)
        .where('taken_at', '>=', fromMs)
        .where('taken_at', '<', toMs)
        .orderBy('taken_at')
        .compile(),
    ),
    readingBefore(db, sensorUuid, fromMs),
  ]);
  const takenAt = new Float64Array(rows.length);
  const values = new Float64Array(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    takenAt[index] = Number(row[0]);
    values[index] = Number(row[1]);
  }
  return { takenAt, values, before };
}

/**
 * Where raw retention dropped the sensor's raw readings at the start of [fromMs, toMs): the
 * sample counts of its 15-minute rollups up to the bucket of its first raw reading there (the
 * retention horizon is a bucket start, so no bucket holds both), and its last counted bucket
 * before the range. Undefined when a raw reading precedes the range or no rollup counts a sample
 * before the first raw one: every day rests on raw readings then.
 */
export async function rollupPart(
  db: Db,
  sensorUuid: string,
  series: SensorSeries,
  fromMs: number,
  toMs: number,
): Promise<RollupPart | undefined> {
  if (series.before) return undefined;
  const firstRaw = series.takenAt[0];
  const rawFrom = firstRaw === undefined ? toMs : bucketStartOf(firstRaw);
  if (rawFrom <= fromMs) return undefined;
  const [buckets, before] = await Promise.all([
    bucketSamples(db, sensorUuid, fromMs, rawFrom),
    lastCountedBucketBefore(db, sensorUuid, fromMs),
  ]);
  if (buckets.length === 0 && !before) return undefined;
  return { rawFrom, buckets, ...(before && { before }) };
}

async function bucketSamples(
  db: Db,
  sensorUuid: string,
  fromMs: number,
  toMs: number,
): Promise<BucketSamples[]> {
  const query = countedBuckets(db, sensorUuid)
    .where('bucket_start', '>=', fromMs)
    .where('bucket_start', '<', toMs)
    .orderBy('bucket_start');
  return bucketsOf(await tuplesOf(db, query.compile()));
}

async function lastCountedBucketBefore(
  db: Db,
  sensorUuid: string,
  ms: number,
): Promise<BucketSamples | undefined> {
  const query = countedBuckets(db, sensorUuid)
    .where('bucket_start', '<', ms)
    .orderBy('bucket_start', 'desc')
    .limit(1);
  return bucketsOf(await tuplesOf(db, query.compile()))[0];
}

/** The sensor's rollups that counted a sample, as tuples (bucket start, sample count). */
const countedBuckets = (db: Db, sensorUuid: string) =>
  db
    .selectFrom('sensor_rollups')
    .select(['bucket_start', 'sample_count'])
    .where('sensor_uuid', '=', sensorUuid)
    .where('sample_count', '>', 0);

const bucketsOf = (rows: unknown[][]): BucketSamples[] =>
  rows.map((row) => ({ bucketStart: Number(row[0]), sampleCount: Number(row[1]) }));
