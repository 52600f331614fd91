import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * Readings and their 15-minute rollups. Times are epoch milliseconds (UTC): a 15-minute grid in
 * UTC is also a 15-minute grid in every zone (all offsets in use are multiples of 15 minutes), so
 * local hours and days, 23- and 25-hour DST days included, are exact sums of whole buckets.
 * `bigint` is SQLite's INTEGER and PostgreSQL's int8, read back as a number on both (postgres.ts);
 * the tables are the same on both engines (partitioning readings on PostgreSQL is to come).
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('readings')
    .addColumn('sensor_uuid', 'text', (c) =>
      c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
    )
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('readings_pk', ['sensor_uuid', 'taken_at'])
    .execute();

  await db.schema
    .createTable('sensor_rollups')
    .addColumn('sensor_uuid', 'text', (c) =>
      c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
    )
    .addColumn('bucket_start', 'bigint', (c) => c.notNull())
    // kWh in the bucket: the integral of a POWER sensor, the increase of an ENERGY counter;
    // null for other data types.
    .addColumn('energy_kwh', 'double precision')
    // Time-weighted mean of the value over the covered part of the bucket.
    .addColumn('mean_value', 'double precision', (c) => c.notNull())
    .addColumn('min_value', 'double precision', (c) => c.notNull())
    .addColumn('max_value', 'double precision', (c) => c.notNull())
    .addColumn('sample_count', 'integer', (c) => c.notNull())
    .addColumn('covered_seconds', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('sensor_rollups_pk', ['sensor_uuid', 'bucket_start'])
    .execute();
}
