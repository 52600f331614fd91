import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLocalDateTime, POWER_UNIT } from '../../api/index.ts';
import { inTransaction, openDatabase, type Db } from '../../server/db/database.ts';
import type { PlantRow } from '../../server/db/tables.ts';
import { updatePlant } from '../../server/features/plants/plantStore.ts';
import {
  combineFlow,
  meanWatts,
  measureFlow,
} from '../../server/measurements/metrics/flowMeasures.ts';
import { historyRange } from '../../server/measurements/metrics/historyRange.ts';
import { startOfLocalHour, type TimeRange } from '../../server/measurements/metrics/localTime.ts';
import {
  consumptionFlow,
  energySensorsOf,
  type PlantFlow,
} from '../../server/measurements/metrics/plantFlows.ts';
import { powerHistory, type HistoryQuery } from '../../server/measurements/metrics/powerHistory.ts';
import { spanOf } from '../../server/measurements/metrics/seriesEnvelope.ts';
import { seriesJson } from '../../server/measurements/metrics/seriesJson.ts';
import { ingestMany } from '../../server/measurements/readingsStore.ts';
import { negateStoredReadings } from '../../server/measurements/signInversion.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../support/testDatabases.ts';
import { openMeasurementsFixture } from '../unit/measurements/measurementsFixture.ts';

/**
 * The hours packed by UTC day (migration 0014) and their points (0016) on either engine: a
 * database from before them gets the rows ingestion would have kept, and a deleted sensor takes
 * its rows along. The points answer an hourly power history byte for byte as the hours do, as
 * ingestion, a new zone and a sign inversion leave them.
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
  it('are backfilled by migrations 0014 and 0016 as ingestion keeps them, and go with their sensor', async () => {
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
    const keptPoints = await pointRows(fixture.db);
    expect(keptPoints).toHaveLength(4);
    // A database from before 0014: its tables gone, it and the later migrations not yet run
    // (0015's list indexes, 0017's search suffixes, 0020's plant counts and 0021's plant list
    // versions dropped, so that they run again after it).
    await sql`drop table sensor_hour_day_points`.execute(fixture.db);
    await sql`drop table sensor_hour_days`.execute(fixture.db);
    for (const index of await listIndexes(fixture.db)) {
      await sql`drop index ${sql.id(index)}`.execute(fixture.db);
    }
    await dropSearchSuffixes(fixture.db);
    await dropTriggerKeptTable(fixture.db, 'plant_counts', 'plant_counts_of_plant');
    await dropTriggerKeptTable(fixture.db, 'plant_list_versions', 'plant_list_versions_bump');
    await sql`delete from kysely_migration where name >= '0014'`.execute(fixture.db);
    await fixture.opened.close();

    const migrated = await openDatabase(location);
    try {
      expect(await packedRows(migrated.db)).toEqual(kept);
      expect(await pointRows(migrated.db)).toEqual(keptPoints);
      await migrated.db
        .deleteFrom('sensors')
        .where('sensor_uuid', '=', sensor.sensorUuid)
        .execute();
      expect(await packedRows(migrated.db)).toEqual([]);
      expect(await pointRows(migrated.db)).toEqual([]);
    } finally {
      await migrated.close();
    }
  });
});

describe('hourly points stored beside the packed hours', () => {
  it('answer an hourly power history byte for byte as the hours do, as ingestion, a new zone and a sign inversion leave them', async () => {
    const database = testEngine() === 'postgres' ? await createTestDatabase() : undefined;
    const fixture = await openMeasurementsFixture(database?.url ?? ':memory:');
    try {
      const { db, plantUuid } = fixture;
      const sensor = await fixture.addSensor(['POWER'], 60);
      // Five days around Rome's spring DST change, without readings for a day and a half.
      const first = Date.UTC(2026, 2, 27, 5);
      const takenAt = Array.from(
        { length: 5 * 24 * 60 },
        (_, minute) => first + minute * 60_000,
      ).filter((at) => at < Date.UTC(2026, 2, 29, 7) || at >= Date.UTC(2026, 2, 30, 19));
      await ingestMany(db, [
        {
          sensor,
          takenAt,
          values: takenAt.map((at) => 800 + 700 * Math.sin(at / 3_000_000)),
        },
      ]);
      const windows = [
        ['2026-03-26T00:00', '2026-04-02T00:00'],
        ['2026-03-15T00:00', '2026-04-10T00:00'],
        ['2026-03-28T00:00', '2026-03-30T00:00'],
        ['2026-03-29T01:00', '2026-03-29T04:00'],
        ['2026-03-27T13:00', '2026-03-31T09:30'],
        ['2026-03-29T02:30', '2026-03-29T02:45'],
        ['2026-03-30T23:00', '2026-03-31T00:00'],
      ].map(([startDate, endDate]) => ({
        startDate: parseLocalDateTime(startDate!)!,
        endDate: parseLocalDateTime(endDate!)!,
        granularity: 'hours' as const,
      }));
      const answersAgree = async () => {
        const plant = await db
          .selectFrom('plants')
          .selectAll()
          .where('plant_uuid', '=', plantUuid)
          .executeTakeFirstOrThrow();
        const flow = consumptionFlow(await energySensorsOf(db, plantUuid));
        for (const query of windows) {
          const answer = String((await powerHistory(db, plant, flow, query)).body);
          expect(answer).toBe(String((await computedAfresh(db, plant, flow, query)).body));
        }
        return plant;
      };

      const rome = await answersAgree();
      for (const timezone of ['America/New_York', 'Asia/Kathmandu', 'Asia/Tokyo']) {
        const current = await db
          .selectFrom('plants')
          .selectAll()
          .where('plant_uuid', '=', plantUuid)
          .executeTakeFirstOrThrow();
        await updatePlant(
          db,
          current,
          { location: { latitude: 45, longitude: 7, timezone } },
          '2026-11-01T00:00:00Z',
        );
        await answersAgree();
      }
      await inTransaction(db, (trx) => negateStoredReadings(trx, sensor.sensorUuid));
      const tokyo = await answersAgree();

      // Those answers came from the points: without them, the same windows lose their values.
      await db.deleteFrom('sensor_hour_day_points').execute();
      for (const plant of [tokyo, { ...rome, timezone: 'Europe/Rome' }]) {
        const flow = consumptionFlow(await energySensorsOf(db, plantUuid));
        const { body } = await powerHistory(db, plant, flow, windows[1]!);
        expect(String(body)).not.toBe(
          String((await computedAfresh(db, plant, flow, windows[1]!)).body),
        );
      }
    } finally {
      await fixture.opened.close();
      await database?.drop();
    }
  });
});

/** The series as the hourly rows answer it: the path every hourly history took before the points. */
async function computedAfresh(db: Db, plant: PlantRow, flow: PlantFlow, query: HistoryQuery) {
  const zone = plant.timezone;
  const range = historyRange(zone, query.startDate, query.endDate);
  const buckets: TimeRange[] = [];
  for (let start = startOfLocalHour(zone, range.start); start < range.end; start += HOUR) {
    buckets.push({ start, end: start + HOUR });
  }
  const points = combineFlow(await measureFlow(db, flow, buckets), meanWatts);
  return seriesJson(plant, POWER_UNIT, spanOf(buckets, range), buckets, points);
}

