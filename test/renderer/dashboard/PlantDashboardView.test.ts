// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defineComponent, h, onMounted, type PropType } from 'vue';
import type { DOMWrapper, VueWrapper } from '@vue/test-utils';
import type { ChartSeries } from '../../../renderer/src/charts/types.ts';
import PlantDashboardView from '../../../renderer/src/views/PlantDashboardView.vue';
import {
  apiError,
  mountWithApp,
  networkError,
  type RouteAnswers,
} from '../support/mountWithApp.ts';
import { plant, PLANT_UUID } from '../plants/fixtures.ts';
import { breakdown, daily, forecast, hourly, minutes, NOW, pvHealth } from './fixtures.ts';
import { sensorStatus, statusesOf } from '../sensors/statusFixtures.ts';
import { i18n } from '../../../renderer/src/i18n.ts';

/**
 * The dashboard over a fake host: tiles computed from the routes' answers, each card loading and
 * failing on its own, and the live refresh (interval, paused while the window is hidden).
 * TimeChart is replaced by a stand-in that says it has drawn (happy-dom has no canvas) and
 * shows what it was given.
 */

const TimeChartStandIn = defineComponent({
  name: 'TimeChart',
  props: {
    datasets: { type: Array as PropType<ChartSeries[]>, required: true },
    zone: { type: String, required: true },
    unit: { type: String, required: true },
    ariaLabel: { type: String, required: true },
    exportName: { type: String, required: true },
  },
  emits: ['rendered'],
  setup(props, { emit }) {
    onMounted(() => emit('rendered'));
    return () =>
      h(
        'div',
        { class: 'chart-stand-in', role: 'img', 'aria-label': props.ariaLabel },
        props.datasets.map((series) =>
          h('span', {
            'data-series': series.label,
            'data-unit': series.unit,
            'data-values': JSON.stringify(series.points.map((point) => point.y)),
            'data-band': series.band ? String(series.band.length) : undefined,
          }),
        ),
      );
  },
});

const ROUTE = `/plants/${PLANT_UUID}/dashboard`;

function answers(): RouteAnswers {
  return {
    getPlant: plant(),
    dailyConsumption: daily([10, 11, 12, 13, 14, 15, 12]),
    dailyProduction: daily([18, 19, 20, 21, 22, 23, 20]),
    hourlyConsumption: hourly((index) => (index === 5 ? null : 0.5 + index / 100)),
    hourlyProduction: hourly((index) => index / 10),
    historyConsumption: minutes([400, 410, 420, null]),
    historyProduction: minutes([2500, 2600, 2750, null]),
    predictConsumption: forecast('seasonal'),
    predictProduction: forecast('clear-sky'),
    pvHealth: pvHealth(),
    energyBreakdown: breakdown(3),
  };
}

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  // As browsers fire it: at the document, bubbling to the window (where vue-query listens).
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

