import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * Sensors that have received readings through the readings endpoint. Such a sensor is fed by
 * its owner from then on, so the simulator never writes to it again, even when its address is
 * `sim://...` (a test suite may create simulator sensors and ingest its own known readings).
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('externally_fed_sensors')
    .addColumn('sensor_uuid', 'text', (c) =>
      c.primaryKey().references('sensors.sensor_uuid').onDelete('cascade'),
    )
    // When the first readings arrived, ISO 8601 UTC.
    .addColumn('first_fed_at', 'text', (c) => c.notNull())
    .execute();
}
