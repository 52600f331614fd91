import { describe, expect, test } from 'vitest';
import { _adapters, type TooltipItem } from 'chart.js';
import 'chartjs-adapter-luxon';
import {
  buildChartData,
  buildChartOptions,
  detectGranularity,
  type TimeChartConfigInput,
  type TimeChartDataset,
} from '../../../../renderer/src/charts/chartConfig.ts';
import {
  DARK_PALETTE,
  LIGHT_PALETTE,
  colorForRole,
  withAlpha,
} from '../../../../renderer/src/charts/theme.ts';
import type { ChartSeries } from '../../../../renderer/src/charts/types.ts';
import { createTranslator } from '../../../../i18n/translator.ts';

const HOUR = 3_600_000;
const hourly = (count: number, start = Date.UTC(2026, 9, 24, 22)) =>
  Array.from({ length: count }, (_, k) => ({ x: start + k * HOUR, y: k === 3 ? null : k }));

const input = (datasets: ChartSeries[], extra: Partial<TimeChartConfigInput> = {}) => ({
  datasets,
  zone: 'Europe/Rome',
  unit: 'kWh',
  type: 'line' as const,
  stacked: false,
  zoom: true,
  decimation: true,
  palette: LIGHT_PALETTE,
  ...extra,
});

describe('buildChartData', () => {
  test('a forecast with its band: lower bound (hidden from the legend), upper filled to it, line', () => {
    const points = hourly(3);
    const data = buildChartData(
      input([
        {
          label: 'Forecast',
          role: 'forecast',
          unit: 'kWh',
          points,
          band: points.map((_, k) => ({ lower: k - 0.5, upper: k + 0.5 })),
        },
        { label: 'Actual', role: 'actual', unit: 'kWh', points: points.slice(0, 2) },
      ]),
    );
    const datasets = data.datasets as TimeChartDataset[];
    expect(datasets.map((d) => d.label)).toEqual([
      'Forecast lower 80 %',
      'Forecast 80 % band',
      'Forecast',
      'Actual',
    ]);
    expect(datasets[0]!.hiddenFromLegend).toBe(true);
    expect(datasets[1]!).toMatchObject({ fill: '-1', backgroundColor: LIGHT_PALETTE.band });
    expect(datasets[0]!.data.map((p) => p.y)).toEqual([-0.5, 0.5, 1.5]);
    expect(datasets[2]!).toMatchObject({ type: 'line', borderColor: LIGHT_PALETTE.forecast });
    expect(datasets[3]!).toMatchObject({ borderColor: LIGHT_PALETTE.actual, order: 0 });
    // Copies: Chart.js patches the arrays it is given.
    expect(datasets[2]!.data).not.toBe(points);
    expect(datasets[2]!.data).toEqual(points);
  });

  test('bars, stacked device types with their own colours, previous period', () => {
    const data = buildChartData(
      input(
        [
          { label: 'HEAT_PUMP', role: 'HEAT_PUMP', unit: 'kWh', points: hourly(2) },
          { label: 'EV_CHARGER', role: 'EV_CHARGER', unit: 'kWh', points: hourly(2) },
          { label: 'Last week', role: 'previous', unit: 'kWh', points: hourly(2) },
        ],
        { type: 'bar', stacked: true, palette: DARK_PALETTE },
      ),
    );
    expect(data.datasets.map((d) => [d.type, d.backgroundColor])).toEqual([
      ['bar', DARK_PALETTE.extra[0]],
      ['bar', DARK_PALETTE.extra[1]],
      ['bar', withAlpha(DARK_PALETTE.previous, 0.6)],
    ]);
  });

  test('large series have no point markers', () => {
    const data = buildChartData(
      input([{ label: 'C', role: 'consumption', unit: 'W', points: hourly(1000) }]),
    );
    expect(data.datasets[0]).toMatchObject({ pointRadius: 0, spanGaps: false });
  });
});

describe('buildChartOptions', () => {
  test('time axis in the zone, no parsing, normalized, LTTB decimation, zoom limits', () => {
    const options = buildChartOptions(
      input([{ label: 'C', role: 'consumption', unit: 'W', points: hourly(5) }], {
        unit: 'W',
        decimationThreshold: 640,
      }),
    );
    expect(options).toMatchObject({ parsing: false, normalized: true, animation: false });
    expect(options.scales?.x).toMatchObject({
      type: 'time',
      adapters: { date: { zone: 'Europe/Rome' } },
    });
    expect(options.plugins?.decimation).toEqual({
      enabled: true,
      algorithm: 'lttb',
      threshold: 640,
    });
    expect(options.plugins?.zoom?.limits?.x).toMatchObject({ min: 'original', max: 'original' });
    expect(options.plugins?.zoom?.zoom?.wheel?.enabled).toBe(true);
    const tick = (options.scales?.y?.ticks as { callback: (value: number) => string }).callback;
    expect(tick(4250)).toBe('4.25 kW');
  });

  test('no decimation for bars or when switched off; zoom off', () => {
    const series = [{ label: 'C', role: 'consumption', unit: 'kWh', points: hourly(5) }];
    expect(buildChartOptions(input(series, { type: 'bar' })).plugins?.decimation?.enabled).toBe(
      false,
    );
    const off = buildChartOptions(input(series, { decimation: false, zoom: false }));
    expect(off.plugins?.decimation?.enabled).toBe(false);
    expect(off.plugins?.zoom?.pan?.enabled).toBe(false);
  });

  test('tooltips: local time with the offset in the repeated hour, value with its unit', () => {
    const series: ChartSeries[] = [
      { label: 'Consumption', role: 'consumption', unit: 'kWh', points: hourly(5) },
    ];
    const options = buildChartOptions(input(series));
    const callbacks = options.plugins!.tooltip!.callbacks! as unknown as {
      title(items: Partial<TooltipItem<'line'>>[]): string;
      label(item: Partial<TooltipItem<'line'>>): string;
    };
    // hourly() starts at 2026-10-25 00:00 +02:00: index 3 is the second 02:00.
    const second = { raw: { x: Date.UTC(2026, 9, 25, 1), y: 1234.5 } };
    expect(callbacks.title([second])).toBe('2026-10-25 02:00 +01:00');
    expect(callbacks.label({ ...second, dataset: { label: 'Consumption', data: [] } })).toBe(
      'Consumption: 1.23 MWh',
    );
    expect(
      callbacks.label({ raw: { x: 0, y: null }, dataset: { label: 'Consumption', data: [] } }),
    ).toBe('Consumption: —');
  });
});