beforeEach(() => {
  // setImmediate stays real: flushPromises runs on it.
  vi.useFakeTimers({
    now: NOW,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => visibility,
  });
  localStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

async function mountDashboard(routes: RouteAnswers = answers()) {
  const app = await mountWithApp(PlantDashboardView, {
    props: { plantUuid: PLANT_UUID },
    route: ROUTE,
    routes,
    stubs: { TimeChart: TimeChartStandIn },
  });
  await app.settle();
  return app;
}

/** The ChartCard titled `title`. */
function card(wrapper: VueWrapper, title: string): DOMWrapper<Element> {
  const found = wrapper
    .findAll('section.chart-card')
    .find((section) => section.find('h2').text() === title);
  if (!found) throw new Error(`no card “${title}”`);
  return found;
}

const tileValue = (wrapper: VueWrapper, name: string) =>
  wrapper.find(`[data-tile-value="${name}"]`);

describe('PlantDashboardView', () => {
  test("today's energy tiles show the coverage they rest on, scaled to the day so far", async () => {
    const routes = answers();
    const production = daily([18, 19, 20, 21, 22, 23, 20]);
    // A quarter of the 23-hour day at 12:30, of which 11.5 hours have passed: half so far.
    production.points[6]!.coverage = 0.25;
    routes.dailyProduction = production;
    const { wrapper } = await mountDashboard(routes);
    const coverageOf = (name: string) =>
      wrapper
        .findAll('section.chart-card')
        .find((section) => section.find(`[data-tile-value="${name}"]`).exists())!
        .find('[data-tile-coverage]')
        .text();
    expect(coverageOf('production-today')).toBe('Rests on data for 50% of the day so far');
    // 0.52 of 23 hours is more than has passed: complete.
    expect(coverageOf('consumption-today')).toBe('Rests on data for 100% of the day so far');
  });

  test('a server whose points carry no coverage: the tiles say it is unknown', async () => {
    const routes = answers();
    for (const route of ['dailyConsumption', 'dailyProduction'] as const) {
      const series = daily([10, 11, 12, 13, 14, 15, 12]);
      series.points = series.points.map(({ timestamp, value }) => ({ timestamp, value }) as never);
      routes[route] = series;
    }
    const { wrapper } = await mountDashboard(routes);
    const texts = wrapper.findAll('[data-tile-coverage]').map((found) => found.text());
    expect(texts).toEqual(['Coverage of the data unknown', 'Coverage of the data unknown']);
  });

  test('tiles: today’s energy, the shares and the current power, with units and times', async () => {
    const { wrapper } = await mountDashboard();
    expect(wrapper.text()).toContain('Times in Europe/Rome (UTC+02:00)');

    expect(tileValue(wrapper, 'production-today').text()).toBe('20.0 kWh');
    expect(tileValue(wrapper, 'production-today').attributes('data-value')).toBe('20');
    expect(tileValue(wrapper, 'consumption-today').text()).toBe('12.0 kWh');
    // C 12, grid import 3 → own use 9: 75 % of consumption, 45 % of production.
    expect(tileValue(wrapper, 'self-sufficiency').text()).toBe('75.0%');
    expect(tileValue(wrapper, 'self-consumption').text()).toBe('45.0%');
    expect(tileValue(wrapper, 'power-consumption').text()).toBe('420 W');
    expect(tileValue(wrapper, 'power-production').text()).toBe('2.75 kW');

    const production = card(wrapper, 'Production today');
    expect(production.attributes('data-state')).toBe('ready');
    expect(production.text()).toContain('Today, 00:00–12:30 (Europe/Rome)');
    expect(production.text()).toContain('Data as of 12:30:00 (Europe/Rome)');
    expect(card(wrapper, 'Current power').text()).toContain(
      'Average of the minute 12:29 (Europe/Rome)',
    );
  });

  test('every card is drawn from its routes, in the plant’s zone', async () => {
    const { wrapper } = await mountDashboard();
    const states = wrapper.findAll('[data-state]').map((node) => node.attributes('data-state'));
    expect(states).toHaveLength(11);
    expect(new Set(states)).toEqual(new Set(['ready']));

    const week = card(wrapper, 'Last 7 days');
    expect(week.find('[data-series="Consumption"]').attributes('data-values')).toBe(
      '[10,11,12,13,14,15,12]',
    );
    expect(week.find('[data-series="Production"]').attributes('data-unit')).toBe('kWh');
    expect(week.text()).toContain('1 day only partly measured');

    // A gap stays a gap (null), never 0.
    const day = card(wrapper, 'Last 24 hours');
    const values = JSON.parse(
      day.find('[data-series="Consumption"]').attributes('data-values')!,
    ) as (number | null)[];
    expect(values).toHaveLength(24);
    expect(values[5]).toBeNull();

    const consumptionForecast = card(wrapper, 'Consumption forecast');
    expect(consumptionForecast.find('[data-series="Forecast"]').attributes('data-band')).toBe('48');
    expect(consumptionForecast.find('[data-series="Actual consumption"]').exists()).toBe(true);
    expect(consumptionForecast.text()).toContain('seasonal');
    expect(card(wrapper, 'Production forecast').text()).toContain('clear-sky');

    const health = card(wrapper, 'PV health');
    expect(health.text()).toContain('Healthy');
    expect(health.text()).toContain('93.9%');
    expect(health.text()).toContain('150 kWh');
    expect(health.text()).toContain('160 kWh');
    expect(health.text()).toContain('2026-03-22 to 2026-03-28 (Europe/Rome)');

    const energy = card(wrapper, 'Energy breakdown');
    expect(energy.find('[data-breakdown="loads"]').text()).toContain('Unmeasured');
    expect(energy.find('[data-breakdown="loads"]').text()).toContain('25.0%');
    expect(energy.find('[data-breakdown="sources"]').text()).toContain('Grid import');
  });

  test('the routes get the plant’s local day and times; identical requests are shared', async () => {
    const app = await mountDashboard();
    expect(app.callsTo('dailyConsumption')).toHaveLength(1);
    expect(app.callsTo('dailyConsumption')[0]!.input!.query).toEqual({ date: '2026-03-29' });
    expect(app.callsTo('hourlyProduction')).toHaveLength(1);
    expect(app.callsTo('energyBreakdown')).toHaveLength(1);
    expect(app.callsTo('energyBreakdown')[0]!.input!.query).toEqual({
      startDate: '2026-03-29T00:00',
      endDate: '2026-03-29T12:30',
    });
    expect(app.callsTo('historyConsumption')[0]!.input!.query).toEqual({
      startDate: '2026-03-29T12:15',
      endDate: '2026-03-29T12:31',
      granularity: 'minutes',
    });
    expect(app.callsTo('predictProduction')[0]!.input!.query).toEqual({ hours: 48 });
  });

  test('a failing card shows its own error and Retry; the others stay drawn', async () => {
    const routes = answers();
    routes.pvHealth = apiError(500, 'PV health is broken today');
    routes.predictProduction = apiError(
      422,
      'Plant has no PV settings: pv.peakPowerKw is required for a production forecast',
    );
    const app = await mountDashboard(routes);

    const health = card(app.wrapper, 'PV health');
    expect(health.attributes('data-state')).toBe('error');
    expect(health.find('[role="alert"]').text()).toContain('PV health is broken today');
    expect(card(app.wrapper, 'Production forecast').text()).toContain('Plant has no PV settings');
    for (const title of ['Last 7 days', 'Consumption forecast', 'Energy breakdown']) {
      expect(card(app.wrapper, title).attributes('data-state')).toBe('ready');
    }
    expect(tileValue(app.wrapper, 'production-today').text()).toBe('20.0 kWh');
    expect(app.wrapper.text()).toContain('2 cards could not be updated');

    app.routes.pvHealth = pvHealth({ status: 'DEGRADED', performancePercent: 71.5 });
    const before = app.calls.length;
    const retry = health.findAll('button').find((button) => button.text() === 'Retry')!;
    await retry.trigger('click');
    await app.settle();
    // Only the card's own route is asked again.
    expect(app.calls.slice(before).map((call) => call.route)).toEqual(['pvHealth']);
    const again = card(app.wrapper, 'PV health');
    expect(again.attributes('data-state')).toBe('ready');
    expect(again.text()).toContain('Degraded');
    expect(again.text()).toContain('71.5%');
  });

  test('a shared request that fails fails every card that needs it, and only those', async () => {
    const routes = answers();
    routes.energyBreakdown = apiError(422, 'startDate 2026-03-29T00:00 is after endDate');
    const app = await mountDashboard(routes);
    for (const title of ['Self-consumption', 'Self-sufficiency', 'Energy breakdown']) {
      expect(card(app.wrapper, title).attributes('data-state')).toBe('error');
      expect(card(app.wrapper, title).text()).toContain('is after endDate');
    }
    for (const title of ['Production today', 'Consumption today', 'Current power', 'PV health']) {
      expect(card(app.wrapper, title).attributes('data-state')).toBe('ready');
    }
    expect(app.wrapper.text()).toContain('3 cards could not be updated');
    // One refresh asked it once for the three of them.
    expect(app.callsTo('energyBreakdown')).toHaveLength(1);
  });

  test('when the server is unreachable every card says so, none goes blank', async () => {
    const app = await mountDashboard();
    for (const route of Object.keys(answers()) as (keyof RouteAnswers)[]) {
      if (route !== 'getPlant') app.routes[route] = networkError('The server is not reachable');
    }
    await vi.advanceTimersByTimeAsync(30_000);
    // A request that did not complete is tried twice more (after 1 s, then 2 s) before a card
    // says it failed.
    expect(app.wrapper.text()).not.toContain('cards could not be updated');
    await vi.advanceTimersByTimeAsync(3_000);
    await app.settle();
    const cards = app.wrapper.findAll('[data-state]');
    expect(cards).toHaveLength(11);
    for (const node of cards) {
      expect(node.attributes('data-state')).toBe('error');
      expect(node.text()).toContain('The server is not reachable');
      expect(node.findAll('button').some((button) => button.text() === 'Retry')).toBe(true);
    }
    expect(app.wrapper.text()).toContain('11 cards could not be updated');
    // Nothing came back: "Last updated" stays at the last refresh that brought data.
    expect(app.wrapper.find('[data-last-updated]').text()).toBe('Last updated 12:30:00');
  });

  test('refreshes at the interval, pauses while the window is hidden, reloads on return', async () => {
    const app = await mountDashboard();
    const refreshes = () => app.callsTo('pvHealth').length;
    expect(refreshes()).toBe(1);

    app.routes.dailyProduction = daily([18, 19, 20, 21, 22, 23, 21.5]);
    await vi.advanceTimersByTimeAsync(30_000);
    await app.settle();
    expect(refreshes()).toBe(2);
    expect(tileValue(app.wrapper, 'production-today').text()).toBe('21.5 kWh');
    expect(app.wrapper.find('[data-last-updated]').text()).toBe('Last updated 12:30:30');

    setVisibility('hidden');
    await app.settle();
    expect(app.wrapper.text()).toContain('Paused while the window is hidden');
    await vi.advanceTimersByTimeAsync(120_000);
    await app.settle();
    expect(refreshes()).toBe(2);

    setVisibility('visible');
    await app.settle();
    expect(refreshes()).toBe(3);
    expect(app.wrapper.text()).not.toContain('Paused while the window is hidden');
  });

  test('the chosen interval is used and remembered', async () => {
    localStorage.setItem('plantdesk.dashboard.refreshMs', '10000');
    const app = await mountDashboard();
    expect(app.wrapper.text()).toContain('10 s');
    await vi.advanceTimersByTimeAsync(10_000);
    await app.settle();
    expect(app.callsTo('pvHealth')).toHaveLength(2);
  });

  test('no grid meter: the shares say why they are missing instead of showing 0', async () => {
    const routes = answers();
    routes.energyBreakdown = breakdown(null);
    const { wrapper } = await mountDashboard(routes);
    expect(tileValue(wrapper, 'self-consumption').text()).toBe('—');
    expect(card(wrapper, 'Self-sufficiency').text()).toContain('Needs a grid meter');
  });
});

describe('PlantDashboardView: the sensors’ freshness', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  /** 12:30 local on the day the clocks went forward; readings relative to it. */
  const reporting = (n: number, name: string) =>
    sensorStatus(n, {
      name,
      lastReadingAt: iso(NOW - 60_000),
      lastChangedAt: iso(NOW - 60_000),
    });

  test('lists the sensors that are not reporting, and one stuck on its value', async () => {
    const routes = answers();
    routes.listSensorStatuses = statusesOf(
      [
        reporting(1, 'PV meter'),
        sensorStatus(2, {
          name: 'Grid meter',
          state: 'LATE',
          lastReadingAt: iso(NOW - 5 * 60_000),
          lastValue: 850,
        }),
        // Unchanged since 01:45 CET, before the clocks went forward.
        sensorStatus(3, {
          name: 'Battery meter',
          lastReadingAt: iso(NOW - 60_000),
          lastChangedAt: '2026-03-29T00:45:00Z',
          lastValue: 1500,
        }),
      ],
      PLANT_UUID,
    );
    const app = await mountDashboard(routes);
    expect(app.callsTo('listSensorStatuses')[0]!.input).toEqual({
      params: { plantUuid: PLANT_UUID },
    });
    const sensors = card(app.wrapper, 'Sensors');
    expect(sensors.attributes('data-state')).toBe('ready');
    expect(sensors.find('[data-sensors-summary]').text()).toBe('2 of 3 sensors reporting');
    const listed = sensors.find('ul[aria-label="Sensors needing attention"]').findAll('li');
    expect(listed.map((item) => item.find('.name').text())).toEqual([
      'Grid meter',
      'Battery meter',
    ]);
    expect(listed[0]!.find('.p-tag').text()).toBe('Late');
    expect(listed[0]!.text()).toContain('850 W · 5 min ago');
    expect(listed[1]!.find('.p-tag').text()).toBe('Reporting');
    expect(listed[1]!.text()).toContain('same value since 01:45');
  });

  test('all reporting: says so, lists nothing, and refreshes with the dashboard', async () => {
    const routes = answers();
    routes.listSensorStatuses = statusesOf(
      [reporting(1, 'PV meter'), reporting(2, 'Grid meter')],
      PLANT_UUID,
    );
    const app = await mountDashboard(routes);
    const sensors = card(app.wrapper, 'Sensors');
    expect(sensors.find('[data-sensors-summary]').text()).toBe('All 2 sensors reporting');
    expect(sensors.find('ul').exists()).toBe(false);
    await vi.advanceTimersByTimeAsync(30_000);
    await app.settle();
    expect(app.callsTo('listSensorStatuses')).toHaveLength(2);
  });

  test('without the extension (404): no card, no error, not asked again', async () => {
    const app = await mountDashboard();
    expect(app.wrapper.findAll('section.chart-card h2').map((h) => h.text())).not.toContain(
      'Sensors',
    );
    expect(app.wrapper.text()).not.toContain('could not be updated');
    await vi.advanceTimersByTimeAsync(60_000);
    await app.settle();
    expect(app.callsTo('listSensorStatuses')).toHaveLength(1);
    expect(app.callsTo('pvHealth')).toHaveLength(3);
  });
});

describe('PlantDashboardView in German', () => {
  test('titles, tiles with decimal commas, plurals, German dates and the API’s own names', async () => {
    i18n.global.locale.value = 'de';
    const routes = answers();
    routes.pvHealth = apiError(500, 'PV health is broken today');
    routes.predictProduction = apiError(500, 'no forecast');
    const { wrapper } = await mountDashboard(routes);
    expect(wrapper.get('[role="region"]').attributes('aria-label')).toBe('Dashboard');
    expect(wrapper.text()).toContain('Zeiten in Europe/Rome (UTC+02:00)');
    expect(wrapper.text()).toContain('Aktualisieren alle');
    expect(wrapper.text()).toContain('2 Karten konnten nicht aktualisiert werden');

    expect(tileValue(wrapper, 'production-today').text()).toBe('20,0 kWh');
    expect(tileValue(wrapper, 'self-sufficiency').text()).toBe('75,0\u00a0%');
    expect(tileValue(wrapper, 'power-production').text()).toBe('2,75 kW');
    const production = card(wrapper, 'Erzeugung heute');
    expect(production.text()).toContain('Heute, 00:00–12:30 (Europe/Rome)');
    expect(production.text()).toContain('Datenstand 12:30:00 (Europe/Rome)');
    expect(card(wrapper, 'Aktuelle Leistung').text()).toContain(
      'Mittelwert der Minute 12:29 (Europe/Rome)',
    );

    const week = card(wrapper, 'Letzte 7 Tage');
    expect(week.find('[data-series="Verbrauch"]').exists()).toBe(true);
    expect(week.text()).toContain('1 Tag nur teilweise gemessen');
    const forecastCard = card(wrapper, 'Verbrauchsprognose');
    expect(forecastCard.find('[data-series="Prognose"]').attributes('data-band')).toBe('48');
    expect(forecastCard.find('[data-series="Tatsächlicher Verbrauch"]').exists()).toBe(true);
    expect(forecastCard.text()).toContain('Nächste 48 Stunden in kWh je Stunde');
    expect(card(wrapper, 'PV-Zustand').text()).toContain('PV health is broken today');

    const energy = card(wrapper, 'Energieaufteilung');
    expect(energy.find('[data-breakdown="loads"]').text()).toContain('Nicht gemessen');
    expect(energy.find('[data-breakdown="loads"]').text()).toContain('25,0\u00a0%');
    expect(energy.find('[data-breakdown="sources"]').text()).toContain('Netzbezug');
  });

  test('PV health in Italian: status, figures and the period in the language', async () => {
    i18n.global.locale.value = 'it';
    const { wrapper } = await mountDashboard();
    const health = card(wrapper, 'Stato FV');
    expect(health.text()).toContain('Regolare');
    expect(health.text()).toContain('93,9%');
    expect(health.text()).toContain('dal 22/03/2026 al 28/03/2026 (Europe/Rome)');
  });
});
