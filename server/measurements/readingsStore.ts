import { CompiledQuery } from 'kysely';
import { inTransaction, type Db } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { rowsOf } from '../db/fastQuery.ts';
import { ensureReadingPartitions } from '../db/readingPartitions.ts';
import { notFound } from '../http/errors.ts';
import { rowsInsert, type RowsInsert, type RowsTable } from './rowsInsert.ts';
import { rawReadingsInsert, type RawReadingsInsert } from './rawReadingsInsert.ts';
import {
  CoarseRollupWriter,
  rebuildCoarseRollups,
  zonesOfSensors,
  type RewrittenQuarters,
} from './coarseRollupStore.ts';
import { neighboursOf, readingsAround, type ReadingsAround } from './readingContext.ts';
import type { ReadingSensor } from './readingSensors.ts';
import { asMountedRight } from './signInversion.ts';
import {
  bucketCeil,
  bucketStartOf,
  computeRollups,
  type Rollup,
  type Sample,
  type SampleColumns,
} from './rollups.ts';

/**
 * Raw readings and their 15-minute rollups, kept in step: every write of readings recomputes,
 * in the same transaction, the rollups of every bucket it can have changed, from the raw
 * readings, and the hourly and daily rollups holding those buckets from the 15-minute ones
 * (`coarseRollupStore.ts`). Metrics then read rollups only (raw readings only for
 * `seconds`/`minutes` history).
 *
 * A write of readings spanning [first, last] can change buckets from the sensor's reading before
 * `first` (whose hold or counter increase now ends elsewhere) to its reading after `last` (or one
 * sampling interval past `last`); those buckets are recomputed whole, with the reading before
 * and the reading after them as context.
 */

export interface Reading {
  /** Epoch milliseconds. */
  takenAt: number;
  value: number;
}

/** One sensor's readings as columns: times strictly increasing, values finite. */
export interface SensorReadings extends SampleColumns {
  sensor: ReadingSensor;
}

export interface IngestStats {
  /** Readings written (inserted or replaced). */
  readings: number;
  /** Rollup rows written for the recomputed buckets. */
  rollups: number;
}

export interface SensorReading extends Reading {
  sensorUuid: string;
}

export interface SensorRollup extends Rollup {
  sensorUuid: string;
}

const ROLLUP_CHUNK_ROWS = 250;

/**
 * Writes one sensor's readings, in any order, replacing those at the same times, and updates its
 * rollups, in one transaction. Two readings at the same time are a caller's mistake (RangeError).
 */
export function ingest(
  db: Db,
  sensor: ReadingSensor,
  readings: readonly Reading[],
): Promise<IngestStats> {
  const ordered = [...readings].sort((a, b) => a.takenAt - b.takenAt);
  return ingestMany(db, [
    {
      sensor,
      takenAt: ordered.map((reading) => reading.takenAt),
      values: ordered.map((reading) => reading.value),
    },
  ]);
}

/**
 * The bulk path: many sensors' readings, each already in time order (else RangeError), in one
 * transaction. Suits a backfill of months of readings as well as one live sample per sensor.
 * A sensor deleted meanwhile answers 404 and nothing is written.
 */
