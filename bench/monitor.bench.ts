import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../server/demo/accounts.ts';
import { createApiClient } from '../electron/services/api/apiClient.ts';
import { silentLogger } from '../electron/services/logger.ts';
import { IMMEDIATE_TIMING } from '../electron/services/monitor/alertLifecycle.ts';
import { createAlertStore } from '../electron/services/monitor/alertStore.ts';
import { createMonitor } from '../electron/services/monitor/monitorService.ts';
import { gatherSnapshots } from '../electron/services/monitor/monitorSources.ts';
import type { BenchModule, BenchResult } from './benchResult.ts';
import { median } from './load/samples.ts';
import { BenchApi } from './support/benchApi.ts';
import { startFleetServer } from './support/fleetServer.ts';

/**
 * Issue 12 "Speed": one monitor cycle over 1,000 plants with the extension in under 2 s of
 * main-process time. The server runs on a thread of its own (bench/support/fleetServer.ts);
 * this thread's CPU time (`process.threadCpuUsage`) is what the main process would spend: the
 * requests, parsing the answers, the rules, the lifecycle, writing the alerts file. Baseline,
 * in the same run: the same reads without the rules (`gatherSnapshots` alone), so the ratio
 * says what judging costs on top of reading.
 */
const TARGET_MS = 2000;
const PLANTS = 1000;
const HISTORY_DAYS = 8;
const CLOCK = Date.parse('2026-06-21T12:00:00Z');
const RUNS = 2;

const cpuMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function measure(task: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpuBefore = cpuMs();
  const wallBefore = performance.now();
  await task();
  return { cpu: cpuMs() - cpuBefore, wall: performance.now() - wallBefore };
}

export const monitorBenchmark: BenchModule = {
  title: `Monitor: one cycle over ${PLANTS} plants with the extension, main-thread CPU time (median of ${RUNS})`,
  async run(): Promise<BenchResult[]> {
    const server = await startFleetServer({
      plants: PLANTS,
      days: HISTORY_DAYS,
      clockMs: CLOCK,
      db: ':memory:',
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'plantdesk-monitor-bench-'));
    try {
      console.log(
        `${server.setup!.plants} plants written in ${server.setup!.seconds.toFixed(1)} s`,
      );
      const admin = DEMO_ACCOUNTS.find((account) => account.email.startsWith('admin@'))!;
      const token = (await BenchApi.login(server.url, admin)).headers.authorization!.slice(7);
      const client = createApiClient({
        baseUrl: server.url,
        credentials: { token: async () => token, renewAfter401: async () => false },
        timeoutMs: 120_000,
      });
      const monitor = createMonitor({
        store: createAlertStore(dataDir, silentLogger),
        signedIn: () => [{ environmentId: 'bench', client, email: admin.email }],
        emit: () => {},
        notify: () => {},
        now: () => CLOCK,
        timing: IMMEDIATE_TIMING,
      });
      const cycles: { cpu: number; wall: number }[] = [];
      const reads: { cpu: number; wall: number }[] = [];
      for (let run = 0; run < RUNS; run++) {
        reads.push(await measure(() => gatherSnapshots(client, 'extension')));
        cycles.push(await measure(() => monitor.check('bench')));
      }
      const state = monitor.state('bench');
      monitor.dispose();
      const cycle = median(cycles.map((sample) => sample.cpu));
      const read = median(reads.map((sample) => sample.cpu));
      const problem =
        (state.lastCycle?.plants ?? 0) < PLANTS || state.lastCycle?.error
          ? `the cycle read ${state.lastCycle?.plants} plants (${state.lastCycle?.error ?? 'no error'})`
          : undefined;
      return [
        {
          name: `monitor cycle, ${PLANTS} plants`,
          value: Math.round(cycle),
          unit: 'ms CPU',
          baseline: Math.round(read),
          ratio: read > 0 ? cycle / read : 0,
          target: `< ${TARGET_MS} ms`,
          outcome: problem ? 'INVALID' : cycle < TARGET_MS ? 'PASS' : 'MISS',
          note:
            problem ??
            `reads alone ${Math.round(read)} ms CPU (ratio = cycle / reads); wall time ` +
              `${Math.round(median(cycles.map((sample) => sample.wall)))} ms, mostly the server's`,
        },
      ];
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await server.close();
    }
  },
};
