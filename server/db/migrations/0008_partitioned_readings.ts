import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

/**
 * On PostgreSQL, `readings` becomes a table partitioned by RANGE (taken_at), one partition per
 * UTC month (`readings_2026_06` holds [2026-06-01T00:00Z, 2026-07-01T00:00Z) in epoch ms), so
 * that raw retention drops whole months (a DROP TABLE, not a DELETE of millions of rows) and a
 * year of 1-minute readings stays cheap to keep and to trim. The primary key (sensor_uuid,
 * taken_at) includes the partition key, as PostgreSQL requires; the foreign key to sensors
 * (on delete cascade) is the same. Existing rows move into the new table; partitions for later
 * months are created by the writers as they need them (server/db/readingPartitions.ts). There
 * is no DEFAULT partition (readingPartitions.ts says why).
 *
 * `sensor_uuid` is collated "C" here: a UUID sorts and compares the same under every collation,
 * and the byte comparison makes the primary key's index markedly cheaper to maintain than the
 * database's default (libc) collation, on the table that takes most of the writes.
 *
 * SQLite is unchanged: it has no partitioning, and retention there deletes rows.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;

  await sql`alter table readings rename to readings_unpartitioned`.execute(db);
  // Index names are per schema: the old primary key's would clash with the new one's.
  await sql`alter table readings_unpartitioned
    rename constraint readings_pk to readings_unpartitioned_pk`.execute(db);

  await sql`create table readings (
    sensor_uuid text collate "C" not null
      references sensors (sensor_uuid) on delete cascade,
    taken_at bigint not null,
    value double precision not null,
    constraint readings_pk primary key (sensor_uuid, taken_at)
  ) partition by range (taken_at)`.execute(db);

  const { rows } = await sql<{ month_start: string | number }>`
    select distinct (extract(epoch from date_trunc('month',
      to_timestamp(taken_at / 1000.0) at time zone 'UTC')) * 1000)::int8 as month_start
    from readings_unpartitioned`.execute(db);
  for (const row of rows) {
    const start = new Date(Number(row.month_start));
    const startMs = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1);
    const endMs = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    const name = `readings_${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
    await sql`create table ${sql.id(name)} partition of readings
      for values from (${sql.lit(startMs)}) to (${sql.lit(endMs)})`.execute(db);
  }

  await sql`insert into readings (sensor_uuid, taken_at, value)
    select sensor_uuid, taken_at, value from readings_unpartitioned`.execute(db);
  await sql`drop table readings_unpartitioned`.execute(db);
}