export async function ingestMany(db: Db, batches: readonly SensorReadings[]): Promise<IngestStats> {
  for (const batch of batches) checkColumns(batch);
  const span = timeSpanOf(batches);
  // Before the transaction when there is none yet: a new month's partition locks `readings`.
  if (span) await ensureReadingPartitions(db, span.fromMs, span.toMs);
  return inTransaction(db, async (trx) => {
    const readingsInsert = rawReadingsInsert(trx);
    const together = engineOf(trx) === 'postgres';
    const quarters = quarterWrites(trx, together);
    const written = batches.filter((batch) => batch.takenAt.length > 0);
    const coarse = new CoarseRollupWriter(trx);
    const zones = await zonesOfSensors(
      trx,
      written.map((batch) => batch.sensor.sensorUuid),
    );
    const inverted = await lockSensors(
      trx,
      written.map((batch) => batch.sensor.sensorUuid),
    );
    // On PostgreSQL the 15-minute rows (deleted and written), the days and the packed days of
    // every sensor are written together at the end, one statement per table rather than per
    // sensor (a round trip each): nothing in between reads a sensor's own, except a second batch
    // of the same sensor, before which they are written. SQLite, in process, writes each
    // sensor's at once.
    const flush = async () => {
      await quarters.flush();
      await coarse.flush();
    };
    const queued = new Set<string>();
    for (const batch of written) {
      const sensorUuid = batch.sensor.sensorUuid;
      if (queued.has(sensorUuid)) {
        await flush();
        queued.clear();
      }
      queued.add(sensorUuid);
      const oriented = asMountedRight(batch, inverted.get(sensorUuid)!);
      const rewritten = await ingestSensor(trx, oriented, readingsInsert, quarters);
      await coarse.rewrite(sensorUuid, zones.get(sensorUuid)!, rewritten);
      if (!together) await flush();
    }
    await flush();
    return { readings: readingsInsert.written, rollups: quarters.insert.written };
  });
}

/**
 * Recomputes from the raw readings the rollups of the buckets overlapping `range` (default: all
 * of the sensor's readings), for when the meaning of stored readings changes: a new sampling
 * interval or primary data type. Answers the number of rollup rows written.
 */
export function recomputeRollups(
  db: Db,
  sensor: ReadingSensor,
  range?: { fromMs: number; toMs: number },
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const sensorUuid = sensor.sensorUuid;
    await lockSensors(trx, [sensorUuid]);
    let fromMs: number;
    let toMs: number;
    if (range) {
      fromMs = bucketStartOf(range.fromMs);
      toMs = bucketCeil(range.toMs);
    } else {
      const first = await readingAtOrAfter(trx, sensorUuid, Number.MIN_SAFE_INTEGER);
      const last = await readingBefore(trx, sensorUuid, Number.MAX_SAFE_INTEGER);
      // No raw readings left: raw retention dropped them, and the rollups are all that remain.
      if (!first || !last) return 0;
      fromMs = bucketStartOf(first.takenAt);
      toMs = bucketCeil(last.takenAt + sensor.samplingIntervalSeconds * 1000);
      // Rollups beyond the readings' new reach (a shorter interval holds less) go too; those
      // before the first raw reading stay, as raw retention left them (rawRetention.ts).
      await trx
        .deleteFrom('sensor_rollups')
        .where('sensor_uuid', '=', sensorUuid)
        .where('bucket_start', '>=', fromMs)
        .execute();
    }
    const quarters = quarterWrites(trx, false);
    const around = await readingsAround(trx, sensorUuid, fromMs, toMs);
    await replaceRollups(sensor, fromMs, toMs, around, quarters);
    await quarters.flush();
    const zone = (await zonesOfSensors(trx, [sensorUuid])).get(sensorUuid)!;
    // Whole: a recomputed quarter may lose its row, and a rewrite only writes rows over.
    await rebuildCoarseRollups(trx, sensorUuid, zone);
    return quarters.insert.written;
  });
}

