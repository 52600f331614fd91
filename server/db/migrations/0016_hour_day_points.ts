import { sql, type Kysely } from 'kysely';
import type { Db } from '../database.ts';
import type { Engine } from '../engine.ts';
import { repackHourDays } from '../../measurements/hourDays.ts';

/**
 * `sensor_hour_day_points`: for each sensor-day of `sensor_hour_days` (0014), the day's points
 * of a one-sensor hourly power history in the plant's zone as JSON text (`hourPointsJson.ts`),
 * so a 30-day window joins ~31 texts rather than writing 720 points.
 *
 * A table of its own rather than a column beside the packed hours: a day's text (~1.8 kB) would
 * make those rows too big for their pages, and the hourly energy reads, which want the hours
 * only, would walk one page per row where they walk a few for a month.
 *
 * What differs between the engines: on SQLite an ordinary rowid table, unlike 0014's WITHOUT
 * ROWID: there a row longer than about a quarter of a page spills into overflow pages, which
 * SQLite reads with a system call each, bypassing its cache (it cost a 30-day window more than
 * the second lookup by rowid a row of its own costs). On PostgreSQL the text is stored PLAIN,
 * in its row uncompressed: a row is ~2 kB, where pglz would otherwise compress it and every read
 * decompress it. Existing hours are written with their points here, with the code ingestion
 * keeps the tables with (a backfill that follows that code).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('sensor_hour_day_points')
    .addColumn('sensor_uuid', 'text', (c) =>
      c.notNull().references('sensors.sensor_uuid').onDelete('cascade'),
    )
    .addColumn('day_start', 'bigint', (c) => c.notNull())
    .addColumn('points', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sensor_hour_day_points_pk', ['sensor_uuid', 'day_start'])
    .execute();
  if (engine === 'postgres') {
    await sql`alter table sensor_hour_day_points alter column points set storage plain`.execute(db);
  }

  const sensors = await sql<{ sensor_uuid: string; timezone: string }>`
    select s.sensor_uuid, p.timezone from sensors s
    join plants p on p.plant_uuid = s.plant_uuid
    where s.sensor_uuid in (select distinct sensor_uuid from sensor_hour_days)
  `.execute(db);
  const ever = { start: Number.MIN_SAFE_INTEGER, end: Number.MAX_SAFE_INTEGER };
  for (const { sensor_uuid, timezone } of sensors.rows) {
    await repackHourDays(db as unknown as Db, sensor_uuid, timezone, ever);
  }
  if (engine === 'postgres' && sensors.rows.length > 0) {
    await sql`analyze sensor_hour_day_points`.execute(db);
  }
}
