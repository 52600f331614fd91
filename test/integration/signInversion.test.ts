import { describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { serverWithCatalogs } from '../support/serverWithCatalogs.ts';

/**
 * `signInverted` (extension): a grid meter mounted backwards, once the setting is made, answers
 * every metric and history exactly as a correctly mounted twin fed the same site, for readings
 * stored before the setting (rollups whose raw readings are gone included) and after it; and
 * clearing it gives back what the meter reported.
 */

const NOW = Date.parse('2026-04-10T10:00:00Z');
const MIN = 60_000;
const START = Date.parse('2026-04-06T00:00:00Z');
/** Readings before this have been dropped by raw retention: only their rollups remain. */
const RAW_KEPT_FROM = Date.parse('2026-04-07T00:00:00Z');

const ctx = serverWithCatalogs(NOW);

/** The site: PV by day, a varying load, the grid the difference (some instants exactly 0). */
function site(fromMs: number, toMs: number) {
  const times: number[] = [];
  for (let at = fromMs; at < toMs; at += 5 * MIN) times.push(at);
  return times.map((at, k) => {
    const hour = (at / 3_600_000) % 24;
    const pv = hour > 6 && hour < 18 ? Math.round(3000 * Math.sin(((hour - 6) / 12) * Math.PI)) : 0;
    const load = 400 + ((k * 37) % 900);
    return { at, pv, grid: k % 50 === 0 ? 0 : load - pv };
  });
}

type Mounting = 'right' | 'reversed';

interface MeteredPlant {
  plantUuid: string;
  pvUuid: string;
  gridUuid: string;
  mounting: Mounting;
}

async function meteredPlant(mounting: Mounting): Promise<MeteredPlant> {
  const { plantUuid } = await createPlant(ctx.server, ctx.installer, {
    location: { latitude: 45, longitude: 7, timezone: 'Europe/Rome' },
  });
  const sensor = (name: string, flow: string) =>
    createSensor(ctx.server, ctx.installer, plantUuid, {
      name,
      flow,
      sensorTypeUuid: ctx.sensorTypes.POWER_METER,
      dataTypesCollectUuids: [ctx.dataTypes.POWER],
      samplingIntervalSeconds: 300,
    });
  const pv = await sensor('PV', 'PRODUCTION');
  const grid = await sensor('Grid', 'GRID');
  const plant = { plantUuid, pvUuid: pv.sensorUuid, gridUuid: grid.sensorUuid, mounting };
  await feed(plant, START, Date.parse('2026-04-10T09:00:00Z'));
  // As raw retention would leave it: the rollups of the first day, no raw readings.
  for (const sensorUuid of [pv.sensorUuid, grid.sensorUuid]) {
    await ctx.server.server.context.db
      .deleteFrom('readings')
      .where('sensor_uuid', '=', sensorUuid)
      .where('taken_at', '<', RAW_KEPT_FROM)
      .execute();
  }
  return plant;
}

/** What the meters report over [fromMs, toMs): a reversed grid meter reports the negation. */
async function feed(plant: MeteredPlant, fromMs: number, toMs: number) {
  const samples = site(fromMs, toMs);
  const post = async (sensorUuid: string, value: (sample: (typeof samples)[number]) => number) =>
    expectStatus(
      await ctx.server.request(
        'POST',
        `/plants/${plant.plantUuid}/sensors/${sensorUuid}/readings`,
        {
          token: ctx.installer,
          body: {
            readings: samples.map((sample) => ({
              timestamp: new Date(sample.at).toISOString(),
              value: value(sample),
            })),
          },
        },
      ),
      202,
      'ingest readings',
    );
  await post(plant.pvUuid, (sample) => sample.pv);
  await post(plant.gridUuid, (sample) =>
    plant.mounting === 'reversed' ? -sample.grid : sample.grid,
  );
}

/** Every answer that reads the plant's readings, without the plant's and sensors' uuids. */
async function answers(plantUuid: string) {
  const get = async (route: keyof typeof routes, query: Record<string, string> = {}) => {
    const path = routes[route].path.replace('{plantUuid}', plantUuid);
    const response = await ctx.server.request('GET', path, { token: ctx.manager, query });
    return withoutUuids(expectStatus(response, 200, route));
  };
  const span = { startDate: '2026-04-06', endDate: '2026-04-10' };
  const lastDay = { startDate: '2026-04-09T12:00', endDate: '2026-04-10T12:00' };
  return {
    dailyConsumption: await get('dailyConsumption', { date: '2026-04-09' }),
    hourlyConsumption: await get('hourlyConsumption'),
    summaryConsumption: await get('summaryConsumption', span),
    summaryProduction: await get('summaryProduction', span),
    historyDays: await get('historyConsumption', {
      startDate: '2026-04-06T00:00',
      endDate: '2026-04-11T00:00',
      granularity: 'days',
    }),
    historyHours: await get('historyConsumption', { ...lastDay, granularity: 'hours' }),
    historyMinutes: await get('historyConsumption', { ...lastDay, granularity: 'minutes' }),
    historySeconds: await get('historyConsumption', {
      startDate: '2026-04-10T09:00',
      endDate: '2026-04-10T12:00',
      granularity: 'seconds',
    }),
    breakdown: await get('energyBreakdown', {
      startDate: '2026-04-06T00:00',
      endDate: '2026-04-11T00:00',
    }),
    statuses: await get('listSensorStatuses'),
  };
}

function withoutUuids(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUuids);
  // Packed hours (a Uint8Array on SQLite, a Buffer on PostgreSQL), compared as their bytes.
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'plantUuid' && key !== 'sensorUuid')
      .map(([key, inner]) => [key, withoutUuids(inner)]),
  );
}

