import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, type Db } from '../../../server/db/database.ts';
import {
  DAY_MS,
  forEachPackedHour,
  packHourDays,
  utcDaysOf,
} from '../../../server/measurements/hourDays.ts';
import { ingestMany } from '../../../server/measurements/readingsStore.ts';
import { openMeasurementsFixture } from './measurementsFixture.ts';

const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 3, 10);

const folder = mkdtempSync(join(tmpdir(), 'plantdesk-hour-days-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('hours packed by UTC day', () => {
  it('keep each hour with a row, bit for bit, and skip the others', () => {
    const hours = [
      { start: DAY0 + 2 * HOUR, energyKwh: 0.1 + 0.2, coveredSeconds: 3600 },
      { start: DAY0 + 23 * HOUR, energyKwh: null, coveredSeconds: 1800.5 },
      { start: DAY0 + DAY_MS, energyKwh: -0, coveredSeconds: 0 },
    ];
    const days = packHourDays(hours);
    expect(days.map((day) => day.dayStart)).toEqual([DAY0, DAY0 + DAY_MS]);
    const read: [number, number, number][] = [];
    for (const day of days) {
      forEachPackedHour(day.dayStart, day.hours, DAY0, DAY0 + 2 * DAY_MS, (...hour) =>
        read.push(hour),
      );
    }
    expect(read).toEqual([
      [DAY0 + 2 * HOUR, 0.1 + 0.2, 3600],
      [DAY0 + 23 * HOUR, 0, 1800.5],
      [DAY0 + DAY_MS, -0, 0],
    ]);
    const clipped: number[] = [];
    forEachPackedHour(DAY0, days[0]!.hours, DAY0 + 3 * HOUR, DAY0 + 23 * HOUR, (start) =>
      clipped.push(start),
    );
    expect(clipped).toEqual([]);
  });

  it('cover whole UTC days', () => {
    expect(utcDaysOf({ start: DAY0 + HOUR, end: DAY0 + DAY_MS + HOUR })).toEqual({
      start: DAY0,
      end: DAY0 + 2 * DAY_MS,
    });
    expect(utcDaysOf({ start: DAY0 + HOUR, end: DAY0 + HOUR })).toEqual({
      start: DAY0 + HOUR,
      end: DAY0 + HOUR,
    });
  });

  it('are backfilled by migration 0014 as ingestion keeps them', async () => {
    const file = join(folder, 'backfill.db');
    const fixture = await openMeasurementsFixture(file);
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
    expect(kept).toHaveLength(4);
    // A database from before 0014: the table gone, the migration not yet run.
    await sql`drop table sensor_hour_days`.execute(fixture.db);
    await sql`delete from kysely_migration where name = '0014_sensor_hour_days'`.execute(
      fixture.db,
    );
    await fixture.opened.close();

    const migrated = await openSqliteDatabase(file);
    try {
      expect(await packedRows(migrated.db)).toEqual(kept);
    } finally {
      await migrated.close();
    }
  });
});

const packedRows = (db: Db) =>
  db.selectFrom('sensor_hour_days').selectAll().orderBy('day_start').execute();
