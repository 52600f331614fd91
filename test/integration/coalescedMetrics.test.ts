import type pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../api/index.ts';
import { directPoolOf } from '../../server/db/fastQuery.ts';
import { COARSE_READS } from '../../server/measurements/metrics/coarseRollupBatches.ts';
import { STORED_DAYS_READ } from '../../server/measurements/metrics/storedDayBatches.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { serverWithCatalogs } from '../support/serverWithCatalogs.ts';
import { testEngine } from '../support/testDatabases.ts';

/**
 * Daily and hourly energy and hourly power histories asked by many requests at once, each about
 * another plant, date or window. On PostgreSQL their hourly and daily rollup reads, and the
 * histories' reads of hourly points stored per day, go together in one statement
 * (`server/db/coalescedReads.ts`), whose rows are handed back ask by ask: every request must
 * still get its own answer, the one it gets when asked alone.
 */

const NOW = Date.parse('2026-04-10T10:00:00Z');
const MIN = 60_000;
const READINGS_START = Date.parse('2026-03-25T00:00:00Z');
const DAYS = 7;
const DAY_MS = 24 * 60 * MIN;

const ctx = serverWithCatalogs(NOW);

afterEach(() => {
  vi.restoreAllMocks();
});

/** A plant-level power meter of `flow`, fed every 5 minutes for a week with its own values. */
async function meter(plantUuid: string, flow: 'CONSUMPTION' | 'PRODUCTION', seed: number) {
  const { sensorUuid } = await createSensor(ctx.server, ctx.installer, plantUuid, {
    name: `${flow} ${seed}`,
    flow,
    deviceUuid: null,
    sensorTypeUuid: ctx.sensorTypes.POWER_METER,
    dataTypesCollectUuids: [ctx.dataTypes.POWER],
    samplingIntervalSeconds: 300,
  });
  const readings = Array.from({ length: DAYS * 288 }, (_, k) => ({
    timestamp: new Date(READINGS_START + k * 5 * MIN).toISOString(),
    value: 100 * seed + ((k * (31 + seed)) % 997),
  }));
  const response = await ctx.server.request(
    'POST',
    `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
    { token: ctx.installer, body: { readings } },
  );
  expectStatus(response, 202, 'ingest readings');
}

/** Plants in zones whose days start at other UTC instants; one sums two production meters. */
async function plants(): Promise<string[]> {
  const zones = ['Europe/Rome', 'Asia/Kathmandu', 'America/New_York'];
  return Promise.all(
    zones.map(async (timezone, index) => {
      const { plantUuid } = await createPlant(ctx.server, ctx.installer, {
        location: { latitude: 45, longitude: 7, timezone },
      });
      await meter(plantUuid, 'CONSUMPTION', 3 * index + 1);
      await meter(plantUuid, 'PRODUCTION', 3 * index + 2);
      if (index === 0) await meter(plantUuid, 'PRODUCTION', 3 * index + 3);
      return plantUuid;
    }),
  );
}

const ROUTES = [
  'dailyConsumption',
  'dailyProduction',
  'hourlyConsumption',
  'hourlyProduction',
] as const;
const DATES = ['2026-03-27', '2026-03-29', '2026-03-31'];

interface Question {
  plantUuid: string;
  route: (typeof ROUTES)[number];
  date: string;
}

async function ask({ plantUuid, route, date }: Question): Promise<unknown> {
  const path = routes[route].path.replace('{plantUuid}', plantUuid);
  const response = await ctx.server.request('GET', path, { token: ctx.manager, query: { date } });
  return expectStatus(response, 200, `${route} ${date}`);
}

/** The coalesced statements the server ran, each with how many asks it answered. */
function coalescedReads(pool: pg.Pool): { name: string; asks: number }[] {
  const reads: { name: string; asks: number }[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
    const config = args[0] as { name?: string; values?: unknown[] };
    if (
      config?.name?.startsWith('plantdesk_coarse_rollups_') ||
      config?.name === 'plantdesk_stored_day_points'
    ) {
      reads.push({ name: config.name, asks: new Set(config.values![0] as number[]).size });
    }
    return query(...args);
  }) as typeof pool.query);
  return reads;
}

/**
 * Every question asked at once, nothing asked before (each answer computed), then one at a time
 * after a write that forgets the remembered answers (it changes none of them: another plant);
 * with the coalesced reads the server ran meanwhile. Answers that could be swapped differ: no
 * two questions share one.
 */
async function askedTogetherAndAlone<Q>(questions: readonly Q[], ask: (q: Q) => Promise<unknown>) {
  const pool = directPoolOf(ctx.server.server.context.db);
  const reads = pool ? coalescedReads(pool) : [];
  const together = await Promise.all(questions.map(ask));
  await createPlant(ctx.server, ctx.installer);
  const alone: unknown[] = [];
  for (const question of questions) alone.push(await ask(question));
  expect(together).toEqual(alone);
  const withoutPlant = alone.map((answer) => {
    const { plantUuid: _plant, ...rest } = answer as { plantUuid: string };
    return JSON.stringify(rest);
  });
  expect(new Set(withoutPlant).size).toBe(questions.length);
  return { alone, reads };
}

describe('rollup reads of concurrent requests', () => {
  it('answer each request as it is answered alone', async () => {
    const plantUuids = await plants();
    const questions: Question[] = plantUuids.flatMap((plantUuid) =>
      ROUTES.flatMap((route) => DATES.map((date) => ({ plantUuid, route, date }))),
    );
    const { alone, reads } = await askedTogetherAndAlone(questions, ask);
    for (const answer of alone as { points: { value: number | null }[] }[]) {
      expect(answer.points.some((point) => (point.value ?? 0) > 0)).toBe(true);
    }
    if (testEngine() === 'postgres') {
      // The concurrent requests' reads went together, for days and for hours alike.
      for (const table of ['days', 'hours']) {
        const batched = reads.filter(
          (read) => read.name === `plantdesk_coarse_rollups_${table}` && read.asks > 1,
        );
        expect(batched.length, `${table} read together`).toBeGreaterThan(0);
      }
    }
  });
});

const HISTORY_ROUTES = ['historyConsumption', 'historyProduction'] as const;
/** Whole UTC days of points, a window cut inside its first and last days, and days without rows. */
const WINDOWS = [
  ['2026-03-25T00:00', '2026-03-31T00:00'],
  ['2026-03-26T05:00', '2026-03-28T17:00'],
  ['2026-03-20T00:00', '2026-03-27T00:00'],
  ['2026-03-29T01:00', '2026-03-29T04:00'],
];

interface HistoryQuestion {
  plantUuid: string;
  route: (typeof HISTORY_ROUTES)[number];
  window: string[];
}

/** Each route over each window of each plant. */
const historyQuestions = (plantUuids: readonly string[], windows: readonly string[][]) =>
  plantUuids.flatMap((plantUuid) =>
    HISTORY_ROUTES.flatMap((route) =>
      windows.map((window): HistoryQuestion => ({ plantUuid, route, window })),
    ),
  );

async function history({ plantUuid, route, window }: HistoryQuestion): Promise<unknown> {
  const path = routes[route].path.replace('{plantUuid}', plantUuid);
  const [startDate, endDate] = window;
  const query = { startDate: startDate!, endDate: endDate!, granularity: 'hours' };
  const response = await ctx.server.request('GET', path, { token: ctx.manager, query });
  return expectStatus(response, 200, `${route} ${startDate}`);
}

describe('hourly power histories of concurrent requests', () => {
  it('answer each request as it is answered alone', async () => {
    const questions = historyQuestions(await plants(), WINDOWS);
    const { reads } = await askedTogetherAndAlone(questions, history);
    if (testEngine() === 'postgres') {
      const batched = reads.filter(
        (read) => read.name === 'plantdesk_stored_day_points' && read.asks > 1,
      );
      expect(batched.length, 'stored days read together').toBeGreaterThan(0);
    }
  });
});

/**
 * Windows whose answers are longer than 16 KiB, whose bytes are written into memory used again
 * once a response has gone out (`server/http/responseBuffers.ts`), hours without rows included.
 */
const LONG_WINDOWS = [
  ['2026-03-15T00:00', '2026-04-05T00:00'],
  ['2026-03-20T07:00', '2026-04-08T19:00'],
];

describe('long hourly power histories of concurrent requests', () => {
  it('each keep their own bytes, and a remembered one stays intact while others are sent', async () => {
    const questions = historyQuestions(await plants(), LONG_WINDOWS);
    const { alone } = await askedTogetherAndAlone(questions, history);
    for (const answer of alone) {
      expect(JSON.stringify(answer).length, 'a long answer').toBeGreaterThan(16 * 1024);
    }
    // Asked again, the first is remembered; the others, sent meanwhile, reuse memory.
    expect(await history(questions[0]!)).toEqual(alone[0]);
    for (let round = 0; round < 3; round++) {
      expect(await Promise.all(questions.map(history))).toEqual(alone);
    }
  });
});

describe.runIf(testEngine() === 'postgres')('the coalesced rollup reads on PostgreSQL', () => {
  // Planning them was most of their backend CPU: batches of a few asks must not be planned anew.
  it('keep their generic plan for batches of any size', async () => {
    const pool = directPoolOf(ctx.server.server.context.db)!;
    const client = await pool.connect();
    try {
      const statements = { ...COARSE_READS, storedDays: STORED_DAYS_READ };
      for (const [table, text] of Object.entries(statements)) {
        const name = `probe_coarse_${table}`;
        for (let run = 0; run < 8; run++) {
          const asks = 1 + (run % 3);
          await client.query({
            name,
            text,
            values: [
              Array.from({ length: asks }, (_, index) => index),
              Array.from({ length: asks }, (_, index) => `no-sensor-${index}`),
              Array.from({ length: asks }, () => READINGS_START),
              Array.from({ length: asks }, () => READINGS_START + DAYS * 24 * 60 * MIN),
            ],
          });
        }
        const { rows } = await client.query<{ generic_plans: number; custom_plans: number }>(
          'select generic_plans, custom_plans from pg_prepared_statements where name = $1',
          [name],
        );
        expect(rows[0], table).toEqual({ generic_plans: 3, custom_plans: 5 });
      }
    } finally {
      client.release(true);
    }
  });
});

describe.runIf(testEngine() === 'postgres')('stored days lying out of day order', () => {
  // A day's row written again (late readings, a new zone) moves elsewhere in the table, where a
  // scan finds it before earlier days: the answers still have their days in day order.
  it('answer as the same days lying in day order do', async () => {
    const questions = historyQuestions(await plants(), [...WINDOWS, ...LONG_WINDOWS]);
    const inOrder = [];
    for (const question of questions) inOrder.push(await history(question));
    await sql`with moved as (delete from sensor_hour_day_points returning *)
      insert into sensor_hour_day_points select * from moved order by day_start desc`.execute(
      ctx.server.server.context.db,
    );
    // Forgets the answers remembered.
    await createPlant(ctx.server, ctx.installer);
    // The read finds them alike, by the index or as they lie (then in reverse).
    const asTheyLie = await storedDaysRead('table');
    expect(asTheyLie.map((row) => row[1])).toEqual(
      Array.from({ length: DAYS }, (_, day) => READINGS_START + (DAYS - 1 - day) * DAY_MS),
    );
    const byDay = (rows: unknown[][]) => rows.toSorted((a, b) => Number(a[1]) - Number(b[1]));
    expect(byDay(asTheyLie)).toEqual(byDay(await storedDaysRead('index')));
    const again = [];
    for (const question of questions) again.push(await history(question));
    expect(again).toEqual(inOrder);
    expect(await Promise.all(questions.map(history))).toEqual(inOrder);
  });
});

/** The stored days read of one sensor's week, with PostgreSQL told to scan the days' index or the table. */
async function storedDaysRead(scan: 'index' | 'table'): Promise<unknown[][]> {
  const db = ctx.server.server.context.db;
  const { rows } = await sql<{ sensor_uuid: string }>`
    select sensor_uuid from sensor_hour_day_points limit 1`.execute(db);
  const client = await directPoolOf(db)!.connect();
  try {
    await client.query(`set enable_indexscan = ${scan === 'index'}`);
    await client.query(`set enable_bitmapscan = ${scan === 'table'}`);
    await client.query(`set enable_seqscan = ${scan === 'table'}`);
    const answer = await client.query<unknown[]>({
      text: STORED_DAYS_READ,
      values: [[0], [rows[0]!.sensor_uuid], [READINGS_START], [READINGS_START + DAYS * DAY_MS]],
      rowMode: 'array',
    });
    return answer.rows.filter((row) => row[0] === 0);
  } finally {
    client.release(true);
  }
}