/** The grid meter's stored rows, every table, without its uuid. */
async function storedRows(gridUuid: string) {
  const db = ctx.server.server.context.db;
  const rows = async (
    table:
      | 'readings'
      | 'sensor_rollups'
      | 'sensor_hourly_rollups'
      | 'sensor_daily_rollups'
      | 'sensor_hour_days',
  ) =>
    (await db.selectFrom(table).selectAll().where('sensor_uuid', '=', gridUuid).execute())
      .map((row) => withoutUuids({ ...row, sensor_uuid: undefined }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    readings: await rows('readings'),
    quarters: await rows('sensor_rollups'),
    hours: await rows('sensor_hourly_rollups'),
    days: await rows('sensor_daily_rollups'),
    hourDays: await rows('sensor_hour_days'),
  };
}

const setSignInverted = async (plant: MeteredPlant, signInverted: boolean) =>
  expectStatus(
    await ctx.server.request('PUT', `/plants/${plant.plantUuid}/sensors/${plant.gridUuid}`, {
      token: ctx.installer,
      body: { signInverted },
    }),
    200,
    'PUT signInverted',
  );

describe('signInverted on a reversed grid meter', () => {
  it('answers as the correctly mounted twin, before and after new readings; clearing it restores', async () => {
    const twin = await meteredPlant('right');
    const fixed = await meteredPlant('reversed');
    const uncorrected = await meteredPlant('reversed');

    const reported = await answers(fixed.plantUuid);
    expect(reported).toEqual(await answers(uncorrected.plantUuid));
    expect(reported.summaryConsumption).not.toEqual(
      (await answers(twin.plantUuid)).summaryConsumption,
    );

    expect((await setSignInverted(fixed, true)).signInverted).toBe(true);
    expect(await answers(fixed.plantUuid)).toEqual(await answers(twin.plantUuid));
    expect(await storedRows(fixed.gridUuid)).toEqual(await storedRows(twin.gridUuid));

    // New readings, still reported backwards, are turned as they arrive.
    const [from, to] = [Date.parse('2026-04-10T09:00:00Z'), NOW];
    for (const plant of [twin, fixed, uncorrected]) await feed(plant, from, to);
    const corrected = await answers(fixed.plantUuid);
    expect(corrected).toEqual(await answers(twin.plantUuid));
    expect(await storedRows(fixed.gridUuid)).toEqual(await storedRows(twin.gridUuid));

    // Setting it again changes nothing; clearing it gives back what the meter reported.
    await setSignInverted(fixed, true);
    expect(await answers(fixed.plantUuid)).toEqual(corrected);
    expect((await setSignInverted(fixed, false)).signInverted).toBe(false);
    expect(await answers(fixed.plantUuid)).toEqual(await answers(uncorrected.plantUuid));
    expect(await storedRows(fixed.gridUuid)).toEqual(await storedRows(uncorrected.gridUuid));
  });

  it('a refused setting (the data types do not allow it) leaves the readings as they were', async () => {
    const plant = await meteredPlant('reversed');
    const before = await storedRows(plant.gridUuid);
    const response = await ctx.server.request(
      'PUT',
      `/plants/${plant.plantUuid}/sensors/${plant.gridUuid}`,
      {
        token: ctx.installer,
        body: {
          signInverted: true,
          sensorTypeUuid: ctx.sensorTypes.ENERGY_METER,
          dataTypesCollectUuids: [ctx.dataTypes.ENERGY],
        },
      },
    );
    expect(response.status).toBe(422);
    expect(response.body.message).toContain('signInverted');
    expect(await storedRows(plant.gridUuid)).toEqual(before);
  });
});