describe('in German', () => {
  const german = { locale: 'de' as const, t: createTranslator('de') };
  const forecast = (points = hourly(3)): ChartSeries => ({
    label: 'Prognose',
    role: 'forecast',
    unit: 'kWh',
    points,
    band: points.map((_, k) => ({ lower: k - 0.5, upper: k + 0.5 })),
  });

  test('band names, tooltips with a decimal comma and German dates, the adapter in German', () => {
    const datasets = buildChartData(input([forecast()], german)).datasets as TimeChartDataset[];
    expect(datasets.map((d) => d.label)).toEqual([
      'Prognose untere Grenze 80 %',
      'Prognose 80-%-Band',
      'Prognose',
    ]);
    const options = buildChartOptions(input([forecast(hourly(5))], german));
    const x = options.scales!.x as { adapters: { date: { locale: string; zone: string } } };
    expect(x.adapters.date).toEqual({ zone: 'Europe/Rome', locale: 'de' });
    const callbacks = options.plugins!.tooltip!.callbacks! as unknown as {
      title(items: Partial<TooltipItem<'line'>>[]): string;
      label(item: Partial<TooltipItem<'line'>>): string;
    };
    const second = { raw: { x: Date.UTC(2026, 9, 25, 1), y: 1234.5 } };
    expect(callbacks.title([second])).toBe('25.10.2026 02:00 +01:00');
    // A band bound's unit is found by its German name too.
    expect(
      callbacks.label({ ...second, dataset: { label: 'Prognose untere Grenze 80 %', data: [] } }),
    ).toBe('Prognose untere Grenze 80 %: 1,23 MWh');
    const y = options.scales!.y as { ticks: { callback(value: number): string } };
    expect(y.ticks.callback(2.5)).toBe('2,50 kWh');
  });

  test.each([
    ['de', '29. Okt'],
    ['it', '29 ott'],
    ['en', '29 Oct'],
  ] as const)(
    'bar ticks by day name the month in the language (%s) on the plant clock',
    (locale, label) => {
      const daily = (k: number) => ({ x: Date.UTC(2026, 9, 28, 23) + k * 24 * HOUR, y: k });
      const options = buildChartOptions(
        input([{ label: 'PV', role: 'production', unit: 'kWh', points: [0, 1, 2].map(daily) }], {
          type: 'bar',
          locale,
          t: createTranslator(locale),
        }),
      );
      const x = options.scales!.x as {
        adapters: { date: object };
        time: { displayFormats: Record<string, string> };
      };
      // Chart.js formats its bar ticks through the luxon adapter with these options.
      const adapter = new _adapters._date(x.adapters.date);
      // Midnight of 29 October in Rome is 23:00 UTC on the 28th.
      expect(adapter.format(Date.UTC(2026, 9, 28, 23), x.time.displayFormats.day!)).toBe(label);
    },
  );
});

describe('detectGranularity', () => {
  test('from the spacing of the longest series', () => {
    const step = (ms: number) => [
      { label: 'a', role: 'x', unit: '', points: [0, 1, 2, 3].map((k) => ({ x: k * ms, y: k })) },
    ];
    expect(detectGranularity(step(1000))).toBe('seconds');
    expect(detectGranularity(step(60_000))).toBe('minutes');
    expect(detectGranularity(step(HOUR))).toBe('hours');
    expect(detectGranularity(step(23 * HOUR))).toBe('days');
    expect(detectGranularity([])).toBe('minutes');
  });
});

describe('theme', () => {
  test('named roles and extra colours', () => {
    expect(colorForRole(LIGHT_PALETTE, 'production')).toBe('#16a34a');
    expect(colorForRole(DARK_PALETTE, 'consumption')).toBe('#f87171');
    expect(colorForRole(LIGHT_PALETTE, 'HEAT_PUMP', 9)).toBe(LIGHT_PALETTE.extra[1]);
    expect(withAlpha('#2563eb', 0.5)).toBe('rgba(37, 99, 235, 0.5)');
    expect(withAlpha('rgba(1, 2, 3, 1)', 0.2)).toBe('rgba(1, 2, 3, 0.2)');
  });
});
