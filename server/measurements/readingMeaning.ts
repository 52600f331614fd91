import type { Db } from '../db/database.ts';
import { deleteCoarseRollups } from './coarseRollupStore.ts';
import { recomputeRollups } from './readingsStore.ts';
import { readingSensorOf, type ReadingSensor } from './readingSensors.ts';

/**
 * A sensor's stored readings are read through its sampling interval (how long a sample holds)
 * and its primary data type (power, counter or level). When a sensor update changes either,
 * its rollups (15-minute, then hourly and daily) are recomputed in the same transaction, so the metrics
 * never mix the old meaning with the new.
 */

/**
 * Recomputes the sensor's rollups when its readings mean something else than `before` (its
 * `readingSensorOf` read in the same transaction before the update).
 */
export async function followReadingMeaning(
  trx: Db,
  sensorUuid: string,
  before: ReadingSensor | undefined,
): Promise<void> {
  const after = await readingSensorOf(trx, sensorUuid);
  if (
    before?.kind === after?.kind &&
    before?.samplingIntervalSeconds === after?.samplingIntervalSeconds
  ) {
    return;
  }
  if (after) {
    await recomputeRollups(trx, after);
  } else {
    // No data type left: its readings mean nothing any more.
    await trx.deleteFrom('sensor_rollups').where('sensor_uuid', '=', sensorUuid).execute();
    await deleteCoarseRollups(trx, sensorUuid);
  }
}
