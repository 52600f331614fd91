import { createApp, defineComponent, h, nextTick, shallowRef, type ShallowRef } from 'vue';
import PrimeVue from 'primevue/config';
import Aura from '@primeuix/themes/aura';
import Tooltip from 'primevue/tooltip';
import 'primeicons/primeicons.css';
import '../../../renderer/src/styles.css';
import type { Chart } from 'chart.js';
import { i18n } from '../../../renderer/src/i18n.ts';
import TimeChart from '../../../renderer/src/components/charts/TimeChart.vue';
import type { ChartPoint, ChartSeries } from '../../../renderer/src/charts/types.ts';
import type { ChartBenchPage, PageRunOptions, PageRunResult } from './protocol.ts';

/**
 * The chart benchmark's page: the app's own TimeChart (PrimeVue installed as in the app) showing
 * a power history of `points` one-second points, mounted on demand and timed from the moment it
 * is asked for (as a view showing it would) to its first frame on screen, then panned at every
 * animation frame. bench/chart/chart.bench.ts drives it through `window.chartBench`.
 */

const ZONE = 'Europe/Rome';
const START = Date.UTC(2026, 2, 28, 20); // across the DST change of 2026-03-29

/** A day-like power curve with noise and a few gaps, 1 s apart: what `seconds` history gives. */
function powerSeries(count: number): ChartSeries {
  const points: ChartPoint[] = new Array(count);
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (let k = 0; k < count; k += 1) {
    const hour = (k / 3600) % 24;
    const base = 400 + 2600 * Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI));
    const gap = k % 20_000 > 19_900;
    points[k] = { x: START + k * 1000, y: gap ? null : Math.round(base + random() * 800) };
  }
  return { label: 'Consumption', role: 'consumption', unit: 'W', points };
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

const series: ShallowRef<ChartSeries | null> = shallowRef(null);
const decimation = shallowRef(true);
const chartRef = shallowRef<{ chart(): Chart | null } | null>(null);
let onRendered: (() => void) | null = null;

const Page = defineComponent({
  setup() {
    return () =>
      series.value
        ? h(TimeChart, {
            ref: (instance) => (chartRef.value = instance as { chart(): Chart | null } | null),
            datasets: [series.value],
            zone: ZONE,
            unit: 'W',
            zoom: true,
            decimation: decimation.value,
            height: 400,
            exportName: 'benchmark',
            ariaLabel: 'Consumption power, benchmark',
            onRendered: () => onRendered?.(),
          })
        : h('p', 'Waiting for the benchmark');
  },
});

const app = createApp(Page);
// TimeChart's labels and number formats come from the app's messages, as in the app.
app.use(i18n);
app.use(PrimeVue, { theme: { preset: Aura, options: { darkModeSelector: 'system' } } });
app.directive('tooltip', Tooltip);
app.mount('#app');

async function run(options: PageRunOptions): Promise<PageRunResult> {
  const data = powerSeries(options.points);
  decimation.value = options.decimation;
  await nextFrame();

  // First frame: from asking for the chart to the frame after its first render.
  const rendered = new Promise<number>((resolve) => {
    onRendered = () => resolve(performance.now());
  });
  const start = performance.now();
  series.value = data;
  const renderedAt = await rendered;
  const paintedAt = await nextFrame();
  const chart = chartRef.value?.chart();
  if (!chart) throw new Error('TimeChart exposes no chart');

  // Panning: show `zoomShare` of the range, then pan by `panPixels` at every animation frame
  // for `panMs`, turning back at either end of the data.
  const first = data.points[0]!.x;
  const last = data.points[data.points.length - 1]!.x;
  const span = (last - first) * options.zoomShare;
  chart.zoomScale('x', { min: first + span / 2, max: first + span * 1.5 }, 'none');
  await nextFrame();
  let direction = -1;
  let frames = 0;
  let work = 0;
  let longest = 0;
  const panStart = await nextFrame();
  let now = panStart;
  while (now - panStart < options.panMs) {
    const before = chart.scales.x!.min;
    const t0 = performance.now();
    chart.pan({ x: direction * options.panPixels }, undefined, 'none');
    const spent = performance.now() - t0;
    work += spent;
    longest = Math.max(longest, spent);
    if (chart.scales.x!.min === before) direction = -direction;
    frames += 1;
    now = await nextFrame();
  }
  const elapsed = now - panStart;
  const drawnPoints = (chart.data.datasets[0]?.data.length ?? 0) as number;

  if (!options.keepMounted) {
    series.value = null;
    await nextTick();
  }
  return {
    decimation: options.decimation,
    points: options.points,
    renderedMs: renderedAt - start,
    firstFrameMs: paintedAt - start,
    frames,
    panElapsedMs: elapsed,
    fps: (frames * 1000) / elapsed,
    meanPanWorkMs: work / Math.max(1, frames),
    longestPanWorkMs: longest,
    drawnPoints,
  };
}

const bench: ChartBenchPage = { ready: true, run };
(window as unknown as { chartBench: ChartBenchPage }).chartBench = bench;
