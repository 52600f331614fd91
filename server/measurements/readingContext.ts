import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import type { Sample, SampleColumns } from './rollups.ts';

/**
 * The reads a write of readings needs around its span, each in one query: a round trip to
 * PostgreSQL costs more than the index probes themselves, and the ingestion makes these for
 * every sensor of every batch. Each part is a range scan of the primary key, as a query of its
 * own would be.
 */

/** A sensor's stored readings of [fromMs, toMs), with the one before and the one after. */
export interface ReadingsAround {
  /** The latest reading before fromMs: it holds into the span. */
  before: Sample | undefined;
  samples: SampleColumns;
  /** The earliest reading at or after toMs: it ends the span's last hold. */
  after: Sample | undefined;
}

/** The sensor's latest reading before `beforeMs` and its earliest at or after `atOrAfterMs`. */
export async function neighboursOf(
  db: Db,
  sensorUuid: string,
  beforeMs: number,
  atOrAfterMs: number,
): Promise<{ before: Sample | undefined; after: Sample | undefined }> {
  const rows = await rowsOf(
    db,
    latestBefore(db, sensorUuid, beforeMs)
      .unionAll(earliestFrom(db, sensorUuid, atOrAfterMs))
      .compile(),
  );
  return {
    before: rows.find((row) => row.takenAt < beforeMs),
    after: rows.find((row) => row.takenAt >= atOrAfterMs),
  };
}

/** As `ReadingsAround` says; `fromMs` ≤ `toMs`. */
export async function readingsAround(
  db: Db,
  sensorUuid: string,
  fromMs: number,
  toMs: number,
): Promise<ReadingsAround> {
  const inSpan = db
    .selectFrom('readings')
    .select(['taken_at as takenAt', 'value'])
    .where('sensor_uuid', '=', sensorUuid)
    .where('taken_at', '>=', fromMs)
    .where('taken_at', '<', toMs);
  const rows = await rowsOf(
    db,
    latestBefore(db, sensorUuid, fromMs)
      .unionAll(db.selectFrom(inSpan.as('in_span')).selectAll())
      .unionAll(earliestFrom(db, sensorUuid, toMs))
      .orderBy('takenAt')
      .compile(),
  );
  let first = 0;
  let end = rows.length;
  const before = rows[0] && rows[0].takenAt < fromMs ? rows[first++] : undefined;
  const after = end > first && rows[end - 1]!.takenAt >= toMs ? rows[--end] : undefined;
  const samples = rows.slice(first, end);
  return {
    before,
    samples: {
      takenAt: samples.map((row) => row.takenAt),
      values: samples.map((row) => row.value),
    },
    after,
  };
}

// Wrapped as derived tables: a member of a UNION takes no ORDER BY or LIMIT of its own.
const latestBefore = (db: Db, sensorUuid: string, ms: number) =>
  db
    .selectFrom(
      db
        .selectFrom('readings')
        .select(['taken_at as takenAt', 'value'])
        .where('sensor_uuid', '=', sensorUuid)
        .where('taken_at', '<', ms)
        .orderBy('taken_at', 'desc')
        .limit(1)
        .as('latest_before'),
    )
    .selectAll();

const earliestFrom = (db: Db, sensorUuid: string, ms: number) =>
  db
    .selectFrom(
      db
        .selectFrom('readings')
        .select(['taken_at as takenAt', 'value'])
        .where('sensor_uuid', '=', sensorUuid)
        .where('taken_at', '>=', ms)
        .orderBy('taken_at')
        .limit(1)
        .as('earliest_from'),
    )
    .selectAll();
