import Fastify, { type FastifyInstance } from 'fastify';
import { DEMO_ACCOUNTS } from '../server/demo/accounts.ts';
import { startServer } from '../server/index.ts';
import { ratioResult, type BenchModule, type BenchResult } from './benchResult.ts';
import { LoadGenerator, type ServerMeasurement } from './load/loadGenerator.ts';
import { describeSamples, median } from './load/samples.ts';

/**
 * Requests per second of two read routes of our server, each against a bare Fastify route that
 * answers the same path with the same JSON, measured in the same run: the ratio is what our
 * stack (token check, validation, ownership, SQL, hooks) costs on top of Fastify itself.
 */
const TARGET_RATIO = 0.5;
/** The plant list's search, whatever the list around it (issue 13, as search.bench.ts). */
export const SEARCH_TARGET_RATIO = 0.3;
const CONNECTIONS = 10;
const WARM_UP_SECONDS = 1;
const MEASURE_SECONDS = 4;
/** Each target is measured this many times, bare and ours alternating; the median counts. */
const ROUNDS = 3;

export interface Route {
  name: string;
  /** Path and query, identical on both servers. */
  path: string;
  /** The JSON our server answers, which the bare route sends back unchanged. */
  body: unknown;
  /**
   * Paths asked in turn instead of `path` alone (`path` is the first of them), so that no two
   * requests in flight ask the same and no answer remembered per path could serve the load.
   */
  paths?: readonly string[];
  /** The ratio this route must reach, when not the module's. */
  target?: number;
}

export const apiBenchmark: BenchModule = {
  title: `API: requests/s, ours vs bare Fastify (${CONNECTIONS} connections, ${ROUNDS} × ${MEASURE_SECONDS} s each)`,
  async run() {
    const ours = await startServer({
      port: 0,
      db: ':memory:',
      demo: true,
      simulation: false,
      logger: false,
    });
    let bare: FastifyInstance | undefined;
    let load: LoadGenerator | undefined;
    try {
      const token = await adminToken(ours.url);
      const headers = { authorization: `Bearer ${token}` };
      const routes = await readRoutes(ours.url, headers);
      bare = Fastify({ logger: false });
      for (const route of routes) {
        bare.get(new URL(route.path, ours.url).pathname, async () => route.body);
      }
      const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
      await assertSameAnswers(routes, ours.url, bareUrl, headers);
      load = await LoadGenerator.start();
      return await measureRoutes(load, routes, { ours: ours.url, bare: bareUrl }, headers);
    } finally {
      await load?.close();
      await bare?.close();
      await ours.close();
    }
  },
};

type Server = 'ours' | 'bare';

export async function measureRoutes(
  load: LoadGenerator,
  routes: readonly Route[],
  servers: Record<Server, string>,
  headers: Record<string, string>,
  target = TARGET_RATIO,
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const route of routes) {
    const measure = (server: Server, durationSeconds: number) =>
      load.measure({
        url: new URL(route.path, servers[server]).href,
        ...(route.paths && { paths: route.paths }),
        headers,
        connections: CONNECTIONS,
        durationSeconds,
      });
    await measure('bare', WARM_UP_SECONDS);
    await measure('ours', WARM_UP_SECONDS);
    const samples: Record<Server, ServerMeasurement[]> = { ours: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first cancels a steady drift (heat, GC, page cache) between the two.
      const order = round % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const);
      for (const server of order) samples[server].push(await measure(server, MEASURE_SECONDS));
    }
    console.log(
      `${route.name}\n  bare ${describeSamples(samples.bare)}\n  ours ${describeSamples(samples.ours)}`,
    );
    results.push(summarize(route.name, samples, route.target ?? target));
  }
  return results;
}

/** The medians of the rounds, and whether every response of every round was a 2xx. */
function summarize(
  name: string,
  samples: Record<Server, ServerMeasurement[]>,
  target = TARGET_RATIO,
): BenchResult {
  const medianOf = (server: Server, field: 'requestsPerSecond' | 'cpuMicrosPerResponse') =>
    median(samples[server].map((sample) => sample[field]));
  const cpu = (server: Server) => Math.round(medianOf(server, 'cpuMicrosPerResponse'));
  return ratioResult(
    {
      name,
      value: medianOf('ours', 'requestsPerSecond'),
      baseline: medianOf('bare', 'requestsPerSecond'),
      unit: 'req/s',
      note: `server CPU per request (median): ours ${cpu('ours')} µs, bare ${cpu('bare')} µs`,
    },
    target,
    problemOf(samples),
  );
}

export async function adminToken(baseUrl: string): Promise<string> {
  const admin = DEMO_ACCOUNTS.find((account) => account.email.startsWith('admin@'))!;
  const response = await fetch(new URL('/auth/login', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  if (response.status !== 200) throw new Error(`admin login failed: ${response.status}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** The two benchmarked routes with the exact JSON our server answers on them. */
async function readRoutes(baseUrl: string, headers: Record<string, string>): Promise<Route[]> {
  const get = async (path: string) => {
    const response = await fetch(new URL(path, baseUrl), { headers });
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    return (await response.json()) as unknown;
  };
  const list = (await get('/plants?search=demo')) as { content: { plantUuid: string }[] };
  const demoPlant = list.content[0]?.plantUuid;
  if (!demoPlant) throw new Error('the demo plant is missing: GET /plants?search=demo is empty');
  const plantPath = `/plants/${demoPlant}`;
  return [
    { name: 'GET /plants/{plantUuid}', path: plantPath, body: await get(plantPath) },
    {
      name: 'GET /plants?search=demo',
      path: '/plants?search=demo',
      body: list,
      target: SEARCH_TARGET_RATIO,
    },
  ];
}

/** Both servers must send byte-identical bodies, or the ratio compares different work. */
export async function assertSameAnswers(
  routes: readonly Route[],
  oursUrl: string,
  bareUrl: string,
  headers: Record<string, string>,
): Promise<void> {
  for (const route of routes) {
    const [ours, bare] = await Promise.all(
      [oursUrl, bareUrl].map(async (base) => {
        const response = await fetch(new URL(route.path, base), { headers });
        return `${response.status} ${await response.text()}`;
      }),
    );
    if (ours !== bare) throw new Error(`${route.name}: the bare route answers differently`);
  }
}

function problemOf(samples: Record<Server, ServerMeasurement[]>): string | undefined {
  const problems = (['ours', 'bare'] as const).flatMap((server) =>
    samples[server]
      .filter((sample) => sample.non2xx > 0 || sample.errors > 0)
      .map((sample) => `${server}: ${sample.non2xx} non-2xx answers, ${sample.errors} errors`),
  );
  return problems.length > 0 ? `invalid run (${problems.join('; ')})` : undefined;
}