/** The rollups of the sensors with bucket_start in [fromMs, toMs), by sensor uuid then time. */
export function rollupsOf(
  db: Db,
  sensorUuids: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<SensorRollup[]> {
  if (sensorUuids.length === 0) return Promise.resolve([]);
  return rowsOf(
    db,
    db
      .selectFrom('sensor_rollups')
      .select([
        'sensor_uuid as sensorUuid',
        'bucket_start as bucketStart',
        'energy_kwh as energyKwh',
        'mean_value as meanValue',
        'min_value as minValue',
        'max_value as maxValue',
        'sample_count as sampleCount',
        'covered_seconds as coveredSeconds',
      ])
      .where('sensor_uuid', 'in', [...sensorUuids])
      .where('bucket_start', '>=', fromMs)
      .where('bucket_start', '<', toMs)
      .orderBy('sensor_uuid')
      .orderBy('bucket_start')
      .compile(),
  );
}

/** The raw readings of the sensors taken in [fromMs, toMs), by sensor uuid then time. */
export async function readingsOf(
  db: Db,
  sensorUuids: string | readonly string[],
  fromMs: number,
  toMs: number,
): Promise<SensorReading[]> {
  const uuids = typeof sensorUuids === 'string' ? [sensorUuids] : [...new Set(sensorUuids)].sort();
  const result: SensorReading[] = [];
  // One range scan of the primary key per sensor: already in order, no sort step.
  for (const sensorUuid of uuids) {
    const rows = await rowsOf(
      db,
      db
        .selectFrom('readings')
        .select(['sensor_uuid as sensorUuid', 'taken_at as takenAt', 'value'])
        .where('sensor_uuid', '=', sensorUuid)
        .where('taken_at', '>=', fromMs)
        .where('taken_at', '<', toMs)
        .orderBy('taken_at')
        .compile(),
    );
    for (const row of rows) result.push(row);
  }
  return result;
}

/** The sensor's latest reading before `ms`: it holds into a range starting at `ms`. */
export async function readingBefore(
  db: Db,
  sensorUuid: string,
  ms: number,
): Promise<Sample | undefined> {
  const [row] = await rowsOf(
    db,
    db
      .selectFrom('readings')
      .select(['taken_at as takenAt', 'value'])
      .where('sensor_uuid', '=', sensorUuid)
      .where('taken_at', '<', ms)
      .orderBy('taken_at', 'desc')
      .limit(1)
      .compile(),
  );
  return row;
}

/** The sensor's earliest reading at or after `ms`. */
export async function readingAtOrAfter(
  db: Db,
  sensorUuid: string,
  ms: number,
): Promise<Sample | undefined> {
  const [row] = await rowsOf(
    db,
    db
      .selectFrom('readings')
      .select(['taken_at as takenAt', 'value'])
      .where('sensor_uuid', '=', sensorUuid)
      .where('taken_at', '>=', ms)
      .orderBy('taken_at')
      .limit(1)
      .compile(),
  );
  return row;
}

/** The time of each sensor's latest reading; sensors without readings are absent. */
export async function latestReadingTimes(
  db: Db,
  sensorUuids: readonly string[],
): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  for (const sensorUuid of sensorUuids) {
    const row = await readingBefore(db, sensorUuid, Number.MAX_SAFE_INTEGER);
    if (row) latest.set(sensorUuid, row.takenAt);
  }
  return latest;
}

const ROLLUPS: RowsTable<'sensor_rollups'> = {
  table: 'sensor_rollups',
  columns: [
    { name: 'sensor_uuid', pgType: 'text' },
    { name: 'bucket_start', pgType: 'int8' },
    { name: 'energy_kwh', pgType: 'float8' },
    { name: 'mean_value', pgType: 'float8' },
    { name: 'min_value', pgType: 'float8' },
    { name: 'max_value', pgType: 'float8' },
    { name: 'sample_count', pgType: 'int4' },
    { name: 'covered_seconds', pgType: 'float8' },
  ],
};

/** The earliest and latest times of the batches; undefined when they hold no reading. */
function timeSpanOf(
  batches: readonly SensorReadings[],
): { fromMs: number; toMs: number } | undefined {
  let fromMs = Infinity;
  let toMs = -Infinity;
  for (const { takenAt } of batches) {
    if (takenAt.length === 0) continue;
    fromMs = Math.min(fromMs, takenAt[0]!);
    toMs = Math.max(toMs, takenAt[takenAt.length - 1]!);
  }
  return fromMs <= toMs ? { fromMs, toMs } : undefined;
}

