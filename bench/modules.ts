import { apiBenchmark } from './api.bench.ts';
import { ingestionBenchmark } from './ingestion.bench.ts';
import { metricsBenchmark } from './metrics.bench.ts';
import { forecastBenchmark } from './forecast.bench.ts';
import { dashboardBenchmark } from './dashboard/dashboard.bench.ts';
import { chartBenchmark } from './chart/chart.bench.ts';
import { fleetBenchmark } from './fleet.bench.ts';
import { monitorBenchmark } from './monitor.bench.ts';
import { fleetScreenBenchmark } from './fleetScreen.bench.ts';
import { searchBenchmark } from './search.bench.ts';
import type { BenchModule } from './benchResult.ts';

/**
 * Every benchmark of `npm run bench`, run one after the other so they do not compete for CPU, each
 * in a process of its own (run.ts).
 */
export const MODULES: readonly BenchModule[] = [
  apiBenchmark,
  forecastBenchmark,
  ingestionBenchmark,
  metricsBenchmark,
  chartBenchmark,
  dashboardBenchmark,
  fleetBenchmark,
  monitorBenchmark,
  fleetScreenBenchmark,
  searchBenchmark,
];
