import { DEMO_ACCOUNTS } from '../server/demo/accounts.ts';
import { startServer } from '../server/index.ts';
import { ratioResult, type BenchModule, type BenchResult } from './benchResult.ts';
import { LoadGenerator, type ServerMeasurement } from './load/loadGenerator.ts';
import { describeSamples, median } from './load/samples.ts';
import { BenchApi } from './support/benchApi.ts';
import { createFleet } from './support/fleetPlants.ts';

/**
 * Requests per second of a page of plant summaries (today's energy, 7 days of PV health, sensor
 * freshness per plant) against the same page of the plain plant list, on a fleet of
 * `PLANTS` plants with a week of 5-minute readings each, in the same run: the ratio is what
 * summarizing costs on top of listing.
 */
const TARGET_RATIO = 0.2;
const PLANTS = 1000;
/** A week of history before the clock's instant: the PV health days and today so far. */
const HISTORY_DAYS = 8;
/** Mid-afternoon in the fleet's zones on the longest day: today's figures are well under way. */
const CLOCK = Date.parse('2026-06-21T14:00:00Z');
const PAGE_SIZE = 200;
const CONNECTIONS = 10;
const WARM_UP_SECONDS = 1;
const MEASURE_SECONDS = 4;
const ROUNDS = 3;

const ROUTES = {
  summaries: `/plant-summaries?size=${PAGE_SIZE}`,
  plants: `/plants?size=${PAGE_SIZE}`,
} as const;
type Route = keyof typeof ROUTES;

export const fleetBenchmark: BenchModule = {
  title: `Fleet: requests/s, GET /plant-summaries vs GET /plants (${PLANTS} plants, page of ${PAGE_SIZE}, ${CONNECTIONS} connections, ${ROUNDS} × ${MEASURE_SECONDS} s each)`,
  async run() {
    const server = await startServer({
      port: 0,
      db: ':memory:',
      demo: true,
      demoFleet: 0,
      simulation: false,
      logger: false,
      clock: CLOCK,
    });
    let load: LoadGenerator | undefined;
    try {
      const setup = await createFleet(server.context, PLANTS, HISTORY_DAYS, CLOCK);
      console.log(
        `${setup.plants} plants, ${setup.readings.toLocaleString('en-US')} readings and ` +
          `${setup.rollups.toLocaleString('en-US')} rollups written in ${setup.seconds.toFixed(1)} s`,
      );
      const admin = DEMO_ACCOUNTS.find((account) => account.email.startsWith('admin@'))!;
      const api = await BenchApi.login(server.url, admin);
      // The first page computes every summary (worst-first order needs them all); the next
      // ones within the minute reuse them (server/features/fleet/summaryCache.ts).
      const coldStarted = performance.now();
      await assertMeaningfulPage(api);
      const coldMs = performance.now() - coldStarted;
      load = await LoadGenerator.start();
      return [await measureRoutes(load, server.url, api.headers, coldMs)];
    } finally {
      await load?.close();
      await server.close();
    }
  },
};

/** A page of summaries with no figures would measure an empty computation. */
async function assertMeaningfulPage(api: BenchApi): Promise<void> {
  const page = await api.get<{
    content: { productionKwh: number | null; performancePercent: number | null }[];
    page: { totalElements: number };
  }>(ROUTES.summaries);
  const withFigures = page.content.filter(
    (summary) => summary.productionKwh !== null && summary.performancePercent !== null,
  );
  if (page.page.totalElements < PLANTS || withFigures.length < PAGE_SIZE) {
    throw new Error(
      `GET ${ROUTES.summaries}: ${withFigures.length} of ${page.content.length} summaries have ` +
        `today's production and a PV performance (of ${page.page.totalElements} plants)`,
    );
  }
}

async function measureRoutes(
  load: LoadGenerator,
  baseUrl: string,
  headers: Record<string, string>,
  coldMs: number,
): Promise<BenchResult> {
  const measure = async (route: Route, durationSeconds: number) => {
    const measurement = await load.measure({
      url: new URL(ROUTES[route], baseUrl).href,
      headers,
      connections: CONNECTIONS,
      durationSeconds,
    });
    await settle();
    return measurement;
  };
  await measure('plants', WARM_UP_SECONDS);
  await measure('summaries', WARM_UP_SECONDS);
  const samples: Record<Route, ServerMeasurement[]> = { summaries: [], plants: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first cancels a steady drift (heat, GC) between the two.
    const order =
      round % 2 === 0 ? (['plants', 'summaries'] as const) : (['summaries', 'plants'] as const);
    for (const route of order) samples[route].push(await measure(route, MEASURE_SECONDS));
  }
  console.log(
    `GET ${ROUTES.plants}\n  ${describeSamples(samples.plants)}\n` +
      `GET ${ROUTES.summaries}\n  ${describeSamples(samples.summaries)}`,
  );
  const medianOf = (route: Route, field: 'requestsPerSecond' | 'cpuMicrosPerResponse') =>
    median(samples[route].map((sample) => sample[field]));
  const problems = (['summaries', 'plants'] as const).flatMap((route) =>
    samples[route]
      .filter((sample) => sample.non2xx > 0 || sample.errors > 0)
      .map((sample) => `${route}: ${sample.non2xx} non-2xx answers, ${sample.errors} errors`),
  );
  return ratioResult(
    {
      name: `GET ${ROUTES.summaries} vs GET ${ROUTES.plants}`,
      value: medianOf('summaries', 'requestsPerSecond'),
      baseline: medianOf('plants', 'requestsPerSecond'),
      unit: 'req/s',
      note:
        `server CPU per request (median): summaries ` +
        `${Math.round(medianOf('summaries', 'cpuMicrosPerResponse'))} µs, plants ` +
        `${Math.round(medianOf('plants', 'cpuMicrosPerResponse'))} µs; the first, uncached page ` +
        `(every plant summarized) took ${Math.round(coldMs)} ms`,
    },
    TARGET_RATIO,
    problems.length > 0 ? `invalid run (${problems.join('; ')})` : undefined,
  );
}

/**
 * Waits until the server (on this thread) has finished the requests still in flight when a
 * measurement ended: a slow route's backlog would otherwise run into the next measurement.
 */
async function settle(): Promise<void> {
  for (;;) {
    const before = performance.eventLoopUtilization();
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (performance.eventLoopUtilization(before).utilization < 0.2) return;
  }
}