function checkColumns({ sensor, takenAt, values }: SensorReadings): void {
  if (takenAt.length !== values.length) {
    throw new RangeError(
      `Readings of sensor ${sensor.sensorUuid}: times and values differ in length`,
    );
  }
  for (let index = 0; index < takenAt.length; index++) {
    if (index > 0 && !(takenAt[index]! > takenAt[index - 1]!)) {
      throw new RangeError(
        `Readings of sensor ${sensor.sensorUuid} must be strictly increasing in time (index ${index})`,
      );
    }
    if (!Number.isFinite(values[index]!) || !Number.isSafeInteger(takenAt[index]!)) {
      throw new RangeError(`Reading ${index} of sensor ${sensor.sensorUuid} is not finite`);
    }
  }
}

/**
 * Takes the sensors' row locks for the rest of the transaction (PostgreSQL: concurrent writers
 * of one sensor's readings go one after the other, so each recomputes rollups from the other's
 * readings) and checks they still exist. A no-op update is the portable way to do both, one
 * statement for all of them. On PostgreSQL this is also what keeps readings from outliving
 * their sensor, in place of a foreign key (migration 0009): a delete of a sensor waits for
 * this lock, or this for it. Answers whether each sensor is mounted backwards, read under that
 * lock: a change of the setting (signInversion.ts) turns the stored readings in a transaction
 * that holds the same lock, so each reading is negated exactly as often as the setting says.
 */
async function lockSensors(
  trx: Db,
  sensorUuids: readonly string[],
): Promise<ReadonlyMap<string, boolean>> {
  const inverted = new Map<string, boolean>();
  if (sensorUuids.length === 0) return inverted;
  const locked = await trx
    .updateTable('sensors')
    .set((eb) => ({ sampling_interval_seconds: eb.ref('sampling_interval_seconds') }))
    .where('sensor_uuid', 'in', [...sensorUuids])
    .returning(['sensor_uuid', 'sign_inverted'])
    .execute();
  for (const row of locked) inverted.set(row.sensor_uuid, row.sign_inverted === 1);
  const missing = sensorUuids.find((sensorUuid) => !inverted.has(sensorUuid));
  if (missing) throw notFound(`Sensor ${missing} not found`);
  return inverted;
}

async function ingestSensor(
  trx: Db,
  batch: SensorReadings,
  readingsInsert: RawReadingsInsert,
  quarterWrites: QuarterWrites,
): Promise<RewrittenQuarters> {
  const { sensor, takenAt, values } = batch;
  const sensorUuid = sensor.sensorUuid;
  const first = takenAt[0]!;
  const last = takenAt[takenAt.length - 1]!;
  const { before: previous, after: next } = await neighboursOf(trx, sensorUuid, first, last + 1);
  const fromMs = bucketStartOf(previous?.takenAt ?? first);
  const toMs = bucketCeil(next?.takenAt ?? last + sensor.samplingIntervalSeconds * 1000);

  // Read before the write: the batch lies inside [fromMs, toMs), so the readings before and
  // after the span are the same either side of it.
  const around = await readingsAround(trx, sensorUuid, fromMs, toMs);
  const stored = around.samples;
  const merged = mergeReadings(stored, batch);

  // The stored readings of the span hold every time of the batch that is stored.
  const replacesStored = merged.takenAt.length < stored.takenAt.length + takenAt.length;
  await readingsInsert.write(sensorUuid, takenAt, values, replacesStored);
  const quarters = await replaceRollups(
    sensor,
    fromMs,
    toMs,
    { ...around, samples: merged },
    quarterWrites,
  );
  return { fromMs, toMs, quarters };
}

/**
 * The 15-minute rows of a transaction: those of a span cleared (`clear`), then queued anew in
 * `insert`; `flush` writes what waits, before anything reads them. On PostgreSQL, `deferred`
 * clears the spans of all sensors in one statement at `flush` too.
 */
interface QuarterWrites {
  insert: RowsInsert;
  clear(sensorUuid: string, fromMs: number, toMs: number): Promise<void>;
  flush(): Promise<void>;
}

