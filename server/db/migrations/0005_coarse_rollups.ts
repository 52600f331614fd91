import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { rebuildCoarseRollups } from '../../measurements/coarseRollupStore.ts';
import type { Db } from '../database.ts';
import type { Engine } from '../engine.ts';

/**
 * Hourly and daily rollups beside the 15-minute ones (`coarseRollups.ts`): hours are UTC hours,
 * days the local days of the sensor's plant zone, so a day row carries its end (23, 24 or 25
 * hours later). The columns are the 15-minute table's, with the same types on both engines
 * (`bigint` is SQLite's INTEGER and PostgreSQL's int8, read back as a number on both).
 *
 * Existing databases get the rows here, made from their 15-minute rollups with the code the
 * ingestion keeps them with (a backfill, not a schema: it follows that code, as it should).
 * What differs between the engines: on SQLite the tables are WITHOUT ROWID, so a sensor's rows
 * lie together in primary-key order and a 30-day read of 720 hours is one range scan (a rowid
 * table would look each row up again through its key index); PostgreSQL has no such tables
 * (its heap is read through the key index either way), and plans its first reads of a freshly
 * filled table from no statistics, so it is analyzed once filled.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const clustered = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    engine === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
  const coarseColumns = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    table
      .addColumn('energy_kwh', 'double precision')
      .addColumn('mean_value', 'double precision', (c) => c.notNull())
      .addColumn('min_value', 'double precision', (c) => c.notNull())
      .addColumn('max_value', 'double precision', (c) => c.notNull())
      .addColumn('sample_count', 'integer', (c) => c.notNull())
      .addColumn('covered_seconds', 'double precision', (c) => c.notNull());

  await coarseColumns(
    db.schema
      .createTable('sensor_hourly_rollups')
      .addColumn('sensor_uuid', 'text', (c) =>
        c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
      )
      .addColumn('hour_start', 'bigint', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('sensor_hourly_rollups_pk', ['sensor_uuid', 'hour_start'])
    .$call(clustered)
    .execute();

  await coarseColumns(
    db.schema
      .createTable('sensor_daily_rollups')
      .addColumn('sensor_uuid', 'text', (c) =>
        c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
      )
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('day_end', 'bigint', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('sensor_daily_rollups_pk', ['sensor_uuid', 'day_start'])
    .$call(clustered)
    .execute();

  const sensors = await sql<{ sensor_uuid: string; timezone: string }>`
    select s.sensor_uuid, p.timezone
    from sensors s join plants p on p.plant_uuid = s.plant_uuid
    where exists (select 1 from sensor_rollups r where r.sensor_uuid = s.sensor_uuid)
  `.execute(db);
  for (const { sensor_uuid, timezone } of sensors.rows) {
    await rebuildCoarseRollups(db as unknown as Db, sensor_uuid, timezone);
  }
  if (engine === 'postgres' && sensors.rows.length > 0) {
    await sql`analyze sensor_hourly_rollups`.execute(db);
    await sql`analyze sensor_daily_rollups`.execute(db);
  }
}
