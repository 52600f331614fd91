// @vitest-environment happy-dom
import { DateTime } from 'luxon';
import { defineComponent, h, type PropType } from 'vue';
import { describe, expect, it } from 'vitest';
import type { ChartSeries } from '../../../renderer/src/charts/types.ts';
import PlantAnalyticsView from '../../../renderer/src/views/PlantAnalyticsView.vue';
import { apiError, mountWithApp, type RecordedCall } from '../support/mountWithApp.ts';
import { i18n } from '../../../renderer/src/i18n.ts';

/**
 * The analytics view over a fake host: the query parameters each tab sends for its range,
 * granularity, comparison and `consumerOnly`, the choices kept in the route query, the totals,
 * and the point cap's "Use <coarser granularity>" suggestion.
 */

const PLANT_UUID = '11111111-1111-4111-8111-111111111111';
const ZONE = 'Europe/Rome';

const PLANT = {
  plantUuid: PLANT_UUID,
  organizationUuid: '00000000-0000-4000-8000-0000000000aa',
  name: 'Demo Home',
  location: { latitude: 46.5, longitude: 11.35, timezone: ZONE, altitudeM: 262 },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

/** TimeChart stand-in: its datasets as text, so tests read what would be drawn and exported. */
const TimeChartStub = defineComponent({
  name: 'TimeChart',
  props: {
    datasets: { type: Array as PropType<ChartSeries[]>, required: true },
    zone: { type: String, required: true },
    unit: { type: String, required: true },
    type: { type: String, default: 'line' },
    stacked: Boolean,
    zoom: Boolean,
    decimation: Boolean,
    granularity: { type: String, default: undefined },
    exportName: { type: String, required: true },
    ariaLabel: { type: String, required: true },
    height: { type: Number, default: 280 },
  },
  setup(props) {
    return () =>
      h(
        'div',
        {
          class: 'time-chart-stub',
          'data-label': props.ariaLabel,
          'data-type': props.type,
          'data-stacked': String(props.stacked),
          'data-zoom': String(props.zoom),
          'data-decimation': String(props.decimation),
        },
        JSON.stringify(props.datasets.map((set) => ({ ...set, count: set.points.length }))),
      );
  },
});

interface StubDataset extends ChartSeries {
  count: number;
}

function datasetsIn(element: { text(): string }): StubDataset[] {
  return JSON.parse(element.text()) as StubDataset[];
}

/** A Series answer: one point per local day (or hour) from `start`, the values given. */
function series(start: string, values: (number | null)[], unit: string, step: 'days' | 'hours') {
  const first = DateTime.fromISO(start, { zone: ZONE });
  const points = values.map((value, index) => ({
    timestamp: first.plus({ [step]: index }).toISO({ suppressMilliseconds: true })!,
    value,
    coverage: value === null ? 0 : 1,
  }));
  return {
    plantUuid: PLANT_UUID,
    timezone: ZONE,
    unit,
    from: points[0]?.timestamp ?? first.toISO()!,
    to: first.plus({ [step]: values.length }).toISO({ suppressMilliseconds: true })!,
    points,
  };
}

/** A summary route's answer: each day from startDate to endDate inclusive, `value(day)` kWh. */
function summaryOf(value: (day: DateTime) => number) {
  return (input: { query?: Record<string, string> }) => {
    const start = DateTime.fromISO(input.query!.startDate!);
    const end = DateTime.fromISO(input.query!.endDate!);
    const days = Math.round(end.diff(start, 'days').days) + 1;
    return series(
      start.toISODate()!,
      Array.from({ length: days }, (_, index) => value(start.plus({ days: index }))),
      'kWh',
      'days',
    );
  };
}

/** summaryConsumption: each day of the range, 10 kWh (and 5 for days before March). */
const summaryConsumption = summaryOf((day) => (day.month < 3 ? 5 : 10));
/** summaryProduction: each day of the range, its day of the month in kWh. */
const summaryProduction = summaryOf((day) => day.day);

function queryOf(call: RecordedCall) {
  return call.input?.query ?? {};
}

async function mountAnalytics(tab: string, query: string, routes: Record<string, unknown> = {}) {
  return mountWithApp(PlantAnalyticsView, {
    props: { plantUuid: PLANT_UUID, tab },
    route: `/plants/${PLANT_UUID}/analytics/${tab}${query}`,
    routes: {
      getPlant: PLANT,
      listDeviceTypes: {
        content: [],
        page: { number: 0, size: 100, totalElements: 0, totalPages: 0 },
      },
      ...routes,
    },
    stubs: { TimeChart: TimeChartStub },
  });
}

describe('range summary', () => {
  it('asks for the chosen range and the previous week, and shows totals with units', async () => {
    const app = await mountAnalytics('summary', '?from=2026-03-01&to=2026-03-10&compare=week', {
      summaryConsumption,
      summaryProduction,
    });
    await app.settle();

    // One call per flow and range: the chosen range and the previous week.
    for (const route of ['summaryConsumption', 'summaryProduction'] as const) {
      expect(app.callsTo(route).map(queryOf)).toEqual([
        { startDate: '2026-03-01', endDate: '2026-03-10' },
        { startDate: '2026-02-22', endDate: '2026-03-03' },
      ]);
    }

    const charts = app.wrapper.findAll('.time-chart-stub');
    expect(charts).toHaveLength(2);
    const [consumption, production] = charts.map((chart) => datasetsIn(chart));
    expect(consumption!.map((set) => [set.label, set.role, set.unit, set.count])).toEqual([
      ['Consumption', 'consumption', 'kWh', 10],
      ['Consumption, previous week (22 Feb 2026 – 3 Mar 2026)', 'previous', 'kWh', 10],
    ]);
    // Only the range's days, in order: 1..10 March.
    expect(production![0]!.points.map((point) => point.y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The previous week is drawn over the current days: its first day on 1 March.
    expect(production![1]!.points[0]!.x).toBe(
      DateTime.fromISO('2026-03-01', { zone: ZONE }).toMillis(),
    );
    expect(production![1]!.points.map((point) => point.y)).toEqual([
      22, 23, 24, 25, 26, 27, 28, 1, 2, 3,
    ]);

    const rows = app.wrapper.findAll('table.totals tbody tr');
    const consumptionRow = rows[0]!.text();
    expect(consumptionRow).toContain('100 kWh'); // 10 × 10 kWh
    expect(consumptionRow).toContain('10.0 kWh'); // per day
    // Previous: 7 days of 5 kWh (February) + 3 of 10 kWh = 65 kWh; +53.8 %.
    expect(consumptionRow).toContain('65.0 kWh');
    expect(consumptionRow).toContain('+53.8%');
    expect(rows[1]!.text()).toContain('55.0 kWh'); // 1 + … + 10
    expect(rows[1]!.text()).toContain('10.0 kWh on 2026-03-10');
  });

  it('keeps a new comparison in the route query and loads it', async () => {
    const app = await mountAnalytics('summary', '?from=2026-03-01&to=2026-03-07', {
      summaryConsumption,
      summaryProduction,
    });
    await app.settle();
    expect(app.callsTo('summaryConsumption')).toHaveLength(1);

    await app.wrapper.findComponent({ name: 'RangeSummaryPanel' }).vm.$emit('change', {
      compare: 'year',
    });
    await app.settle();
    expect(app.router.currentRoute.value.query).toEqual({
      from: '2026-03-01',
      to: '2026-03-07',
      compare: 'year',
    });
    expect(app.callsTo('summaryConsumption').map(queryOf).slice(1)).toEqual([
      { startDate: '2026-03-01', endDate: '2026-03-07' },
      { startDate: '2025-03-01', endDate: '2025-03-07' },
    ]);
  });

  it('takes a range picked in the date picker into the query', async () => {
    const app = await mountAnalytics('summary', '?from=2026-03-01&to=2026-03-07', {
      summaryConsumption,
      summaryProduction,
    });
    await app.settle();
    const picker = app.wrapper.findComponent({ name: 'DatePicker' });
    // One end picked: nothing is asked yet.
    picker.vm.$emit('update:modelValue', [new Date(2026, 1, 20), null]);
    await app.settle();
    expect(app.callsTo('summaryConsumption')).toHaveLength(1);
    picker.vm.$emit('update:modelValue', [new Date(2026, 1, 20), new Date(2026, 2, 5)]);
    await app.settle();
    expect(app.router.currentRoute.value.query).toMatchObject({
      from: '2026-02-20',
      to: '2026-03-05',
    });
    expect(queryOf(app.callsTo('summaryConsumption').at(-1)!)).toEqual({
      startDate: '2026-02-20',
      endDate: '2026-03-05',
    });
    expect(app.callsTo('summaryProduction').map(queryOf)).toEqual([
      { startDate: '2026-03-01', endDate: '2026-03-07' },
      { startDate: '2026-02-20', endDate: '2026-03-05' },
    ]);
  });

  it("shows the server's 366-day limit in each flow's card", async () => {
    const tooLong = apiError(422, 'The range … spans 798 days; at most 366 days are allowed');
    const app = await mountAnalytics('summary', '?from=2024-01-01&to=2026-03-07', {
      summaryConsumption: tooLong,
      summaryProduction: tooLong,
    });
    await app.settle();
    expect(app.callsTo('summaryProduction').map(queryOf)).toEqual([
      { startDate: '2024-01-01', endDate: '2026-03-07' },
    ]);
    for (const flow of ['consumption', 'production']) {
      const card = app.wrapper.find(`section[data-flow="${flow}"]`);
      expect(card.attributes('data-state')).toBe('error');
      expect(card.text()).toContain('at most 366 days are allowed');
    }
  });

  it('shows a failing flow in its own card and keeps the other', async () => {
    const app = await mountAnalytics('summary', '?from=2026-03-01&to=2026-03-07', {
      summaryConsumption: apiError(422, 'The range from startDate … spans 400 days'),
      summaryProduction,
    });
    await app.settle();
    const consumptionCard = app.wrapper.find('section[data-flow="consumption"]');
    expect(consumptionCard.attributes('data-state')).toBe('error');
    expect(consumptionCard.text()).toContain('spans 400 days');
    expect(app.wrapper.find('section[data-flow="production"]').attributes('data-state')).toBe(
      'ready',
    );
    expect(app.wrapper.findAll('.time-chart-stub')).toHaveLength(1);
  });
});

describe('sensor history', () => {
  const history = (input: { query?: Record<string, string> }) =>
    series(input.query!.startDate!.replace('T', 'T'), [100, null, 300], 'W', 'hours');

  it('sends the range and granularity of the query, and the previous period', async () => {
    const app = await mountAnalytics(
      'history',
      '?start=2026-03-29T00:00&end=2026-03-30T00:00&granularity=minutes&compare=week',
      { historyConsumption: history, historyProduction: history },
    );
    await app.settle();
    for (const route of ['historyConsumption', 'historyProduction'] as const) {
      expect(app.callsTo(route).map(queryOf)).toEqual([
        { startDate: '2026-03-29T00:00', endDate: '2026-03-30T00:00', granularity: 'minutes' },
        { startDate: '2026-03-22T00:00', endDate: '2026-03-23T00:00', granularity: 'minutes' },
      ]);
    }
    const chart = app.wrapper.find('[data-flow="consumption"] .time-chart-stub');
    expect(chart.attributes('data-zoom')).toBe('true');
    expect(chart.attributes('data-decimation')).toBe('true');
    const [current, previous] = datasetsIn(chart);
    // null stays a gap.
    expect(current!.points.map((point) => point.y)).toEqual([100, null, 300]);
    // Across the DST change: the previous week's 00:00 (UTC+1) is drawn at this 00:00 (UTC+1),
    // its 02:00 at 03:00 (there is no 02:00 on 29 March), its 01:00 at 01:00.
    expect(
      previous!.points.map((point) =>
        DateTime.fromMillis(point.x, { zone: ZONE }).toFormat('HH:mm'),
      ),
    ).toEqual(['00:00', '01:00', '03:00']);
  });

  it('changes the granularity from the select and reloads with it', async () => {
    const app = await mountAnalytics('history', '?start=2026-03-29T00:00&end=2026-03-30T00:00', {
      historyConsumption: history,
      historyProduction: history,
    });
    await app.settle();
    expect(queryOf(app.callsTo('historyConsumption')[0]!).granularity).toBe('hours');
    await app.wrapper.findComponent({ name: 'SensorHistoryPanel' }).vm.$emit('change', {
      granularity: 'days',
    });
    await app.settle();
    expect(app.router.currentRoute.value.query.granularity).toBe('days');
    expect(queryOf(app.callsTo('historyConsumption')[1]!).granularity).toBe('days');
  });

  it('applies a typed date-time range with "Show range", and refuses an inverted one', async () => {
    const app = await mountAnalytics('history', '?start=2026-03-29T00:00&end=2026-03-30T00:00', {
      historyConsumption: history,
      historyProduction: history,
    });
    await app.settle();
    const [from, to] = app.wrapper.findAll('input[type="datetime-local"]');
    const show = () =>
      app.wrapper.findAll('button').find((button) => button.text() === 'Show range')!;
    expect(show().attributes('disabled')).toBeDefined();

    await to!.setValue('2026-03-28T00:00');
    expect(app.wrapper.find('[role="alert"]').text()).toBe('“From” must be before “To”.');
    expect(show().attributes('disabled')).toBeDefined();

    await from!.setValue('2026-03-27T06:30');
    await show().trigger('submit');
    await app.settle();
    expect(app.router.currentRoute.value.query).toMatchObject({
      start: '2026-03-27T06:30',
      end: '2026-03-28T00:00',
    });
    expect(queryOf(app.callsTo('historyConsumption').at(-1)!)).toEqual({
      startDate: '2026-03-27T06:30',
      endDate: '2026-03-28T00:00',
      granularity: 'hours',
    });
  });

  it('shows the point cap message and switches to the granularity it suggests', async () => {
    const capped =
      'Granularity seconds gives 150000 points from startDate 2026-03-01T00:00 to endDate ' +
      '2026-03-31T00:00, more than the maximum of 100000; use a coarser granularity: minutes ' +
      '(43200 points)';
    const answer = (input: { query?: Record<string, string> }) =>
      input.query!.granularity === 'seconds' ? apiError(422, capped) : history(input);
    const app = await mountAnalytics(
      'history',
      '?start=2026-03-01T00:00&end=2026-03-31T00:00&granularity=seconds',
      { historyConsumption: answer, historyProduction: answer },
    );
    await app.settle();

    const notice = app.wrapper.find('[data-testid="point-cap"]');
    expect(notice.exists()).toBe(true);
    expect(notice.text()).toContain('more than the maximum of 100000');
    expect(app.wrapper.find('section[data-flow="consumption"]').attributes('data-state')).toBe(
      'error',
    );
    const use = notice.findAll('button').find((button) => button.text() === 'Use minutes');
    expect(use).toBeDefined();
    await use!.trigger('click');
    await app.settle();

    expect(app.router.currentRoute.value.query.granularity).toBe('minutes');
    expect(queryOf(app.callsTo('historyConsumption').at(-1)!).granularity).toBe('minutes');
    expect(app.wrapper.find('[data-testid="point-cap"]').exists()).toBe(false);
    expect(app.wrapper.find('section[data-flow="consumption"]').attributes('data-state')).toBe(
      'ready',
    );
  });

  it('offers no switch when even days are too many', async () => {
    const app = await mountAnalytics(
      'history',
      '?start=2026-03-01T00:00&end=2026-03-31T00:00&granularity=days',
      {
        historyConsumption: apiError(
          422,
          'Granularity days gives 200000 points from startDate a to endDate b, more than the maximum of 100000; shorten the range',
        ),
        historyProduction: history,
      },
    );
    await app.settle();
    const notice = app.wrapper.find('[data-testid="point-cap"]');
    expect(notice.text()).toContain('shorten the range');
    expect(
      notice.findAll('button').filter((button) => button.text().startsWith('Use ')),
    ).toHaveLength(0);
  });
});

describe('forecasts', () => {
  const forecast = (unit: string) => ({
    plantUuid: PLANT_UUID,
    timezone: ZONE,
    unit,
    from: '2026-03-29T00:00:00+01:00',
    to: '2026-03-29T02:00:00+01:00',
    method: 'test model',
    points: [
      { timestamp: '2026-03-29T00:00:00+01:00', value: 1, lower: 0.5, upper: 1.5 },
      { timestamp: '2026-03-29T01:00:00+01:00', value: 2, lower: 1.5, upper: 2.5 },
    ],
  });
  const byType = (input: { query?: Record<string, unknown> }) => ({
    plantUuid: PLANT_UUID,
    date: '2026-03-30',
    timezone: ZONE,
    unit: 'kWh',
    method: 'test model',
    series: {
      HEAT_PUMP: forecast('kWh').points,
      ...(input.query?.consumerOnly === true ? {} : { PV_INVERTER: forecast('kWh').points }),
    },
  });

  it('sends hours and consumerOnly, and stacks the device types', async () => {
    const app = await mountAnalytics('forecasts', '?hours=72', {
      predictConsumption: forecast('kWh'),
      predictProduction: apiError(422, 'The plant has no PV settings'),
      predictByDeviceType: byType,
      listDeviceTypes: {
        content: [{ code: 'HEAT_PUMP', name: 'Heat pump' }],
        page: { number: 0, size: 100, totalElements: 1, totalPages: 1 },
      },
    });
    await app.settle();

    expect(app.callsTo('predictConsumption').map(queryOf)).toEqual([{ hours: 72 }]);
    expect(app.callsTo('predictProduction').map(queryOf)).toEqual([{ hours: 72 }]);
    expect(app.callsTo('predictByDeviceType').map(queryOf)).toEqual([{ consumerOnly: false }]);

    // The production card fails alone.
    expect(app.wrapper.find('[data-forecast="production"]').text()).toContain('no PV settings');
    const [consumption] = datasetsIn(
      app.wrapper.find('[data-forecast="consumption"] .time-chart-stub'),
    );
    expect(consumption!.band).toEqual([
      { lower: 0.5, upper: 1.5 },
      { lower: 1.5, upper: 2.5 },
    ]);

    const stacked = app.wrapper.find('[data-forecast="device-types"] .time-chart-stub');
    expect(stacked.attributes('data-stacked')).toBe('true');
    expect(datasetsIn(stacked).map((set) => set.label)).toEqual(['Heat pump', 'PV_INVERTER']);

    const toggle = app.wrapper.find('[data-forecast="device-types"] input[role="switch"]');
    const label = app.wrapper.find(`label[for="${toggle.attributes('id')}"]`);
    expect(label.text()).toBe('Consumers only');
    await toggle.setValue(true);
    await app.settle();

    expect(app.router.currentRoute.value.query.consumerOnly).toBe('true');
    expect(app.callsTo('predictByDeviceType').map(queryOf)).toEqual([
      { consumerOnly: false },
      { consumerOnly: true },
    ]);
    // The other forecasts are not asked again for a switch that does not concern them.
    expect(app.callsTo('predictConsumption')).toHaveLength(1);
    const after = app.wrapper.find('[data-forecast="device-types"] .time-chart-stub');
    expect(datasetsIn(after).map((set) => set.label)).toEqual(['Heat pump']);
  });
});

describe('analytics in German and Italian', () => {
  it('range summary: tabs, headers, German dates, decimal commas and the comparison', async () => {
    i18n.global.locale.value = 'de';
    const app = await mountAnalytics('summary', '?from=2026-03-01&to=2026-03-10&compare=week', {
      summaryConsumption,
      summaryProduction,
    });
    await app.settle();
    const text = app.wrapper.text();
    expect(text).toContain('Zeitraumübersicht');
    expect(text).toContain('Zeiten in Europe/Rome');
    expect(text).toContain('Letzte 7 Tage');
    expect(text).toContain('Summen, 1. Mär 2026 – 10. Mär 2026');
    const [consumption] = app.wrapper.findAll('.time-chart-stub').map((c) => datasetsIn(c));
    expect(consumption!.map((set) => set.label)).toEqual([
      'Verbrauch',
      'Verbrauch, Vorwoche (22. Feb 2026 – 3. Mär 2026)',
    ]);
    const rows = app.wrapper.findAll('table.totals tbody tr');
    expect(rows[0]!.text()).toContain('10,0 kWh');
    expect(rows[0]!.text()).toContain('+53,8\u00a0%');
    expect(rows[1]!.text()).toContain('10,0 kWh am 10.03.2026');
  });

  it("sensor history in Italian: the point count as a plural with the language's digits", async () => {
    i18n.global.locale.value = 'it';
    const points = (input: { query?: Record<string, string> }) =>
      series(input.query!.startDate!, [100], 'W', 'hours');
    const app = await mountAnalytics(
      'history',
      '?start=2026-03-29T00:00&end=2026-03-30T00:00&granularity=hours',
      { historyConsumption: points, historyProduction: points },
    );
    await app.settle();
    const card = app.wrapper.find('section[data-flow="consumption"]');
    expect(card.text()).toContain('Potenza di consumo');
    expect(card.text()).toContain('W medi per ora · 1 punto');
    expect(app.wrapper.text()).toContain('Mostra intervallo');
  });
});
