// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest';
import PlantDataHealthView from '../../../renderer/src/views/PlantDataHealthView.vue';
import { apiError, mountWithApp, type RouteAnswers } from '../support/mountWithApp.ts';
import { plantHealth, sensorHealth } from '../../support/dataHealthAnswers.ts';
import { PLANT_UUID } from '../plants/fixtures.ts';

/**
 * The data-health view over a fake host: a crafted answer for three days around the spring DST
 * change in Madrid, with a gap, a counter reset, a frozen period and a suspicion.
 */

const ROUTE = `/plants/${PLANT_UUID}/data-health`;

const HEALTH = plantHealth([
  sensorHealth(),
  sensorHealth({
    sensorUuid: '00000000-0000-4000-8000-000000000002',
    name: 'PV production',
    flow: 'PRODUCTION',
    coverage: [0, 1, null],
    coverageTotal: 0.5,
    gapCount: 0,
    gaps: [],
    counterIssueCount: 1,
    counterIssues: [{ kind: 'RESET', at: '2026-03-29T12:00:00+02:00', before: 1043, after: 4.4 }],
    frozenCount: 1,
    frozen: [
      {
        start: '2026-03-29T10:00:00+02:00',
        end: '2026-03-29T16:00:00+02:00',
        value: 0,
        countedSeconds: 21600,
      },
    ],
    suspicions: [{ code: 'PRODUCTION_NEGATIVE_BY_DAY', observed: 0.8, reference: 0.2 }],
  }),
]);

let mounted: { unmount(): void } | null = null;
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

async function mountView(routes: RouteAnswers = { getDataHealth: HEALTH }) {
  const app = await mountWithApp(PlantDataHealthView, {
    props: { plantUuid: PLANT_UUID },
    route: ROUTE,
    routes,
    attachTo: document.body,
  });
  mounted = app.wrapper;
  await app.settle();
  return app;
}

describe('PlantDataHealthView', () => {
  test('a heat map cell per sensor and day, each named with sensor, date and coverage', async () => {
    const { wrapper } = await mountView();
    const grid = wrapper.find('table[role="grid"]');
    expect(grid.attributes('aria-label')).toBe('Coverage per sensor and day');
    const cells = grid.findAll('[role="gridcell"]');
    expect(cells).toHaveLength(6);
    expect(cells.map((cell) => cell.attributes('aria-label'))).toEqual([
      'House consumption, Mar 28, 2026: 100% with data',
      'House consumption, Mar 29, 2026: 91.3% with data',
      'House consumption, Mar 30, 2026: 40% with data',
      'PV production, Mar 28, 2026: 0% with data',
      'PV production, Mar 29, 2026: 100% with data',
      'PV production, Mar 30, 2026: day to come',
    ]);
    expect(cells.map((cell) => cell.attributes('data-level'))).toEqual([
      'full',
      'high',
      'low',
      'none',
      'full',
      'future',
    ]);
    // A legend names every colour.
    expect(wrapper.find('.coverage-legend').text()).toContain('90% or more');
    expect(wrapper.find('.coverage-legend').text()).toContain('Day to come');
  });

  test('the grid is one tab stop; the arrow keys, Home and End move between cells', async () => {
    const { wrapper } = await mountView();
    const cell = (row: number, column: number) =>
      wrapper.find<HTMLElement>(`[data-cell="${row}-${column}"]`);
    const focusable = wrapper.findAll('[role="gridcell"][tabindex="0"]');
    expect(focusable).toHaveLength(1);
    expect(focusable[0]!.attributes('data-cell')).toBe('0-2');
    cell(0, 2).element.focus();
    await cell(0, 2).trigger('keydown', { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(cell(0, 1).element);
    await cell(0, 1).trigger('keydown', { key: 'ArrowDown' });
    expect(document.activeElement).toBe(cell(1, 1).element);
    await cell(1, 1).trigger('keydown', { key: 'Home' });
    expect(document.activeElement).toBe(cell(1, 0).element);
    await cell(1, 0).trigger('keydown', { key: 'End' });
    expect(document.activeElement).toBe(cell(1, 2).element);
    expect(cell(1, 2).attributes('tabindex')).toBe('0');
    expect(cell(0, 2).attributes('tabindex')).toBe('-1');
  });

  test('gaps, resets, frozen periods and suspicions listed in the plant’s zone', async () => {
    const { wrapper } = await mountView();
    const gaps = wrapper.find('[data-findings="gaps"]');
    expect(gaps.findAll('th').map((th) => th.text())).toEqual(['Start', 'End', 'Length']);
    expect(
      gaps
        .find('tbody tr')
        .findAll('td')
        .map((td) => td.text()),
    ).toEqual(['Mar 29, 2026, 3:59 AM', 'Mar 29, 2026, 6:00 AM', '2 hr, 1 min']);
    const counter = wrapper.find('[data-findings="counter"] tbody tr');
    expect(counter.findAll('td').map((td) => td.text())).toEqual([
      'Reset',
      'Mar 29, 2026, 12:00 PM',
      '1,043 kWh',
      '4.4 kWh',
    ]);
    expect(wrapper.find('[data-findings="frozen"] tbody tr').text()).toContain('6 hr');
    expect(wrapper.find('[data-code="PRODUCTION_NEGATIVE_BY_DAY"]').text()).toBe(
      'Production is negative in 80% of its daylight readings: its current transformer may be mounted backwards.',
    );
    expect(wrapper.text()).toContain('93% with data over the whole range');
  });

  test('a server without the extension: a sentence, no error, not asked again', async () => {
    const app = await mountView({
      getDataHealth: apiError(404, 'Route GET:/plants/x/data-health not found'),
    });
    expect(app.wrapper.find('[data-testid="data-health-not-served"]').text()).toContain(
      'This server does not offer the data-health map',
    );
    expect(app.wrapper.find('.action-message').exists()).toBe(false);
    expect(app.wrapper.find('table[role="grid"]').exists()).toBe(false);
    // Nothing to check again: the environment is known not to serve it.
    expect(app.wrapper.findAll('button').some((button) => button.text() === 'Check again')).toBe(
      false,
    );
    expect(app.callsTo('getDataHealth')).toHaveLength(1);
  });

  test('another failure shows its message with Retry, which loads again', async () => {
    const app = await mountView({ getDataHealth: apiError(500, 'Database unavailable') });
    expect(app.wrapper.find('[role="alert"]').text()).toContain('Database unavailable');
    app.routes.getDataHealth = HEALTH;
    const retry = app.wrapper.findAll('button').find((button) => button.text() === 'Retry')!;
    await retry.trigger('click');
    await app.settle();
    expect(app.wrapper.findAll('[role="gridcell"]')).toHaveLength(6);
    expect(app.callsTo('getDataHealth')).toHaveLength(2);
  });
});
