// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import Tooltip from 'primevue/tooltip';
import type { Chart } from 'chart.js';
import TimeChart from '../../../renderer/src/components/charts/TimeChart.vue';
import { DARK_PALETTE, LIGHT_PALETTE } from '../../../renderer/src/charts/theme.ts';
import type { ChartSeries } from '../../../renderer/src/charts/types.ts';
import { captureDownloads, fakeCanvas, fakeColorScheme } from './support.ts';
import { i18n } from '../../../renderer/src/i18n.ts';

const HOUR = 3_600_000;
// 2026-10-25 00:00 +02:00 in Rome: the day with two 02:00.
const START = Date.UTC(2026, 9, 24, 22);
const points = (values: (number | null)[]) => values.map((y, k) => ({ x: START + k * HOUR, y }));

const consumption: ChartSeries = {
  label: 'Consumption',
  role: 'consumption',
  unit: 'kWh',
  points: points([1.5, 2.25, null, 0.1 + 0.2, 4]),
};

type Exposed = {
  chart(): Chart | null;
  csv(): string;
  resetZoom(): void;
  exportCsv(): void;
  exportPng(): void;
};

function render(props: Record<string, unknown> = {}) {
  return mount(TimeChart, {
    props: {
      datasets: [consumption],
      zone: 'Europe/Rome',
      unit: 'kWh',
      exportName: 'Demo Home — hourly consumption',
      ariaLabel: 'Hourly consumption on 25 October 2026',
      ...props,
    },
    attachTo: document.body,
    global: { plugins: [PrimeVue], directives: { tooltip: Tooltip } },
  });
}

const button = (wrapper: ReturnType<typeof render>, name: string) =>
  wrapper
    .findAll('button')
    .find((candidate) => (candidate.attributes('aria-label') ?? candidate.text()) === name);

let scheme: ReturnType<typeof fakeColorScheme>;
beforeEach(() => {
  scheme = fakeColorScheme(false);
  fakeCanvas();
});
afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('TimeChart', () => {
  test('draws with Chart.js: time axis in the zone, emits rendered once after the first frame', async () => {
    const wrapper = render();
    await flushPromises();
    expect(wrapper.emitted('rendered')).toHaveLength(1);
    expect(wrapper.get('.time-chart').attributes('data-rendered')).toBe('true');
    const chart = (wrapper.vm as unknown as Exposed).chart()!;
    expect(chart).not.toBeNull();
    expect(chart.options.scales!.x!.type).toBe('time');
    expect(
      (chart.options.scales!.x as { adapters: { date: { zone: string } } }).adapters.date.zone,
    ).toBe('Europe/Rome');
    expect(chart.data.datasets[0]!.data).toEqual(consumption.points);
    await wrapper.setProps({ datasets: [{ ...consumption, points: points([9]) }] });
    await flushPromises();
    expect(wrapper.emitted('rendered')).toHaveLength(1);
    wrapper.unmount();
  });

  test('accessible name, zone named, text summary and a table of the values', async () => {
    const wrapper = render();
    await flushPromises();
    expect(wrapper.findAll('[role="img"]')).toHaveLength(1);
    const image = wrapper.get('canvas[role="img"]');
    expect(image.attributes('aria-label')).toBe('Hourly consumption on 25 October 2026');
    const summary = wrapper.get(`#${image.attributes('aria-describedby')}`);
    expect(wrapper.get('.time-chart-zone').text()).toBe('Times in Europe/Rome (UTC+01:00)');
    expect(summary.text()).toContain(
      'Consumption: 5 points from 2026-10-25 00:00 to 2026-10-25 03:00; ' +
        'lowest 0.30 kWh at 2026-10-25 02:00 +01:00; highest 4.00 kWh at 2026-10-25 03:00',
    );
    expect(summary.text()).toContain('1 without data');
    const rows = summary
      .findAll('tbody tr')
      .map((row) => row.findAll('th, td').map((c) => c.text()));
    expect(rows[2]).toEqual(['2026-10-25 02:00 +02:00', '—']);
    expect(rows[3]).toEqual(['2026-10-25 02:00 +01:00', '0.30 kWh']);
    wrapper.unmount();
  });

  test('Export CSV saves the exact numbers with units and offsets', async () => {
    const downloads = captureDownloads();
    const wrapper = render();
    await button(wrapper, 'Export CSV')!.trigger('click');
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toBe('demo-home-hourly-consumption.csv');
    expect(await downloads[0]!.text()).toBe(
      'timestamp,Consumption (kWh)\r\n' +
        '2026-10-25T00:00:00+02:00,1.5\r\n' +
        '2026-10-25T01:00:00+02:00,2.25\r\n' +
        '2026-10-25T02:00:00+02:00,\r\n' +
        '2026-10-25T02:00:00+01:00,0.3\r\n' +
        '2026-10-25T03:00:00+01:00,4\r\n',
    );
    expect((wrapper.vm as unknown as Exposed).csv()).toBe(await downloads[0]!.text());
    wrapper.unmount();
  });

  test('Export PNG saves the chart on the theme background', async () => {
    const downloads = captureDownloads();
    const wrapper = render();
    await flushPromises();
    await button(wrapper, 'Export PNG')!.trigger('click');
    expect(downloads).toEqual([
      expect.objectContaining({
        name: 'demo-home-hourly-consumption.png',
        url: 'data:image/png;base64,AAAA',
      }),
    ]);
    wrapper.unmount();
  });

  test('zoom: buttons with names; Reset zoom enabled once zoomed', async () => {
    const wrapper = render({ zoom: true });
    await flushPromises();
    expect(button(wrapper, 'Zoom in')).toBeDefined();
    expect(button(wrapper, 'Reset zoom')!.attributes('disabled')).toBeDefined();
    const chart = (wrapper.vm as unknown as Exposed).chart()!;
    const zoomed = vi.spyOn(chart, 'isZoomedOrPanned').mockReturnValue(true);
    const zoom = vi.spyOn(chart, 'zoom').mockImplementation(() => undefined);
    await button(wrapper, 'Zoom in')!.trigger('click');
    expect(zoom).toHaveBeenCalledWith(1.5);
    expect(button(wrapper, 'Reset zoom')!.attributes('disabled')).toBeUndefined();
    const reset = vi.spyOn(chart, 'resetZoom').mockImplementation(() => undefined);
    zoomed.mockReturnValue(false);
    await button(wrapper, 'Reset zoom')!.trigger('click');
    expect(reset).toHaveBeenCalled();
    expect(button(wrapper, 'Reset zoom')!.attributes('disabled')).toBeDefined();
    wrapper.unmount();
  });

  test('without zoom there are no zoom buttons', () => {
    const wrapper = render();
    expect(button(wrapper, 'Zoom in')).toBeUndefined();
    expect(button(wrapper, 'Reset zoom')).toBeUndefined();
    wrapper.unmount();
  });

  test('no data: says so and offers no export', () => {
    const wrapper = render({ datasets: [{ ...consumption, points: points([null, null]) }] });
    expect(wrapper.text()).toContain('No data in this period.');
    expect(button(wrapper, 'Export CSV')!.attributes('disabled')).toBeDefined();
    wrapper.unmount();
  });

  test('the colours follow the system theme', async () => {
    const wrapper = render();
    await flushPromises();
    const chart = (wrapper.vm as unknown as Exposed).chart()!;
    expect(chart.data.datasets[0]!.borderColor).toBe(LIGHT_PALETTE.consumption);
    scheme.set(true);
    await flushPromises();
    expect(chart.data.datasets[0]!.borderColor).toBe(DARK_PALETTE.consumption);
    expect(chart.options.color).toBe(DARK_PALETTE.text);
    wrapper.unmount();
  });

  test('a forecast band exports its bounds; the lower bound is not in the legend', async () => {
    const forecast: ChartSeries = {
      label: 'Forecast',
      role: 'forecast',
      unit: 'kWh',
      points: points([1, 2]),
      band: [
        { lower: 0.5, upper: 1.5 },
        { lower: 1.25, upper: 2.75 },
      ],
    };
    const wrapper = render({ datasets: [forecast] });
    await flushPromises();
    expect((wrapper.vm as unknown as Exposed).csv().split('\r\n').slice(0, 2)).toEqual([
      'timestamp,Forecast (kWh),Forecast lower 80 % (kWh),Forecast upper 80 % (kWh)',
      '2026-10-25T00:00:00+02:00,1,0.5,1.5',
    ]);
    const chart = (wrapper.vm as unknown as Exposed).chart()!;
    const labels = chart.options.plugins!.legend!.labels!.filter!;
    const items = chart.data.datasets.map((dataset, datasetIndex) => ({
      text: dataset.label!,
      datasetIndex,
    }));
    expect(items.filter((item) => labels(item as never, chart.data)).map((i) => i.text)).toEqual([
      'Forecast 80 % band',
      'Forecast',
    ]);
    wrapper.unmount();
  });
});

