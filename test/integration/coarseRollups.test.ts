import { describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { serverWithCatalogs } from '../support/serverWithCatalogs.ts';
import { ingestMany } from '../../server/measurements/readingsStore.ts';
import { readingSensorsOf } from '../../server/measurements/readingSensors.ts';

/**
 * The hourly and daily rollups follow what they depend on: a plant moved to another zone gets
 * daily rows of its new local days, a sensor given another sampling interval gets coarse rows
 * of its readings' new meaning, and every answer then equals that of a plant set up that way
 * from the start with the same readings.
 */

const NOW = Date.parse('2026-04-10T10:00:00Z');
const MIN = 60_000;

const ctx = serverWithCatalogs(NOW);

const location = (timezone: string) => ({ latitude: 45, longitude: 7, timezone });

/** A plant in `timezone` with one consumption meter, fed a week around Rome's spring DST change. */
async function meteredPlant(timezone: string, interval: number) {
  const { plantUuid, sensorUuid } = await plantWithMeter(timezone, interval);
  const response = await ctx.server.request(
    'POST',
    `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
    {
      token: ctx.installer,
      body: {
        readings: meterReadings().map(({ takenAt, value }) => ({
          timestamp: new Date(takenAt).toISOString(),
          value,
        })),
      },
    },
  );
  expectStatus(response, 202, 'ingest readings');
  return { plantUuid, sensorUuid };
}

async function plantWithMeter(timezone: string, interval: number) {
  const { plantUuid } = await createPlant(ctx.server, ctx.installer, {
    location: location(timezone),
  });
  const { sensorUuid } = await createSensor(ctx.server, ctx.installer, plantUuid, {
    name: 'Meter',
    flow: 'CONSUMPTION',
    deviceUuid: null,
    sensorTypeUuid: ctx.sensorTypes.POWER_METER,
    dataTypesCollectUuids: [ctx.dataTypes.POWER],
    samplingIntervalSeconds: interval,
  });
  return { plantUuid, sensorUuid };
}

/** Every 5 minutes, with a gap: how long a sample holds (the interval) shows in the answers. */
function meterReadings(): { takenAt: number; value: number }[] {
  const start = Date.parse('2026-03-25T00:00:00Z');
  return Array.from({ length: 7 * 288 }, (_, k) => ({
    takenAt: start + k * 5 * MIN,
    value: 500 + ((k * 37) % 1000),
  })).filter((_, k) => k % 288 < 200 || k % 288 > 230);
}

async function answers(plantUuid: string) {
  const get = async (route: keyof typeof routes, query: Record<string, string>) => {
    const path = routes[route].path.replace('{plantUuid}', plantUuid);
    const body = expectStatus(
      await ctx.server.request('GET', path, { token: ctx.manager, query }),
      200,
      route,
    );
    const { plantUuid: _plant, ...rest } = body as { plantUuid: string };
    return rest;
  };
  return {
    daily: await get('dailyConsumption', { date: '2026-03-30' }),
    dailyPlain: await get('dailyConsumption', { date: '2026-03-28' }),
    hourly: await get('hourlyConsumption', { date: '2026-03-29' }),
    summary: await get('summaryConsumption', { startDate: '2026-03-25', endDate: '2026-03-31' }),
    history: await get('historyConsumption', {
      startDate: '2026-03-26T00:00',
      endDate: '2026-03-31T00:00',
      granularity: 'hours',
    }),
  };
}

/** Every rollup row of the sensor but its uuid, table by table, in key order. */
async function rollupRows(sensorUuid: string) {
  const db = ctx.server.server.context.db;
  const rowsOf = async (
    table:
      | 'sensor_rollups'
      | 'sensor_hourly_rollups'
      | 'sensor_daily_rollups'
      | 'sensor_hour_days'
      | 'sensor_hour_day_points',
  ) => {
    const rows = await db
      .selectFrom(table)
      .selectAll()
      .where('sensor_uuid', '=', sensorUuid)
      .execute();
    const keyed = rows.map(({ sensor_uuid: _sensor, ...rest }) => rest as Record<string, unknown>);
    const key = (row: Record<string, unknown>) =>
      Number(row.bucket_start ?? row.hour_start ?? row.day_start);
    return keyed.sort((a, b) => key(a) - key(b));
  };
  return {
    quarters: await rowsOf('sensor_rollups'),
    hours: await rowsOf('sensor_hourly_rollups'),
    days: await rowsOf('sensor_daily_rollups'),
    hourDays: await rowsOf('sensor_hour_days'),
    points: await rowsOf('sensor_hour_day_points'),
  };
}

function dailyRows(sensorUuid: string) {
  return ctx.server.server.context.db
    .selectFrom('sensor_daily_rollups')
    .select(['day_start', 'day_end'])
    .where('sensor_uuid', '=', sensorUuid)
    .orderBy('day_start')
    .execute();
}

async function put(path: string, body: unknown) {
  expectStatus(
    await ctx.server.request('PUT', path, { token: ctx.installer, body }),
    200,
    `PUT ${path}`,
  );
}

describe('coarse rollups after a change', () => {
  it('a new zone rebuilds the daily rows: answers as a plant made in that zone', async () => {
    const moved = await meteredPlant('Europe/Rome', 300);
    const native = await meteredPlant('Asia/Kathmandu', 300);
    const before = await answers(moved.plantUuid);
    await put(`/plants/${moved.plantUuid}`, { location: location('Asia/Kathmandu') });
    const after = await answers(moved.plantUuid);
    expect(after).toEqual(await answers(native.plantUuid));
    expect(after.daily).not.toEqual(before.daily);
    // The rows themselves, not only the answers (a reader falls back to 15-minute rows when
    // daily rows are not the days asked for): Kathmandu's days start at 18:15 UTC.
    const days = await dailyRows(moved.sensorUuid);
    expect(days.length).toBe(8);
    for (const day of days)
      expect(new Date(Number(day.day_start)).toISOString()).toMatch(/T18:15:00/);
  });

  it('a new sampling interval rebuilds the coarse rows: answers as a sensor made with it', async () => {
    const changed = await meteredPlant('Europe/Rome', 300);
    const native = await meteredPlant('Europe/Rome', 120);
    const before = await answers(changed.plantUuid);
    await put(`/plants/${changed.plantUuid}/sensors/${changed.sensorUuid}`, {
      samplingIntervalSeconds: 120,
    });
    const after = await answers(changed.plantUuid);
    expect(after).toEqual(await answers(native.plantUuid));
    expect(after.summary).not.toEqual(before.summary);
  });
});

describe('coarse rollups of one ingestion written together', () => {
  it('a call with one sensor in two batches writes the rows of a call per batch', async () => {
    const together = await plantWithMeter('Europe/Rome', 300);
    const between = await plantWithMeter('Europe/Rome', 300);
    const apart = await plantWithMeter('Europe/Rome', 300);
    const db = ctx.server.server.context.db;
    const sensors = await readingSensorsOf(db, [
      together.sensorUuid,
      between.sensorUuid,
      apart.sensorUuid,
    ]);
    const readings = meterReadings();
    // The second batch overlaps the first by a few hours with other values, which it replaces.
    const first = readings.slice(0, 1000);
    const second = readings.slice(950).map(({ takenAt, value }) => ({ takenAt, value: value + 7 }));
    const batch = (sensorUuid: string, part: typeof readings) => ({
      sensor: sensors.get(sensorUuid)!,
      takenAt: part.map((reading) => reading.takenAt),
      values: part.map((reading) => reading.value),
    });
    await ingestMany(db, [
      batch(together.sensorUuid, first),
      batch(between.sensorUuid, first),
      batch(together.sensorUuid, second),
    ]);
    await ingestMany(db, [batch(apart.sensorUuid, first)]);
    await ingestMany(db, [batch(apart.sensorUuid, second)]);

    const rows = await rollupRows(together.sensorUuid);
    expect(rows.days.length).toBe(8);
    expect(rows.hourDays.length).toBe(7);
    expect(rows).toEqual(await rollupRows(apart.sensorUuid));
    expect(await answers(together.plantUuid)).toEqual(await answers(apart.plantUuid));
    expect((await rollupRows(between.sensorUuid)).hours.length).toBeGreaterThan(0);
  });
});
