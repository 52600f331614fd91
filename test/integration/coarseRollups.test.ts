import { describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { serverWithCatalogs } from '../support/serverWithCatalogs.ts';

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
  // Every 5 minutes, with a gap: how long a sample holds (the interval) shows in the answers.
  const start = Date.parse('2026-03-25T00:00:00Z');
  const readings = Array.from({ length: 7 * 288 }, (_, k) => ({
    timestamp: new Date(start + k * 5 * MIN).toISOString(),
    value: 500 + ((k * 37) % 1000),
  })).filter((_, k) => k % 288 < 200 || k % 288 > 230);
  const response = await ctx.server.request(
    'POST',
    `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
    { token: ctx.installer, body: { readings } },
  );
  expectStatus(response, 202, 'ingest readings');
  return { plantUuid, sensorUuid };
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
