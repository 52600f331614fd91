import type { Db } from '../../db/database.ts';
import { tuplesOf } from '../../db/fastQuery.ts';
import type { Sample } from '../../measurements/rollups.ts';
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
