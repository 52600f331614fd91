import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migratorOf, type Db } from '../../server/db/database.ts';
import { NodeSqliteDatabase } from '../../server/db/nodeSqlite.ts';
import type { Database } from '../../server/db/tables.ts';
import { checkReadiness } from '../../server/ops/readiness.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { testEngine } from '../support/testDatabases.ts';
import { expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * The operational routes beside the Plant Energy API: /healthz, /readyz and, with `metrics`,
 * /metrics in Prometheus' text format.
 */

let plain: TestServer;
let measured: TestServer;

beforeAll(async () => {
  [plain, measured] = await Promise.all([TestServer.start(), TestServer.start({ metrics: true })]);
});

afterAll(async () => {
  await Promise.all([plain?.close(), measured?.close()]);
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function scrape(server: TestServer): Promise<string> {
  const response = await server.request<string>('GET', '/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

/** The value of one sample (`name{labels}`), 0 when it is not there yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const PLANTS_200 = 'plantdesk_http_requests_total{method="GET",route="/plants",status="200"}';

describe('GET /healthz', () => {
  test('answers ok without a token', async () => {
    const response = await plain.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz', () => {
  test('answers ready when the database answers and every migration is applied', async () => {
    const response = await plain.request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', database: 'ok', migrations: 'applied' });
  });

  test('answers 503 once the database is gone', async () => {
    const server = await TestServer.start();
    try {
      await server.server.context.db.destroy();
      const response = await server.request('GET', '/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        status: 'not ready',
        database: 'unavailable',
        migrations: 'unknown',
      });
      expect((await server.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('a database with migrations still to apply is not ready', async () => {
    const db: Db = new Kysely<Database>({
      dialect: new SqliteDialect({
        database: new NodeSqliteDatabase(new DatabaseSync(':memory:')),
      }),
    });
    try {
      expect(await checkReadiness(db)).toEqual({
        status: 'not ready',
        database: 'ok',
        migrations: 'pending',
      });
      await migratorOf(db).migrateTo('0002_measurements');
      expect((await checkReadiness(db)).migrations).toBe('pending');
      await migratorOf(db).migrateToLatest();
      expect(await checkReadiness(db)).toEqual({
        status: 'ready',
        database: 'ok',
        migrations: 'applied',
      });
    } finally {
      await db.destroy();
    }
  });
});

describe('GET /metrics', () => {
  test('is an unknown route unless metrics are on', async () => {
    expectErrorBody(await plain.request('GET', '/metrics'), 404, '/metrics');
  });

  test('counts GET /plants with 200 and times it in a histogram', async () => {
    const token = await measured.tokenFor('admin');
    const before = sample(await scrape(measured), PLANTS_200);
    for (let i = 0; i < 3; i++) {
      expect((await measured.request('GET', '/plants', { token })).status).toBe(200);
    }
    const text = await scrape(measured);
    expect(sample(text, PLANTS_200)).toBe(before + 3);
    expect(
      sample(
        text,
        'plantdesk_http_request_duration_seconds_count{method="GET",route="/plants",status="200"}',
      ),
    ).toBe(before + 3);
    expect(text).toMatch(
      /^plantdesk_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/plants",status="200"\} \d+$/m,
    );
  });

  test('labels a route by its template, never by a path with ids in it', async () => {
    const token = await measured.tokenFor('admin');
    const plantUuid = await measured.demoPlantUuid();
    expect((await measured.request('GET', `/plants/${plantUuid}`, { token })).status).toBe(200);
    await measured.request('GET', `/plants/${plantUuid}/no-such-thing`, { token });
    const text = await scrape(measured);
    expect(
      sample(
        text,
        'plantdesk_http_requests_total{method="GET",route="/plants/{plantUuid}",status="200"}',
      ),
    ).toBeGreaterThan(0);
    expect(
      sample(text, 'plantdesk_http_requests_total{method="GET",route="unmatched",status="404"}'),
    ).toBeGreaterThan(0);
    expect(text).not.toMatch(UUID);
  });

  test('counts readings accepted through the ingestion route', async () => {
    const installer = await measured.tokenFor('installer');
    const sensorTypes = await measured.catalog('/sensor-types', 'sensorTypeUuid');
    const dataTypes = await measured.catalog('/data-types-collects', 'dataTypesCollectUuid');
    const plant = await createPlant(measured, installer);
    const sensor = await createSensor(measured, installer, plant.plantUuid, {
      name: 'Meter',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
      samplingIntervalSeconds: 60,
    });
    const before = sample(await scrape(measured), 'plantdesk_readings_accepted_total');
    const readings = Array.from({ length: 5 }, (_, minute) => ({
      timestamp: new Date(Date.UTC(2026, 5, 1, 0, minute)).toISOString(),
      value: 1000,
    }));
    const response = await measured.request(
      'POST',
      `/plants/${plant.plantUuid}/sensors/${sensor.sensorUuid}/readings`,
      { token: installer, body: { readings } },
    );
    expectStatus(response, 202, 'ingest');
    const text = await scrape(measured);
    expect(sample(text, 'plantdesk_readings_accepted_total')).toBe(before + 5);
    expect(sample(text, 'plantdesk_reading_batches_accepted_total')).toBeGreaterThan(0);
  });

  test('has the database statements and the default Node process metrics', async () => {
    const text = await scrape(measured);
    expect(
      sample(text, 'plantdesk_db_statement_duration_seconds_count{kind="read"}'),
    ).toBeGreaterThan(0);
    expect(
      sample(text, 'plantdesk_db_statement_duration_seconds_count{kind="write"}'),
    ).toBeGreaterThan(0);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  test('has the connection pool on PostgreSQL, and none on SQLite (one connection)', async () => {
    const text = await scrape(measured);
    if (testEngine() === 'postgres') {
      expect(sample(text, 'plantdesk_db_pool_connections')).toBeGreaterThan(0);
      expect(text).toMatch(/^plantdesk_db_pool_idle_connections \d+$/m);
      expect(text).toMatch(/^plantdesk_db_pool_waiting_queries \d+$/m);
    } else {
      expect(text).not.toContain('plantdesk_db_pool_');
    }
  });

  test('each server counts in a registry of its own', async () => {
    const other = await TestServer.start({ metrics: true });
    try {
      const token = await other.tokenFor('admin');
      await other.request('GET', '/plants', { token });
      expect(sample(await scrape(other), PLANTS_200)).toBe(1);
      expect(sample(await scrape(measured), PLANTS_200)).toBeGreaterThanOrEqual(3);
    } finally {
      await other.close();
    }
  });
});

describe('the operational routes are not part of the Plant Energy API', () => {
  test('none is in /openapi.json', async () => {
    const document = (await measured.request('GET', '/openapi.json')).body;
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(document.paths[path], path).toBeUndefined();
    }
  });
});
