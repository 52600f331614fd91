import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.ts';
import type { BenchModule, BenchOutcome, BenchResult } from '../benchResult.ts';
import { median } from '../load/samples.ts';
import type { ChartBenchPage, PageRunOptions, PageRunResult } from './page/protocol.ts';
import { chartBenchConfig, chartBenchOutDir } from './vite.config.ts';

/**
 * Issue 6 "Speed": a 100,000-point history chart — the app's TimeChart, Chart.js with
 * `parsing: false`, `normalized: true`, LTTB decimation — in headless Chromium:
 * - time to first frame: from asking for the chart (a view mounting it) to the animation frame
 *   after its first render, data already in memory;
 * - frames per second while panning: zoomed to half the range, `chart.pan` by 8 px at every
 *   animation frame for 2 s (each pan decimates the visible points again, lays out and draws).
 * Decimation ON and OFF in the same run, each in a fresh page, alternating, ROUNDS times; the
 * medians count. Targets: first frame < 300 ms and ≥ 30 fps, with decimation on (the app's
 * setting); the ratios ON/OFF say what decimation buys.
 *
 * Builds the page with vite (bench/chart/vite.config.ts → out/bench-chart) and serves it from
 * 127.0.0.1 (module scripts do not load from file://).
 */
export const FIRST_FRAME_TARGET_MS = 300;
export const FPS_TARGET = 30;
const POINTS = 100_000;
const ROUNDS = 3;
const RUN: Omit<PageRunOptions, 'decimation'> = {
  points: POINTS,
  zoomShare: 0.5,
  panPixels: 8,
  panMs: 2000,
};
const VIEWPORT = { width: 1280, height: 720 };

export interface ChartBenchSide {
  decimation: boolean;
  /** Medians over the rounds. */
  firstFrameMs: number;
  renderedMs: number;
  fps: number;
  meanPanWorkMs: number;
  drawnPoints: number;
  runs: PageRunResult[];
}

export interface ChartBenchResult {
  points: number;
  on: ChartBenchSide;
  off: ChartBenchSide;
  /** ON / OFF: below 1, decimation draws the first frame faster. */
  firstFrameRatio: number;
  /** ON / OFF: above 1, decimation pans faster. */
  fpsRatio: number;
  firstFrameOutcome: BenchOutcome;
  fpsOutcome: BenchOutcome;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};

/** out/bench-chart over loopback HTTP. */
async function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(root, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
    });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function runOnce(browser: Browser, url: string, decimation: boolean): Promise<PageRunResult> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    const errors: string[] = [];
    // A page error (a component that fails to render) would leave the run waiting for a frame
    // forever: the first one ends the run instead.
    const failed = new Promise<never>((_, reject) =>
      page.on('pageerror', (error) => {
        errors.push(error.message);
        reject(new Error(`page error: ${error.message}`));
      }),
    );
    failed.catch(() => {});
    await page.goto(url);
    // In the page: `globalThis` is its window (see page/main.ts).
    await page.waitForFunction(
      () => (globalThis as unknown as { chartBench?: ChartBenchPage }).chartBench?.ready === true,
    );
    const result = await Promise.race([
      page.evaluate(
        (options) =>
          (globalThis as unknown as { chartBench: ChartBenchPage }).chartBench.run(options),
        { ...RUN, decimation },
      ),
      failed,
    ]);
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await page.close();
  }
}

function side(decimation: boolean, runs: PageRunResult[]): ChartBenchSide {
  return {
    decimation,
    firstFrameMs: median(runs.map((run) => run.firstFrameMs)),
    renderedMs: median(runs.map((run) => run.renderedMs)),
    fps: median(runs.map((run) => run.fps)),
    meanPanWorkMs: median(runs.map((run) => run.meanPanWorkMs)),
    drawnPoints: median(runs.map((run) => run.drawnPoints)),
    runs,
  };
}

