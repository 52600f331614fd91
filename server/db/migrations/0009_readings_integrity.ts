import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * On PostgreSQL, `readings` loses its foreign key to `sensors`: checking it cost a lookup of
 * the sensor (and a KEY SHARE lock on it) for every row inserted, the largest single cost of
 * ingestion. Its two guarantees are kept at statement level instead:
 *
 * - No reading without its sensor: the only writer of readings (`ingestMany`) locks the
 *   sensor's row once per batch, before writing, and answers 404 when it is gone; a delete of
 *   the sensor waits for that lock, and a writer waits for a delete in progress, then finds
 *   nothing to lock.
 * - ON DELETE CASCADE as before: an AFTER DELETE trigger on `sensors`, once per statement,
 *   deletes the readings of every sensor that statement deleted (also when the sensors go by
 *   the cascade of a plant's or an organization's delete), in the same transaction.
 *
 * The rollup tables keep their foreign keys (a few rows per hundred readings). SQLite is
 * unchanged: its foreign key check is an index probe in process, not worth a trigger.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;

  // Named by PostgreSQL when 0008 made the table (readings_sensor_uuid_fkey1 there): found,
  // not assumed, and dropped on the partitioned parent, which drops it on every partition.
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = 'readings'::regclass and contype = 'f'
      and confrelid = 'sensors'::regclass`.execute(db);
  for (const { name } of rows) {
    await sql`alter table readings drop constraint ${sql.id(name)}`.execute(db);
  }

  await sql`create function delete_readings_of_deleted_sensors() returns trigger
    language plpgsql as $$
    begin
      -- readings.sensor_uuid is collated "C" (0008): compared so, its key index serves.
      delete from readings r using deleted_sensors d
      where r.sensor_uuid = d.sensor_uuid collate "C";
      return null;
    end
    $$`.execute(db);
  await sql`create trigger sensors_delete_readings
    after delete on sensors
    referencing old table as deleted_sensors
    for each statement execute function delete_readings_of_deleted_sensors()`.execute(db);
}
