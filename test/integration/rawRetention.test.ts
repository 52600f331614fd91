import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import { engineOf } from '../../server/db/engine.ts';
import { readingsOf } from '../../server/measurements/readingsStore.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { DEMO_ACCOUNTS, expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * `rawRetentionDays`: readings over five months, then the clock moves on and retention runs.
 * The raw readings before the horizon are gone (on PostgreSQL, whole monthly partitions), the
 * metrics of those days answer byte for byte as before, from their rollups, and the recent
 * readings are untouched. The server's clock is pinned and moved by the test.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const RETENTION_DAYS = 30;
/** Readings every 15 minutes from 2026-01-01T00:00Z to 2026-06-01T00:00Z. */
const FIRST = Date.UTC(2026, 0, 1);
const END = Date.UTC(2026, 5, 1);
const STEP = 15 * 60_000;
/** While the readings are posted: the horizon is in December 2025. */
const POSTING_CLOCK = Date.UTC(2026, 0, 10, 12);
/** After: the horizon is 30 days before 2026-06-10T12:00Z, 2026-05-11T12:00Z. */
const LATER_CLOCK = Date.UTC(2026, 5, 10, 12);
const HORIZON = LATER_CLOCK - RETENTION_DAYS * DAY;

let clockMs = POSTING_CLOCK;
let server: TestServer;
let db: Db;
let token: string;
let plantUuid: string;
let sensorUuid: string;

/** A day-shaped load: 200 W at night, up to 2 kW in the afternoon, varying day by day. */
const watts = (ms: number) =>
  Math.round(200 + 1800 * Math.max(0, Math.sin(((ms % DAY) / DAY) * Math.PI)) * (1 + (ms % 7)));

function batches(): { timestamp: string; value: number }[][] {
  const all: { timestamp: string; value: number }[] = [];
  for (let ms = FIRST; ms < END; ms += STEP) {
    all.push({ timestamp: new Date(ms).toISOString(), value: watts(ms) });
  }
  const chunks = [];
  for (let index = 0; index < all.length; index += 5000)
    chunks.push(all.slice(index, index + 5000));
  return chunks;
}

const post = (readings: unknown[]) =>
  server.request('POST', `/plants/${plantUuid}/sensors/${sensorUuid}/readings`, {
    token,
    body: { readings },
  });

/** The metrics answers compared before and after retention, as the raw bytes served. */
const METRIC_REQUESTS: [string, Record<string, string>][] = [
  ['summary-daily-power-consumptions', { startDate: '2026-01-01', endDate: '2026-05-31' }],
  ['daily-power-consumptions', { date: '2026-02-14' }],
  ['hourly-power-consumptions', { date: '2026-03-29' }],
  [
    'sensor-history-consumptions',
    { startDate: '2026-01-01T00:00', endDate: '2026-05-31T00:00', granularity: 'days' },
  ],
  [
    'sensor-history-consumptions',
    { startDate: '2026-04-10T00:00', endDate: '2026-04-12T00:00', granularity: 'hours' },
  ],
];

async function metricTexts(): Promise<string[]> {
  const texts: string[] = [];
  for (const [route, query] of METRIC_REQUESTS) {
    const url = new URL(`/plants/${plantUuid}/${route}`, server.url);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, `${route} ${JSON.stringify(query)}`).toBe(200);
    texts.push(await response.text());
  }
  return texts;
}

/** A token issued at the moved clock: the first one has expired by then. */
async function freshToken(): Promise<string> {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.email.startsWith('installer@'))!;
  const response = await server.login(account.email, account.password);
  return expectStatus(response, 200, 'login').accessToken as string;
}

const rawCount = async (fromMs: number, toMs: number) =>
  (await readingsOf(db, sensorUuid, fromMs, toMs)).length;

