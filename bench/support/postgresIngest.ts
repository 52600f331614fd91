import { sql } from 'kysely';
import { inTransaction, type Db } from '../../server/db/database.ts';
import { readingSensorsOf } from '../../server/measurements/readingSensors.ts';
import { startServer } from '../../server/index.ts';
import { startPostgresCluster } from '../../test/support/postgresCluster.ts';
import { BenchApi } from './benchApi.ts';
import { benchServerOptions } from './postgresYearPlant.ts';
import { ingestDays, type IngestRun } from './yearIngest.ts';
import { ADMIN, createPlantModel } from './yearPlant.ts';
import type { YearReadings } from './yearReadings.ts';

/**
 * Ingestion on PostgreSQL, in a throwaway cluster: the year plant made through the API of a
 * server on that cluster, then the first days of the simulated year written through the readings
 * store (`ingestMany`, a day of all sensors per call, with its rollups), against the same rows
 * written bare into a plain table of the same columns (no keys, no indexes, no partitions), one
 * multi-row `INSERT … SELECT FROM unnest(…)` per sensor and day in a single transaction. The
 * bare insert runs before and after the store, as on SQLite.
 */

export interface PostgresIngestRun {
  bare: { rows: number; seconds: number }[];
  store: IngestRun;
}

export async function postgresIngestion(
  year: YearReadings,
  days: number,
): Promise<PostgresIngestRun> {
  const cluster = await startPostgresCluster('plantdesk_ingest');
  try {
    const server = await startServer({ ...benchServerOptions(cluster.url), admin: ADMIN });
    try {
      const api = await BenchApi.login(server.url, ADMIN);
      const { sensors } = await createPlantModel(api);
      const db = server.context.db;
      const sensorUuids = sensors.map((sensor) => sensor.sensorUuid);
      const selected = year.slice(0, days);
      const bareBefore = await bareUnnestInsert(db, sensorUuids, selected);
      const found = await readingSensorsOf(db, sensorUuids);
      const readingSensors = sensorUuids.map((uuid) => found.get(uuid)!);
      const store = await ingestDays(db, readingSensors, selected);
      const bareAfter = await bareUnnestInsert(db, sensorUuids, selected);
      return { bare: [bareBefore, bareAfter], store };
    } finally {
      await server.close();
    }
  } finally {
    await cluster.stop();
  }
}

async function bareUnnestInsert(
  db: Db,
  sensorUuids: readonly string[],
  days: YearReadings,
): Promise<{ rows: number; seconds: number }> {
  await sql`drop table if exists bare_readings`.execute(db);
  await sql`create table bare_readings (sensor text, t int8, v float8)`.execute(db);
  let rows = 0;
  const started = performance.now();
  await inTransaction(db, async (trx) => {
    for (const day of days) {
      for (const [index, { takenAt, values }] of day.entries()) {
        await sql`
          insert into bare_readings (sensor, t, v)
          select ${sensorUuids[index]!}::text, * from unnest(
            ${Array.from(takenAt)}::int8[], ${Array.from(values)}::float8[]
          )
        `.execute(trx);
        rows += takenAt.length;
      }
    }
  });
  const seconds = (performance.now() - started) / 1000;
  await sql`drop table bare_readings`.execute(db);
  return { rows, seconds };
}
