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
import type { BenchModule, BenchResult } from './benchResult.ts';
import { formatReport, formatVerdict } from './report.ts';

/** Every benchmark of `npm run bench`, run one after the other so they do not compete for CPU. */
const MODULES: readonly BenchModule[] = [
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

/** `npm run bench -- fleet api`: only the modules whose title starts with one of the words. */
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const selected = MODULES.filter(
  (module) => only.length === 0 || only.some((word) => module.title.toLowerCase().startsWith(word)),
);

const results: BenchResult[] = [];
for (const module of selected) {
  console.log(`\n== ${module.title}`);
  try {
    results.push(...(await module.run()));
  } catch (error) {
    // A broken benchmark must not hide the others' results; it is reported and fails the run.
    console.error(error);
    results.push({
      name: module.title,
      value: 0,
      unit: '',
      target: '-',
      outcome: 'INVALID',
      note: `crashed: ${error instanceof Error ? error.message : String(error)}`,
    });
    process.exitCode = 1;
  }
}
console.log(`\n${formatReport(results)}\n\n${formatVerdict(results)}`);
// A target that is missed is news, not a failure: only a crashed benchmark changes the exit code.