function quarterWrites(trx: Db, deferred: boolean): QuarterWrites {
  const insert = rowsInsert(trx, ROLLUPS, ROLLUP_CHUNK_ROWS);
  const cleared = { sensorUuids: [] as string[], froms: [] as number[], tos: [] as number[] };
  return {
    insert,
    async clear(sensorUuid, fromMs, toMs) {
      if (!deferred) return deleteQuarters(trx, sensorUuid, fromMs, toMs);
      cleared.sensorUuids.push(sensorUuid);
      cleared.froms.push(fromMs);
      cleared.tos.push(toMs);
    },
    async flush() {
      if (cleared.sensorUuids.length > 0) {
        const spans = [cleared.sensorUuids, cleared.froms, cleared.tos];
        cleared.sensorUuids = [];
        cleared.froms = [];
        cleared.tos = [];
        await trx.executeQuery(CompiledQuery.raw(DELETE_QUARTER_SPANS, spans));
      }
      await insert.flush();
    },
  };
}

/** PostgreSQL: the 15-minute rows of several sensors' spans, each an index range. */
const DELETE_QUARTER_SPANS = `delete from sensor_rollups as r
  using unnest($1::text[], $2::int8[], $3::int8[]) as span(sensor_uuid, from_ms, to_ms)
  where r.sensor_uuid = span.sensor_uuid
    and r.bucket_start >= span.from_ms and r.bucket_start < span.to_ms`;

async function deleteQuarters(
  trx: Db,
  sensorUuid: string,
  fromMs: number,
  toMs: number,
): Promise<void> {
  await trx
    .deleteFrom('sensor_rollups')
    .where('sensor_uuid', '=', sensorUuid)
    .where('bucket_start', '>=', fromMs)
    .where('bucket_start', '<', toMs)
    .execute();
}

/**
 * Clears the rollups of [fromMs, toMs) and queues them anew from the readings of that span and
 * the ones just before and after it (the caller flushes them before anything reads them);
 * answers the rows, oldest first.
 */
async function replaceRollups(
  sensor: ReadingSensor,
  fromMs: number,
  toMs: number,
  { before, samples, after }: ReadingsAround,
  quarters: QuarterWrites,
): Promise<Rollup[]> {
  const sensorUuid = sensor.sensorUuid;
  await quarters.clear(sensorUuid, fromMs, toMs);
  const rollups = computeRollups({
    kind: sensor.kind,
    samplingIntervalSeconds: sensor.samplingIntervalSeconds,
    fromMs,
    toMs,
    samples,
    before,
    after,
  });
  for (const rollup of rollups) {
    const pending = quarters.insert.add(
      sensorUuid,
      rollup.bucketStart,
      rollup.energyKwh,
      rollup.meanValue,
      rollup.minValue,
      rollup.maxValue,
      rollup.sampleCount,
      rollup.coveredSeconds,
    );
    if (pending) await pending;
  }
  return rollups;
}

/** Stored and new readings in time order; a new reading replaces a stored one at its time. */
function mergeReadings(stored: SampleColumns, incoming: SampleColumns): SampleColumns {
  if (stored.takenAt.length === 0) return incoming;
  const takenAt: number[] = [];
  const values: number[] = [];
  let s = 0;
  let i = 0;
  while (s < stored.takenAt.length || i < incoming.takenAt.length) {
    const storedAt = s < stored.takenAt.length ? stored.takenAt[s]! : Infinity;
    const incomingAt = i < incoming.takenAt.length ? incoming.takenAt[i]! : Infinity;
    if (incomingAt <= storedAt) {
      takenAt.push(incomingAt);
      values.push(incoming.values[i]!);
      i += 1;
      if (incomingAt === storedAt) s += 1;
    } else {
      takenAt.push(storedAt);
      values.push(stored.values[s]!);
      s += 1;
    }
  }
  return { takenAt, values };
}