async function readingPartitions(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name from pg_inherits
    join pg_class child on child.oid = pg_inherits.inhrelid
    join pg_class parent on parent.oid = pg_inherits.inhparent
    where parent.relname = 'readings' order by child.relname`.execute(db);
  return rows.map((row) => row.name);
}

beforeAll(async () => {
  server = await TestServer.start({
    now: () => new Date(clockMs),
    rawRetentionDays: RETENTION_DAYS,
  });
  db = server.server.context.db;
  token = await server.tokenFor('installer');
  plantUuid = (await createPlant(server, token)).plantUuid;
  const sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  const dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  const created = await createSensor(server, token, plantUuid, {
    name: 'House meter',
    flow: 'CONSUMPTION',
    sensorTypeUuid: sensorTypes.POWER_METER,
    dataTypesCollectUuids: [dataTypes.POWER],
    samplingIntervalSeconds: STEP / 1000,
  });
  sensorUuid = created.sensorUuid;
  for (const batch of batches()) expectStatus(await post(batch), 202, 'post readings');
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('raw retention', () => {
  it('drops the raw readings before the horizon and keeps every metric of those days', async () => {
    const before = await metricTexts();
    const recentBefore = await readingsOf(db, sensorUuid, HORIZON, END);
    const total = (END - FIRST) / STEP;
    expect(await rawCount(FIRST, END)).toBe(total);
    if (engineOf(db) === 'postgres') {
      expect(await readingPartitions()).toEqual([
        'readings_2026_01',
        'readings_2026_02',
        'readings_2026_03',
        'readings_2026_04',
        'readings_2026_05',
      ]);
    }

    clockMs = LATER_CLOCK;
    token = await freshToken();
    const result = await server.server.rawRetention!.run();
    expect(result.horizonMs).toBe(HORIZON);

    expect(await rawCount(FIRST, HORIZON)).toBe(0);
    expect(await readingsOf(db, sensorUuid, HORIZON, END)).toEqual(recentBefore);
    expect(await rawCount(FIRST, END)).toBe((END - HORIZON) / STEP);
    if (engineOf(db) === 'postgres') {
      // January to April whole; May's rows before the horizon one by one.
      expect(result.partitionsDropped).toEqual([
        'readings_2026_01',
        'readings_2026_02',
        'readings_2026_03',
        'readings_2026_04',
      ]);
      expect(result.readingsDeleted).toBe((HORIZON - Date.UTC(2026, 4, 1)) / STEP);
      expect(await readingPartitions()).toEqual(['readings_2026_05']);
    } else {
      expect(result.readingsDeleted).toBe((HORIZON - FIRST) / STEP);
    }
    expect(await metricTexts()).toEqual(before);
  });

  it('answers raw-sample history of dropped days with empty points, not an error', async () => {
    const response = await server.request(
      'GET',
      `/plants/${plantUuid}/sensor-history-consumptions`,
      {
        token,
        query: {
          startDate: '2026-02-01T10:00',
          endDate: '2026-02-01T11:00',
          granularity: 'minutes',
        },
      },
    );
    const body = expectStatus(response, 200, 'minutes history');
    expect(body.points).toHaveLength(60);
    expect(body.points.every((point: { value: unknown }) => point.value === null)).toBe(true);
  });

  it('refuses readings older than the horizon with 422 naming the index', async () => {
    const response = await post([
      { timestamp: new Date(HORIZON + HOUR).toISOString(), value: 100 },
      { timestamp: new Date(HORIZON - HOUR).toISOString(), value: 100 },
    ]);
    expectErrorBody(response, 422, `/plants/${plantUuid}/sensors/${sensorUuid}/readings`);
    expect(response.body.message).toContain('readings.1.timestamp');
    expect(response.body.message).toContain(`${RETENTION_DAYS} days`);
    // At the horizon itself: kept.
    expectStatus(
      await post([{ timestamp: new Date(HORIZON).toISOString(), value: watts(HORIZON) }]),
      202,
      'a reading at the horizon',
    );
  });

  it('runs again without finding anything more to drop', async () => {
    const again = await server.server.rawRetention!.run();
    expect(again).toEqual({ horizonMs: HORIZON, partitionsDropped: [], readingsDeleted: 0 });
  });
});
