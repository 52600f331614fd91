import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { ingestMany } from '../../server/measurements/readingsStore.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../support/testDatabases.ts';
import { openMeasurementsFixture } from '../unit/measurements/measurementsFixture.ts';

/**
 * The hours packed by UTC day (migration 0014) on either engine: a database from before them
 * gets the rows ingestion would have kept, and a deleted sensor takes its rows along.
 */

const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 3, 10);

let folder: string | undefined;
let postgres: TestDatabase | undefined;
let location: string;

beforeAll(async () => {
  if (testEngine() === 'postgres') {
    postgres = await createTestDatabase();
    location = postgres.url;
  } else {
    folder = mkdtempSync(join(tmpdir(), 'plantdesk-hour-days-'));
    location = join(folder, 'hour-days.db');
  }
});
afterAll(async () => {
  await postgres?.drop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('hours packed by UTC day', () => {
  it('are backfilled by migration 0014 as ingestion keeps them, and go with their sensor', async () => {
    const fixture = await openMeasurementsFixture(location);
    const sensor = await fixture.addSensor(['POWER'], 60);
    const minutes = 3 * 24 * 60 + 17;
    await ingestMany(fixture.db, [
      {
        sensor,
        takenAt: Array.from({ length: minutes }, (_, minute) => DAY0 - 5 * HOUR + minute * 60_000),
        values: Array.from({ length: minutes }, (_, minute) => 500 + 400 * Math.sin(minute / 50)),
      },
    ]);
    const kept = await packedRows(fixture.db);
    expect(kept.map((row) => Number(row.day_start))).toEqual([
      DAY0 - 86_400_000,
      DAY0,
      DAY0 + 86_400_000,
      DAY0 + 2 * 86_400_000,
    ]);
    // A database from before 0014: the table gone, it and the later migrations not yet run
    // (0015's list indexes dropped, so that it runs again after 0014).
    await sql`drop table sensor_hour_days`.execute(fixture.db);
    for (const index of await listIndexes(fixture.db)) {
      await sql`drop index ${sql.id(index)}`.execute(fixture.db);
    }
    await sql`delete from kysely_migration where name >= '0014'`.execute(fixture.db);
    await fixture.opened.close();

    const migrated = await openDatabase(location);
    try {
      expect(await packedRows(migrated.db)).toEqual(kept);
      await migrated.db
        .deleteFrom('sensors')
        .where('sensor_uuid', '=', sensor.sensorUuid)
        .execute();
      expect(await packedRows(migrated.db)).toEqual([]);
    } finally {
      await migrated.close();
    }
  });
});

/** The indexes migration 0015 makes. */
async function listIndexes(db: Db): Promise<string[]> {
  const { rows } =
    testEngine() === 'postgres'
      ? await sql<{ name: string }>`
          select indexname as name from pg_indexes where indexname like 'plants_list_%'`.execute(db)
      : await sql<{ name: string }>`
          select name from sqlite_master where type = 'index' and name like 'plants_list_%'`.execute(
          db,
        );
  return rows.map((row) => row.name);
}

/** The rows as text, alike on both engines (a blob is a Uint8Array on one, a Buffer on the other). */
const packedRows = async (db: Db) =>
  (await db.selectFrom('sensor_hour_days').selectAll().orderBy('day_start').execute()).map(
    (row) => ({
      sensor_uuid: row.sensor_uuid,
      day_start: String(row.day_start),
      hours: Buffer.from(row.hours).toString('hex'),
    }),
  );
