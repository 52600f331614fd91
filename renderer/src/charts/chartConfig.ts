import type { Chart, ChartData, ChartDataset, ChartOptions, Plugin, TooltipItem } from 'chart.js';
import type {} from 'chartjs-plugin-zoom';
import type { AppLocale } from '../../../i18n/locales.ts';
import type { Translate } from '../../../i18n/translator.ts';
import { currentLocale, translate } from '../i18n.ts';
import { NAMED_ROLES, colorForRole, withAlpha, type ChartPalette } from './theme.ts';
import { formatInZone, type LabelGranularity } from './time.ts';
import { DAY_MONTH, timeTicks } from './timeTicks.ts';
import type { ChartPoint, ChartSeries } from './types.ts';
import { formatValue } from './units.ts';

/**
 * The Chart.js configuration of a TimeChart, as pure functions: TimeChart.vue renders it, and the
 * chart benchmark renders the very same configuration.
 *
 * - Time axis in the plant's zone (chartjs-adapter-luxon, `adapters.date.zone`): ticks fall on
 *   local midnights and hours, tooltips name the local time (with its offset in the repeated
 *   hour of a DST end).
 * - `parsing: false` + `normalized: true`: the points are handed over as `{ x, y }` sorted by
 *   x, so Chart.js skips parsing and uses binary searches (needed for 100,000 points).
 * - Decimation (LTTB) of line datasets when the visible points exceed the threshold (the chart
 *   width in pixels), down to about one point per pixel; off with `decimation: false`.
 * - Line charts take their time-axis ticks from timeTicks.ts (a dozen local-time-aligned
 *   ticks, DST-aware) instead of Chart.js's one-tick-per-unit generation, which costs thousands
 *   of zone computations per redraw of a large range. Bars keep Chart.js's ticks, one per bucket.
 * - Zoom and pan on x (wheel, pinch, drag to pan), within the data's own range.
 * - No animation: live updates redraw at once, and large series stay fast.
 * - Words (band names) through `t`, numbers and dates in `locale` (axis ticks, tooltips, the Luxon
 *   adapter's own formats); both default to the app's language at the moment of the call.
 */

export type TimeChartType = 'line' | 'bar';

export interface TimeChartConfigInput {
  datasets: readonly ChartSeries[];
  zone: string;
  unit: string;
  type: TimeChartType;
  stacked: boolean;
  zoom: boolean;
  decimation: boolean;
  palette: ChartPalette;
  /** Tooltip label precision; detected from the points' spacing when absent. */
  granularity?: LabelGranularity;
  /** Visible points above which decimation starts (default: 1000). */
  decimationThreshold?: number;
  /** The language of numbers and dates (default: the app's). */
  locale?: AppLocale;
  /** The words of band names (default: the app's language). */
  t?: Translate;
}

/** The names of a band's two datasets (and CSV columns), in the language of `t`. */
export function bandLabels(label: string, t: Translate = translate) {
  return {
    lower: t('charts.band.lower', { label }),
    upper: t('charts.band.upper', { label }),
    band: t('charts.band.band', { label }),
  };
}

/** A Chart.js dataset with what TimeChart adds to it. */
export type TimeChartDataset = ChartDataset<'line' | 'bar', ChartPoint[]> & {
  /** Not in the legend (the lower bound of a band). */
  hiddenFromLegend?: boolean;
};

const LARGE = 300;
/** About one time-axis label per this many pixels. */
const TICK_SPACING_PX = 90;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The label precision the points' spacing calls for (the median step between points). */
export function detectGranularity(datasets: readonly ChartSeries[]): LabelGranularity {
  const points = datasets.reduce<ChartPoint[]>(
    (longest, series) => (series.points.length > longest.length ? series.points : longest),
    [],
  );
  if (points.length < 2) return 'minutes';
  const steps: number[] = [];
  const stride = Math.max(1, Math.floor(points.length / 200));
  for (let index = stride; index < points.length; index += stride) {
    steps.push(points[index]!.x - points[index - stride]!.x);
  }
  steps.sort((a, b) => a - b);
  const step = (steps[Math.floor(steps.length / 2)] ?? 0) / stride;
  if (step >= 23 * HOUR) return 'days';
  if (step >= HOUR) return 'hours';
  if (step >= MINUTE) return 'minutes';
  return 'seconds';
}