/** Migration 0017's table, triggers and (PostgreSQL) functions. */
async function dropSearchSuffixes(db: Db): Promise<void> {
  if (testEngine() === 'postgres') {
    await sql`drop trigger plant_text_suffixes_plant on plants`.execute(db);
    await sql`drop trigger plant_text_suffixes_external_id on plant_external_ids`.execute(db);
    await sql`drop function plant_text_suffixes_of_plant()`.execute(db);
    await sql`drop function plant_text_suffixes_of_external_id()`.execute(db);
    await sql`drop function plant_text_suffixes_rebuild(text)`.execute(db);
  } else {
    await dropSqliteTriggers(db, 'plant_text_suffixes_');
    await sql`drop table plant_search_positions`.execute(db);
  }
  await sql`drop table plant_text_suffixes`.execute(db);
}

/** A table kept by triggers (migrations 0020, 0021), with its triggers and their function. */
async function dropTriggerKeptTable(db: Db, table: string, postgresFunction: string) {
  if (testEngine() === 'postgres') {
    await sql`drop function ${sql.id(postgresFunction)}() cascade`.execute(db);
  } else {
    await dropSqliteTriggers(db, `${table}_`);
  }
  await sql`drop table ${sql.id(table)}`.execute(db);
}

async function dropSqliteTriggers(db: Db, prefix: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'trigger' and name like ${`${prefix}%`}`.execute(
    db,
  );
  for (const { name } of rows) await sql`drop trigger ${sql.id(name)}`.execute(db);
}

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

/** The points as text, alike on both engines. */
const pointRows = async (db: Db) =>
  (await db.selectFrom('sensor_hour_day_points').selectAll().orderBy('day_start').execute()).map(
    (row) => ({
      sensor_uuid: row.sensor_uuid,
      day_start: String(row.day_start),
      points: row.points,
    }),
  );