describe('TimeChart in German', () => {
  test('buttons, zone, summary with a plural and decimal commas; the CSV keeps dot decimals', async () => {
    i18n.global.locale.value = 'de';
    const downloads = captureDownloads();
    const wrapper = render({ zoom: true });
    await flushPromises();
    expect(button(wrapper, 'Vergrößern')).toBeDefined();
    expect(button(wrapper, 'Zoom zurücksetzen')).toBeDefined();
    expect(wrapper.get('.time-chart-zone').text()).toBe('Zeiten in Europe/Rome (UTC+01:00)');
    const image = wrapper.get('canvas[role="img"]');
    const summary = wrapper.get(`#${image.attributes('aria-describedby')}`);
    expect(summary.text()).toContain(
      'Consumption: 5 Punkte von 25.10.2026 00:00 bis 25.10.2026 03:00; ' +
        'niedrigster Wert 0,30 kWh (25.10.2026 02:00 +01:00)',
    );
    expect(summary.text()).toContain('1 ohne Daten');
    expect(summary.get('thead th').text()).toBe('Zeit');
    const chart = (wrapper.vm as unknown as Exposed).chart()!;
    expect(
      (chart.options.scales!.x as { adapters: { date: { locale: string } } }).adapters.date.locale,
    ).toBe('de');
    await button(wrapper, 'CSV exportieren')!.trigger('click');
    const text = await downloads[0]!.text();
    expect(text.split('\r\n')[0]).toBe('Zeitstempel,Consumption (kWh)');
    expect(text).toContain('2026-10-25T02:00:00+01:00,0.3\r\n');
    wrapper.unmount();
  });

  test('one point: the singular', async () => {
    i18n.global.locale.value = 'de';
    const wrapper = render({ datasets: [{ ...consumption, points: points([2.5]) }] });
    await flushPromises();
    const summary = wrapper.get(`#${wrapper.get('canvas').attributes('aria-describedby')}`);
    expect(summary.text()).toContain('Consumption: 1 Punkt von 25.10.2026 00:00 bis');
    wrapper.unmount();
  });
});