const label = (on: boolean) => (on ? 'decimation ON ' : 'decimation OFF');

export async function runChartBench(
  log: (line: string) => void = console.log,
): Promise<ChartBenchResult> {
  await build({ ...chartBenchConfig, configFile: false, logLevel: 'error' });
  const server = await serve(chartBenchOutDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const runs = { on: [] as PageRunResult[], off: [] as PageRunResult[] };
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Alternate which goes first, so neither always meets a colder browser.
      const order = round % 2 === 1 ? [false, true] : [true, false];
      for (const decimation of order) {
        const result = await runOnce(browser, server.url, decimation);
        (decimation ? runs.on : runs.off).push(result);
        log(
          `  round ${round} ${label(decimation)}: first frame ${result.firstFrameMs.toFixed(0)} ms ` +
            `(rendered ${result.renderedMs.toFixed(0)} ms), ${result.fps.toFixed(1)} fps panning ` +
            `(${result.meanPanWorkMs.toFixed(1)} ms a pan, longest ${result.longestPanWorkMs.toFixed(0)} ms), ` +
            `${result.drawnPoints} points drawn`,
        );
      }
    }
    const on = side(true, runs.on);
    const off = side(false, runs.off);
    const result: ChartBenchResult = {
      points: POINTS,
      on,
      off,
      firstFrameRatio: on.firstFrameMs / off.firstFrameMs,
      fpsRatio: on.fps / off.fps,
      firstFrameOutcome: on.firstFrameMs < FIRST_FRAME_TARGET_MS ? 'PASS' : 'MISS',
      fpsOutcome: on.fps >= FPS_TARGET ? 'PASS' : 'MISS',
    };
    for (const current of [on, off]) {
      log(
        `${label(current.decimation)}: first frame ms ${current.firstFrameMs.toFixed(0)}, ` +
          `fps ${current.fps.toFixed(1)} (medians of ${ROUNDS})`,
      );
    }
    log(
      `ratios ON/OFF: first frame ${result.firstFrameRatio.toFixed(2)}, fps ${result.fpsRatio.toFixed(2)}`,
    );
    log(
      `targets (decimation ON): first frame < ${FIRST_FRAME_TARGET_MS} ms ${result.firstFrameOutcome}, ` +
        `≥ ${FPS_TARGET} fps ${result.fpsOutcome}`,
    );
    return result;
  } finally {
    await browser.close();
    await server.close();
  }
}

export const chartBenchmark: BenchModule = {
  title: `Chart: ${POINTS.toLocaleString('en-US')}-point history (TimeChart), decimation ON vs OFF, headless Chromium`,
  async run(): Promise<BenchResult[]> {
    const result = await runChartBench();
    const name = `${POINTS.toLocaleString('en-US')}-point chart`;
    return [
      {
        name: `${name}, first frame (decimation on; baseline off)`,
        value: result.on.firstFrameMs,
        baseline: result.off.firstFrameMs,
        ratio: result.firstFrameRatio,
        unit: 'ms',
        target: `< ${FIRST_FRAME_TARGET_MS} ms`,
        outcome: result.firstFrameOutcome,
      },
      {
        name: `${name}, panning (decimation on; baseline off)`,
        value: result.on.fps,
        baseline: result.off.fps,
        ratio: result.fpsRatio,
        unit: 'fps',
        target: `≥ ${FPS_TARGET} fps`,
        outcome: result.fpsOutcome,
        note:
          `first frame ${result.on.firstFrameMs.toFixed(0)} ms on / ${result.off.firstFrameMs.toFixed(0)} ms off ` +
          `(ratio ${result.firstFrameRatio.toFixed(2)}); ${result.on.fps.toFixed(1)} fps on / ` +
          `${result.off.fps.toFixed(1)} fps off (ratio ${result.fpsRatio.toFixed(2)}); ` +
          `${result.on.drawnPoints} of ${POINTS} points drawn with decimation`,
      },
    ];
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runChartBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
