import { sql, type Kysely } from 'kysely';
import type { Db } from '../database.ts';
import type { Engine } from '../engine.ts';
import { repackHourDays } from '../../measurements/hourDays.ts';

/**
 * `sensor_hour_days`: a sensor's hourly rollups of one UTC day packed in one row
 * (`hourDays.ts`), so a month of hourly history reads 31 rows per sensor, not 720.
 *
 * What differs between the engines: the packed column is a `blob` on SQLite and a `bytea` on
 * PostgreSQL (the same bytes), and on SQLite the table is WITHOUT ROWID, a sensor's days lying
 * together in key order as the other rollup tables do (0005); PostgreSQL is analyzed once
 * filled, as there. Existing hourly rows are packed here with the code ingestion keeps the
 * table with (a backfill that follows that code).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const table = db.schema
    .createTable('sensor_hour_days')
    .addColumn('sensor_uuid', 'text', (c) =>
      c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
    )
    .addColumn('day_start', 'bigint', (c) => c.notNull())
    .addColumn('hours', engine === 'sqlite' ? 'blob' : sql`bytea`, (c) => c.notNull())
    .addPrimaryKeyConstraint('sensor_hour_days_pk', ['sensor_uuid', 'day_start']);
  await (engine === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table).execute();

  const sensors = await sql<{ sensor_uuid: string }>`
    select distinct sensor_uuid from sensor_hourly_rollups
  `.execute(db);
  const ever = { start: Number.MIN_SAFE_INTEGER, end: Number.MAX_SAFE_INTEGER };
  for (const { sensor_uuid } of sensors.rows) {
    // No points: their column comes with 0016, which writes them.
    await repackHourDays(db as unknown as Db, sensor_uuid, null, ever);
  }
  if (engine === 'postgres' && sensors.rows.length > 0) {
    await sql`analyze sensor_hour_days`.execute(db);
  }
}
