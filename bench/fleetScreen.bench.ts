import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { DEMO_ACCOUNTS } from '../server/demo/accounts.ts';
import type { BenchModule, BenchResult } from './benchResult.ts';
import { rendererBuilt, startBenchWebHost, type BenchWebHost } from './dashboard/webHost.ts';
import { median } from './load/samples.ts';
import { startFleetServer } from './support/fleetServer.ts';

/**
 * Issue 12 "Speed": the fleet screen for 1,000 plants in headless Chromium, browser mode.
 * - With the extension: the first 50 rows drawn (every figure in) within 1 s of navigation.
 * - With only the specification's routes (a second server on the same database, started
 *   without the extensions): the first rows within 2 s, with the progress of the assembly shown.
 * Baseline in the same run: the plant list's first page drawn the same way, against the same
 * server; the ratio is the fleet screen's time over it. The first (cold) visit is printed but
 * not counted: it computes every plant's summary once (the server keeps them for a minute).
 */
const PLANTS = 1000;
const HISTORY_DAYS = 8;
const CLOCK = Date.parse('2026-06-21T12:00:00Z');
const RUNS = 3;
const EXTENSION_TARGET_MS = 1000;
const SPECIFICATION_TARGET_MS = 2000;
const TIMEOUT_MS = 120_000;

// What the functions run in the page use of the DOM (this program is typed for Node).
interface PageElement {
  textContent: string | null;
  querySelectorAll(selectors: string): PageElement[];
}
declare const document: { querySelector(selectors: string): PageElement | null };
declare const location: { hash: string };
declare function requestAnimationFrame(callback: () => void): number;

/** In the page: set the address, then time until `rows` rows of the table are drawn. */
function timeRows(
  page: Page,
  hash: string,
  table: string,
  rows: number,
  complete: boolean,
): Promise<number> {
  return page.evaluate(
    ({ hash, table, rows, complete, timeout }) =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        location.hash = hash;
        const check = () => {
          const body = document.querySelector(`table[aria-labelledby="${table}"] tbody`);
          const drawn = body ? [...body.querySelectorAll('tr[data-p-index]')] : [];
          const done =
            drawn.length >= rows &&
            (!complete || drawn.every((row) => !row.textContent?.includes('Loading…')));
          const elapsed = performance.now() - start;
          if (done) resolve(elapsed);
          else if (elapsed > timeout)
            reject(new Error(`${hash}: ${drawn.length} rows after ${timeout} ms`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { hash, table, rows, complete, timeout: TIMEOUT_MS },
  );
}

async function timeScreen(page: Page, measure: () => Promise<number>) {
  const runs: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    await page.evaluate(() => (location.hash = '#/environments'));
    await page.getByRole('heading', { name: 'Environments' }).waitFor();
    runs.push(await measure());
  }
  return { coldMs: runs[0]!, medianMs: median(runs.slice(1)) };
}

async function signInTo(host: BenchWebHost, page: Page, baseUrl: string, name: string) {
  const environment = await host.rpc<{ id: string }>('environments.add', [
    { name, kind: 'sandbox', baseUrl },
  ]);
  await host.rpc('environments.select', [environment.id]);
  const admin = DEMO_ACCOUNTS.find((account) => account.email.startsWith('admin@'))!;
  await host.rpc('session.signIn', [
    { email: admin.email, password: admin.password, remember: false },
  ]);
  await page.goto(host.url);
  await page.getByRole('heading', { name: 'Fleet' }).waitFor({ timeout: TIMEOUT_MS });
}

export const fleetScreenBenchmark: BenchModule = {
  title: `Fleet screen: ${PLANTS} plants in headless Chromium, first 50 rows (with the extension) and first rows (without)`,
  async run(): Promise<BenchResult[]> {
    if (!rendererBuilt()) throw new Error('The renderer is not built: run `npm run build` first');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-fleet-screen-'));
    const db = path.join(dir, 'fleet.db');
    const withExtension = await startFleetServer({
      plants: PLANTS,
      days: HISTORY_DAYS,
      clockMs: CLOCK,
      db,
    });
    const specOnly = await startFleetServer({
      plants: 0,
      days: 0,
      clockMs: CLOCK,
      db,
      extensions: false,
    });
    const host = await startBenchWebHost();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      await signInTo(host, page, withExtension.url, 'Fleet with extension');
      const fleet = await timeScreen(page, () =>
        timeRows(page, '#/fleet', 'fleet-title', 50, true),
      );
      const plants = await timeScreen(page, () =>
        timeRows(page, '#/plants', 'plants-title', 20, false),
      );
      console.log(
        `  with the extension: first 50 rows ${fleet.medianMs.toFixed(0)} ms (cold ${fleet.coldMs.toFixed(0)} ms); plant list ${plants.medianMs.toFixed(0)} ms`,
      );

      await signInTo(host, page, specOnly.url, 'Fleet without extension');
      const firstRows = await timeScreen(page, () =>
        timeRows(page, '#/fleet', 'fleet-title', 1, false),
      );
      await page.evaluate(() => (location.hash = '#/environments'));
      await page.getByRole('heading', { name: 'Environments' }).waitFor();
      await page.evaluate(() => (location.hash = '#/fleet'));
      const progressShown = await page
        .getByRole('progressbar', { name: 'Figures assembled' })
        .waitFor({ timeout: SPECIFICATION_TARGET_MS })
        .then(
          () => true,
          () => false,
        );
      const assembled = await timeScreen(page, () =>
        timeRows(page, '#/fleet', 'fleet-title', 50, true),
      );
      const specPlants = await timeScreen(page, () =>
        timeRows(page, '#/plants', 'plants-title', 20, false),
      );
      console.log(
        `  specification only: first rows ${firstRows.medianMs.toFixed(0)} ms, all 50 assembled ${assembled.medianMs.toFixed(0)} ms, progress shown: ${progressShown}`,
      );
      return [
        {
          name: 'Fleet screen, first 50 rows, with the extension',
          value: Math.round(fleet.medianMs),
          unit: 'ms',
          baseline: Math.round(plants.medianMs),
          ratio: fleet.medianMs / plants.medianMs,
          target: `< ${EXTENSION_TARGET_MS} ms`,
          outcome: fleet.medianMs < EXTENSION_TARGET_MS ? 'PASS' : 'MISS',
          note: `baseline: the plant list's first page; cold first visit ${Math.round(fleet.coldMs)} ms`,
        },
        {
          name: 'Fleet screen, first rows, specification routes only',
          value: Math.round(firstRows.medianMs),
          unit: 'ms',
          baseline: Math.round(specPlants.medianMs),
          ratio: firstRows.medianMs / specPlants.medianMs,
          target: `< ${SPECIFICATION_TARGET_MS} ms, progress shown`,
          outcome: firstRows.medianMs < SPECIFICATION_TARGET_MS && progressShown ? 'PASS' : 'MISS',
          note: `all 50 rows assembled in ${Math.round(assembled.medianMs)} ms; progress bar shown: ${progressShown}`,
        },
      ];
    } finally {
      await browser.close();
      await host.stop();
      await specOnly.close();
      await withExtension.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
