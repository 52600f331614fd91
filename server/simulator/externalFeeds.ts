import type { Db } from '../db/database.ts';

/**
 * Sensors fed through the readings endpoint. Once a sensor has received readings that way it
 * is its owner's to feed: the simulator never adds to them, whatever its address (a suite may
 * create `sim://` sensors and check metrics against readings it ingested itself). Durable, so
 * it holds across restarts.
 */

/** Records that readings arrived for the sensor through the API (idempotent). */
export async function markFedExternally(db: Db, sensorUuid: string, at: Date): Promise<void> {
  await db
    .insertInto('externally_fed_sensors')
    .values({ sensor_uuid: sensorUuid, first_fed_at: at.toISOString() })
    .onConflict((conflict) => conflict.column('sensor_uuid').doNothing())
    .execute();
}

/** Which of the sensors have been fed through the API. */
export async function externallyFed(db: Db, sensorUuids: readonly string[]): Promise<Set<string>> {
  if (sensorUuids.length === 0) return new Set();
  const rows = await db
    .selectFrom('externally_fed_sensors')
    .select('sensor_uuid')
    .where('sensor_uuid', 'in', [...sensorUuids])
    .execute();
  return new Set(rows.map((row) => row.sensor_uuid));
}
