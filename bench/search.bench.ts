import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { startServer, type RunningServer } from '../server/index.ts';
import { startPostgresCluster, type PostgresCluster } from '../test/support/postgresCluster.ts';
import { adminToken, assertSameAnswers, measureRoutes, type Route } from './api.bench.ts';
import type { BenchModule, BenchResult } from './benchResult.ts';
import { LoadGenerator } from './load/loadGenerator.ts';

/**
 * The plant list's substring search (`GET /plants?search=`) among many plants, on each engine,
 * against a bare Fastify route answering the same JSON (as api.bench.ts measures): what finding
 * the few matching plants costs once scanning every name and external id would be felt. And
 * the unsearched list among the same plants, its first page and a page deep in it, by the
 * default sort and by one read from a descending index (migration 0015): what a fleet's list
 * costs when it is not sorted whole on every page. On PostgreSQL a throwaway cluster
 * (test/support/postgresCluster.ts); skipped without one.
 */
const TARGET_RATIO = 0.3;
const PLANTS = 2000;
const CREATE_CONCURRENCY = 8;
/** Matches Demo Home only (by name), and one fleet plant by external id: few among many. */
const SEARCHES = ['demo', 'site-01234'];
/** Unsearched pages of 20 among the 2,001 plants (Demo Home too): the first, and the 51st. */
const PAGES = [
  '/plants?size=20',
  '/plants?size=20&page=50',
  '/plants?size=20&page=50&sort=createdAt,desc',
];

export const searchBenchmark: BenchModule = {
  title: `Search: requests/s, GET /plants?search= and unsearched pages among ${PLANTS} plants on SQLite and PostgreSQL, ours vs bare Fastify`,
  async run() {
    const results: BenchResult[] = [];
    results.push(...(await measureEngine('SQLite', ':memory:', {})));
    let cluster: PostgresCluster | undefined;
    try {
      cluster = await startPostgresCluster();
    } catch (error) {
      console.log(`PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (cluster) {
      try {
        const keys = {
          jwtSecret: randomBytes(32).toString('base64url'),
          settingsKey: randomBytes(32).toString('base64url'),
        };
        results.push(...(await measureEngine('PostgreSQL', cluster.url, keys)));
      } finally {
        await cluster.stop();
      }
    }
    return results;
  },
};

async function measureEngine(
  engine: string,
  db: string,
  keys: { jwtSecret?: string; settingsKey?: string },
): Promise<BenchResult[]> {
  const ours = await startServer({
    port: 0,
    db,
    ...keys,
    demo: true,
    demoFleet: 0,
    simulation: false,
    logger: false,
  });
  const bare = Fastify({ logger: false });
  let load: LoadGenerator | undefined;
  try {
    const headers = { authorization: `Bearer ${await adminToken(ours.url)}` };
    const started = performance.now();
    await createPlants(ours, headers);
    console.log(`${engine}: ${PLANTS} plants in ${Math.round(performance.now() - started)} ms`);
    const routes: Route[] = [];
    for (const term of SEARCHES) {
      const path = `/plants?search=${encodeURIComponent(term)}`;
      const response = await fetch(new URL(path, ours.url), { headers });
      const body = (await response.json()) as { page: { totalElements: number } };
      if (response.status !== 200 || body.page.totalElements !== 1)
        throw new Error(`${engine}: GET ${path} should find one plant: ${JSON.stringify(body)}`);
      routes.push({ name: `${engine}: GET ${path} (${PLANTS} plants)`, path, body });
    }
    for (const path of PAGES) {
      const response = await fetch(new URL(path, ours.url), { headers });
      const body = (await response.json()) as {
        content: unknown[];
        page: { totalElements: number };
      };
      if (
        response.status !== 200 ||
        body.content.length !== 20 ||
        body.page.totalElements !== PLANTS + 1
      )
        throw new Error(`${engine}: GET ${path} should list 20 of ${PLANTS + 1} plants`);
      routes.push({ name: `${engine}: GET ${path} (${PLANTS} plants)`, path, body });
    }
    // One bare route for every list: the same path, the query picks the body.
    const bodies = new Map(
      routes.map((route) => [new URL(route.path, ours.url).search, route.body]),
    );
    bare.get('/plants', async (request) => bodies.get(new URL(request.url, ours.url).search));
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    await assertSameAnswers(routes, ours.url, bareUrl, headers);
    load = await LoadGenerator.start();
    return await measureRoutes(
      load,
      routes,
      { ours: ours.url, bare: bareUrl },
      headers,
      TARGET_RATIO,
    );
  } finally {
    await load?.close();
    await bare.close();
    await ours.close();
  }
}

/** Plants named and numbered like a fleet, each with an external id, through the API. */
async function createPlants(server: RunningServer, headers: Record<string, string>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < PLANTS) {
      const index = next++;
      const number = String(index).padStart(5, '0');
      const response = await fetch(new URL('/plants', server.url), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Fleet plant ${number} Rooftop`,
          externalIds: [`SITE-${number}`, `INV-${(index * 7919) % 100_000}`],
          location: { latitude: 45 + (index % 10) / 10, longitude: 9, timezone: 'Europe/Rome' },
          pv: { peakPowerKw: 5 + (index % 20) },
        }),
      });
      if (response.status !== 201) throw new Error(`create plant: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
}