/** The Chart.js unit of the time axis for bars (one bar per bucket); lines choose their own. */
function timeUnitOf(granularity: LabelGranularity): 'day' | 'hour' | 'minute' | 'second' | 'month' {
  switch (granularity) {
    case 'days':
      return 'day';
    case 'hours':
      return 'hour';
    case 'month':
      return 'month';
    case 'seconds':
      return 'second';
    default:
      return 'minute';
  }
}

/** The datasets as Chart.js wants them (arrays copied: Chart.js patches the arrays it gets). */
export function buildChartData(
  input: TimeChartConfigInput,
): ChartData<'line' | 'bar', ChartPoint[]> {
  const { palette, type, stacked } = input;
  const t = input.t ?? translate;
  const datasets: TimeChartDataset[] = [];
  let extraIndex = 0;
  let stackedIndex = 0;
  const large = input.datasets.some((series) => series.points.length > LARGE);
  for (const series of input.datasets) {
    const named = (NAMED_ROLES as readonly string[]).includes(series.role);
    const color = colorForRole(palette, series.role, named ? 0 : extraIndex++);
    const yAxisID = series.secondaryAxis ? 'y2' : 'y';
    const points = series.points.slice();
    if (series.band) {
      const band = series.band;
      const names = bandLabels(series.label, t);
      const bound = (key: 'lower' | 'upper'): ChartPoint[] =>
        series.points.map((point, index) => ({ x: point.x, y: band[index]?.[key] ?? null }));
      const common = {
        type: 'line' as const,
        yAxisID,
        borderWidth: 0,
        pointRadius: 0,
        pointHoverRadius: 0,
        backgroundColor: series.role === 'forecast' ? palette.band : withAlpha(color, 0.18),
        borderColor: 'transparent',
        // Each bound is its own stack: a band never stacks on the other datasets.
        stack: `band:${datasets.length}`,
        order: 2,
      };
      datasets.push({
        ...common,
        label: names.lower,
        data: bound('lower'),
        fill: false,
        hiddenFromLegend: true,
      });
      datasets.push({
        ...common,
        label: names.band,
        data: bound('upper'),
        fill: '-1',
        stack: `band:${datasets.length}`,
      });
    }
    const lineLike = type === 'line' || series.band !== undefined;
    if (lineLike) {
      const dashed = series.role === 'previous';
      datasets.push({
        type: 'line',
        label: series.label,
        data: points,
        yAxisID,
        borderColor: color,
        backgroundColor: stacked ? withAlpha(color, 0.35) : color,
        borderWidth: series.role === 'actual' ? 2 : 1.5,
        borderDash: dashed ? [6, 4] : [],
        pointRadius: large ? 0 : 2,
        pointHoverRadius: 4,
        pointHitRadius: 6,
        tension: 0,
        spanGaps: false,
        fill: stacked ? (stackedIndex++ === 0 ? 'origin' : '-1') : false,
        ...(series.stack ? { stack: series.stack } : {}),
        order: series.role === 'actual' ? 0 : 1,
      });
    } else {
      datasets.push({
        type: 'bar',
        label: series.label,
        data: points,
        yAxisID,
        backgroundColor: series.role === 'previous' ? withAlpha(color, 0.6) : color,
        borderColor: color,
        borderWidth: 0,
        ...(series.stack ? { stack: series.stack } : {}),
        order: 1,
      });
    }
  }
  return { datasets: datasets as ChartDataset<'line' | 'bar', ChartPoint[]>[] };
}

/** The unit of a dataset by its Chart.js label (band bounds carry their series' unit). */
function unitOfDataset(input: TimeChartConfigInput, label: string, t: Translate): string {
  const series = input.datasets.find((candidate) => {
    if (label === candidate.label) return true;
    const names = bandLabels(candidate.label, t);
    return label === names.lower || label === names.band;
  });
  return series?.unit ?? input.unit;
}

