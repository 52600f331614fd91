import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { startServer, type RunningServer } from '../server/index.ts';
import { startPostgresCluster, type PostgresCluster } from '../test/support/postgresCluster.ts';
import {
  adminToken,
  assertSameAnswers,
  measureRoutes,
  SEARCH_TARGET_RATIO,
  type Route,
} from './api.bench.ts';
import type { BenchModule, BenchResult } from './benchResult.ts';
import { LoadGenerator } from './load/loadGenerator.ts';

/**
 * The plant list's substring search (`GET /plants?search=`) among many plants, on each engine,
 * against a bare Fastify route answering the same JSON (as api.bench.ts measures): what finding
 * the few matching plants costs once scanning every name and external id would be felt. The
 * searches vary as people's do: an external id and a fragment of a name, a different one each
 * request (so nothing remembered per term can answer them), a common word, and a term of two
 * characters, shorter than a trigram. And the unsearched list among the same plants, its first
 * page and a page deep in it, by the default sort and by one read from a descending index
 * (migration 0015): what a fleet's list costs when it is not sorted whole on every page. On
 * PostgreSQL a throwaway cluster (test/support/postgresCluster.ts); skipped without one.
 */
const PLANTS = 2000;
const CREATE_CONCURRENCY = 8;
const numberOf = (index: number) => String(index).padStart(5, '0');
const fleetPlantName = (index: number) => `Fleet plant ${numberOf(index)} Rooftop`;
const inTurn = (term: (index: number) => string) =>
  Array.from({ length: PLANTS }, (_, index) => ({
    term: term(index),
    finds: fleetPlantName(index),
  }));
/** Each term finds one plant: Demo Home, or the fleet plant it was made from. */
const SEARCHES: readonly { name: string; terms: readonly { term: string; finds: string }[] }[] = [
  { name: 'demo', terms: [{ term: 'demo', finds: 'Demo Home' }] },
  { name: 'de (2 characters)', terms: [{ term: 'de', finds: 'Demo Home' }] },
  {
    name: `site-NNNNN (${PLANTS} external ids in turn)`,
    terms: inTurn((index) => `site-${numberOf(index)}`),
  },
  {
    name: `t NNNNN roo (${PLANTS} name fragments in turn)`,
    terms: inTurn((index) => `t ${numberOf(index)} roo`),
  },
];
/** Unsearched pages of 20 among the 2,001 plants (Demo Home too): the first, and the 51st. */
const PAGES = [
  '/plants?size=20',
  '/plants?size=20&page=50',
  '/plants?size=20&page=50&sort=createdAt,desc',
];
const READ_CONCURRENCY = 8;

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
  /** The bare route's answers, by query string. */
  const answers = new Map<string, unknown>();
  let load: LoadGenerator | undefined;
  try {
    const headers = { authorization: `Bearer ${await adminToken(ours.url)}` };
    const started = performance.now();
    await createPlants(ours, headers);
    console.log(`${engine}: ${PLANTS} plants in ${Math.round(performance.now() - started)} ms`);
    const routes: Route[] = [];
    for (const search of SEARCHES) {
      const paths = search.terms.map(({ term }) => `/plants?search=${encodeURIComponent(term)}`);
      const bodies = await readAll(ours.url, paths, headers);
      bodies.forEach((body, index) => {
        const { finds } = search.terms[index]!;
        if (body.page.totalElements !== 1 || body.content[0]?.name !== finds)
          throw new Error(`${engine}: GET ${paths[index]} should find ${finds} alone`);
      });
      const name = `${engine}: GET /plants?search=${search.name} (${PLANTS} plants)`;
      routes.push({ name, path: paths[0]!, body: bodies[0], paths, target: SEARCH_TARGET_RATIO });
      paths.forEach((path, index) => answers.set(new URL(path, ours.url).search, bodies[index]));
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
      answers.set(new URL(path, ours.url).search, body);
    }
    // One bare route for every list: the same path, the query picks the body.
    bare.get('/plants', async (request) => answers.get(new URL(request.url, ours.url).search));
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    await assertSameAnswers(routes, ours.url, bareUrl, headers);
    load = await LoadGenerator.start();
    return await measureRoutes(
      load,
      routes,
      { ours: ours.url, bare: bareUrl },
      headers,
      SEARCH_TARGET_RATIO,
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
      const number = numberOf(index);
      const response = await fetch(new URL('/plants', server.url), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: fleetPlantName(index),
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

interface SearchAnswer {
  content: { name: string }[];
  page: { totalElements: number };
}

/** Our answers to every path, in their order, each checked to be a 200. */
async function readAll(
  baseUrl: string,
  paths: readonly string[],
  headers: Record<string, string>,
): Promise<SearchAnswer[]> {
  const answers: SearchAnswer[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const response = await fetch(new URL(paths[index]!, baseUrl), { headers });
      if (response.status !== 200) throw new Error(`GET ${paths[index]}: ${response.status}`);
      answers[index] = (await response.json()) as SearchAnswer;
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  return answers;
}
