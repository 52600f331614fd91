import { describe, expect, test } from 'vitest';
import { routeTemplate } from '../../server/ops/opsRoutes.ts';
import { ServerMetrics } from '../../server/ops/serverMetrics.ts';

describe('routeTemplate', () => {
  test("spells Fastify's parameters as the route table does", () => {
    expect(routeTemplate('/plants/:plantUuid/sensors/:sensorUuid/readings')).toBe(
      '/plants/{plantUuid}/sensors/{sensorUuid}/readings',
    );
    expect(routeTemplate('/plants')).toBe('/plants');
  });

  test('names every unknown path alike', () => {
    expect(routeTemplate(undefined)).toBe('unmatched');
  });
});

describe('ServerMetrics', () => {
  test('instances do not share a registry', async () => {
    const first = new ServerMetrics();
    const second = new ServerMetrics();
    first.request('GET', '/plants', 200, 0.01);
    expect(await first.text()).toMatch(/^plantdesk_http_requests_total\{[^}]*\} 1$/m);
    expect(await second.text()).not.toMatch(/^plantdesk_http_requests_total\{/m);
  });

  test("a pooled engine's gauges are read at each scrape", async () => {
    const metrics = new ServerMetrics();
    const pool = { total: 10, idle: 7, waiting: 0 };
    metrics.watchPool(() => pool);
    expect(await metrics.text()).toMatch(/^plantdesk_db_pool_connections 10$/m);
    pool.idle = 2;
    pool.waiting = 3;
    const text = await metrics.text();
    expect(text).toMatch(/^plantdesk_db_pool_idle_connections 2$/m);
    expect(text).toMatch(/^plantdesk_db_pool_waiting_queries 3$/m);
  });

  test('counts failed statements apart', async () => {
    const metrics = new ServerMetrics();
    metrics.statements('write', 0.001, false);
    metrics.statements('write', 0.002, true);
    const text = await metrics.text();
    expect(text).toMatch(/^plantdesk_db_statement_duration_seconds_count\{kind="write"\} 2$/m);
    expect(text).toMatch(/^plantdesk_db_statement_errors_total\{kind="write"\} 1$/m);
  });
});