export function buildChartOptions(input: TimeChartConfigInput): ChartOptions<'line' | 'bar'> {
  const { palette, zone, type, stacked, zoom } = input;
  const locale = input.locale ?? currentLocale();
  const t = input.t ?? translate;
  const granularity = input.granularity ?? detectGranularity(input.datasets);
  const secondary = input.datasets.find((series) => series.secondaryAxis);
  const grid = { color: palette.grid };
  const ticks = { color: palette.mutedText };
  const isBar = type === 'bar';
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    parsing: false,
    normalized: true,
    color: palette.text,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
    scales: {
      x: {
        type: 'time',
        adapters: { date: { zone, locale } },
        offset: isBar,
        stacked: isBar && stacked,
        grid: { ...grid, offset: false },
        time: {
          ...(isBar ? { unit: timeUnitOf(granularity) } : {}),
          displayFormats: {
            millisecond: 'HH:mm:ss.SSS',
            second: 'HH:mm:ss',
            minute: 'HH:mm',
            hour: 'HH:mm',
            // Bars label their own days: the month in the language, as each writes a date.
            day: DAY_MONTH[locale],
            week: DAY_MONTH[locale],
            month: 'LLL yyyy',
            quarter: 'LLL yyyy',
            year: 'yyyy',
          },
        },
        ticks: {
          ...ticks,
          maxRotation: 0,
          autoSkip: true,
          autoSkipPadding: 16,
          major: { enabled: true },
          font: (context) => (context.tick?.major ? { weight: 'bold' } : {}),
          // Lines: the ticks of timeTicks (see afterBuildTicks), each with its own label.
          ...(isBar
            ? {}
            : {
                source: 'labels' as const,
                callback: (label: string | number, index: number, all: readonly object[]) =>
                  (all[index] as { text?: string } | undefined)?.text ?? label,
              }),
        },
        ...(isBar
          ? {}
          : {
              afterBuildTicks: (scale: {
                min: number;
                max: number;
                width: number;
                ticks: unknown[];
              }) => {
                scale.ticks = timeTicks(
                  scale.min,
                  scale.max,
                  zone,
                  Math.max(2, Math.floor(scale.width / TICK_SPACING_PX)),
                  locale,
                ).map((tick) => ({ value: tick.value, major: tick.major, text: tick.label }));
              },
            }),
      },
      y: {
        type: 'linear',
        beginAtZero: true,
        stacked,
        grid,
        ticks: { ...ticks, callback: (value) => formatValue(Number(value), input.unit, locale) },
      },
      ...(secondary
        ? {
            y2: {
              type: 'linear' as const,
              position: 'right' as const,
              beginAtZero: true,
              grid: { drawOnChartArea: false },
              ticks: {
                ...ticks,
                callback: (value) => formatValue(Number(value), secondary.unit, locale),
              },
            },
          }
        : {}),
    },
    plugins: {
      legend: {
        display: input.datasets.length > 1 || input.datasets.some((series) => series.band),
        labels: {
          color: palette.text,
          filter: (item, data) =>
            !(data.datasets[item.datasetIndex ?? -1] as TimeChartDataset | undefined)
              ?.hiddenFromLegend,
        },
      },
      tooltip: {
        backgroundColor: palette.tooltipBackground,
        titleColor: palette.tooltipText,
        bodyColor: palette.tooltipText,
        callbacks: {
          title: (items: TooltipItem<'line' | 'bar'>[]) => {
            const x = (items[0]?.raw as ChartPoint | undefined)?.x;
            return x === undefined ? '' : formatInZone(x, zone, granularity, locale);
          },
          label: (item: TooltipItem<'line' | 'bar'>) => {
            const label = item.dataset.label ?? '';
            const y = (item.raw as ChartPoint).y;
            return `${label}: ${formatValue(y, unitOfDataset(input, label, t), locale)}`;
          },
        },
      },
      decimation: {
        enabled: input.decimation && !isBar,
        algorithm: 'lttb',
        threshold: input.decimationThreshold ?? 1000,
      },
      zoom: {
        pan: { enabled: zoom, mode: 'x', threshold: 5 },
        zoom: {
          wheel: { enabled: zoom },
          pinch: { enabled: zoom },
          drag: { enabled: false },
          mode: 'x',
        },
        limits: { x: { min: 'original', max: 'original', minRange: minRangeOf(granularity) } },
      },
    },
  };
}

/** The narrowest x range zooming may reach: a few buckets. */
function minRangeOf(granularity: LabelGranularity): number {
  switch (granularity) {
    case 'days':
    case 'month':
      return 3 * DAY;
    case 'hours':
      return 3 * HOUR;
    case 'minutes':
      return 5 * MINUTE;
    default:
      return 10_000;
  }
}

/**
 * A plugin that calls `onFirstFrame` once, after the chart's first render (its first frame on
 * the canvas).
 */
export function firstFramePlugin(onFirstFrame: (chart: Chart) => void): Plugin {
  let done = false;
  return {
    id: 'plantdeskFirstFrame',
    afterRender(chart) {
      if (done) return;
      done = true;
      onFirstFrame(chart);
    },
  };
}
