// @vitest-environment happy-dom
import { describe, expect, test, vi } from 'vitest';
import { PLANT_UUID } from '../commissioning/fixtures.ts';
import { mountWizard, pinWizardClock, wizardRoutes } from '../support/commissioningApp.ts';
import type { RouteAnswers } from '../support/mountWithApp.ts';
import { liveRoof, noonAnswer, NOW } from './fixtures.ts';

/**
 * Live readings in the wizard's sensors step: each sensor's latest value with unit and age and
 * its 15-minute sparkline, from the `recent` extension or, without it, from the sensor-history
 * routes (production and consumption only); read again while shown.
 */

const roof = liveRoof();

const mountSensorsStep = (extra: RouteAnswers = {}) =>
  mountWizard('sensors', wizardRoutes(roof, extra));

const extensionAnswer = (endMs = Date.now()) => noonAnswer(roof, endMs);

const rowOf = (app: Awaited<ReturnType<typeof mountSensorsStep>>, name: string) =>
  app.wrapper.find(`[data-live-readings] tr[data-live-sensor="${name}"]`);

pinWizardClock(NOW);

describe('live readings with the recent extension', () => {
  test("show each sensor's latest value with unit, its age and a named sparkline", async () => {
    const app = await mountSensorsStep({ listSensorStatuses: () => extensionAnswer() });
    await app.settle();
    await vi.waitFor(() => expect(rowOf(app, 'PV output').exists()).toBe(true));

    expect(app.callsTo('listSensorStatuses')[0]!.input!.query).toEqual({ recent: true });
    // Nothing asked of the specification's routes when the extension answers.
    expect(app.callsTo('historyProduction')).toHaveLength(0);

    const pv = rowOf(app, 'PV output');
    expect(pv.find('[data-live-value]').text()).toBe('3.00 kW');
    expect(pv.find('[data-live-age]').text()).toBe('20 s ago');
    const canvas = pv.find('canvas');
    expect(canvas.attributes('role')).toBe('img');
    expect(canvas.attributes('aria-label')).toBe('PV output, last 15 minutes');
    const summary = app.wrapper.find(`#${canvas.attributes('aria-describedby')}`);
    expect(summary.text()).toContain('15 readings in the last 15 minutes');
    expect(summary.text()).toContain('latest 3.00 kW');

    expect(rowOf(app, 'Grid connection').find('[data-live-value]').text()).toBe('-2.40 kW');
    expect(rowOf(app, 'House').find('[data-live-value]').text()).toBe('600 W');
    expect(app.wrapper.find('[data-live-cadence]').text()).toBe('Updated every 10 s.');
  });

  test('are read again every 10 s, ages counted to the newest load', async () => {
    // Polling runs on setInterval (vue-query's refetchInterval).
    vi.useFakeTimers({
      now: NOW,
      toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const app = await mountSensorsStep({ listSensorStatuses: () => extensionAnswer(NOW) });
    await vi.advanceTimersByTimeAsync(0);
    await app.settle();
    await vi.waitFor(() => expect(rowOf(app, 'PV output').exists()).toBe(true));
    const asked = app.callsTo('listSensorStatuses').length;
    expect(rowOf(app, 'PV output').find('[data-live-age]').text()).toBe('20 s ago');

    // 10 s later the same readings are 30 s old.
    await vi.advanceTimersByTimeAsync(10_000);
    await app.settle();
    expect(app.callsTo('listSensorStatuses').length).toBe(asked + 1);
    await vi.waitFor(() =>
      expect(rowOf(app, 'PV output').find('[data-live-age]').text()).toBe('30 s ago'),
    );
  });

  test('pause while the window is hidden', async () => {
    const app = await mountSensorsStep({ listSensorStatuses: () => extensionAnswer() });
    await app.settle();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    await app.settle();
    expect(app.wrapper.find('[data-live-cadence]').text()).toBe(
      'Paused while the window is hidden.',
    );
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
});

describe('live readings through the specification’s routes', () => {
  const series = () => ({
    plantUuid: PLANT_UUID,
    timezone: 'Europe/Rome',
    unit: 'W',
    from: new Date(NOW - 15 * 60_000).toISOString(),
    to: new Date(NOW + 60_000).toISOString(),
    points: [
      { timestamp: new Date(NOW - 140_000).toISOString(), value: 1200, coverage: 1 },
      { timestamp: new Date(NOW - 80_000).toISOString(), value: null, coverage: 0 },
      { timestamp: new Date(NOW - 20_000).toISOString(), value: 1250, coverage: 1 },
    ],
  });

  test('show production and consumption on their sensors, and say the others have none', async () => {
    // listSensorStatuses answers 404: a server without the extension.
    const app = await mountSensorsStep({
      historyProduction: () => series(),
      historyConsumption: () => ({ ...series(), points: [] }),
    });
    await app.settle();
    await vi.waitFor(() => expect(rowOf(app, 'PV output').exists()).toBe(true));

    const query = app.callsTo('historyProduction')[0]!.input!.query!;
    expect(query.granularity).toBe('seconds');
    // 15 minutes before noon in Rome, up to the end of the current minute.
    expect(query).toMatchObject({ startDate: '2026-06-21T11:45', endDate: '2026-06-21T12:01' });

    const pv = rowOf(app, 'PV output');
    expect(pv.find('[data-live-value]').text()).toBe('1.25 kW');
    expect(pv.find('[data-live-age]').text()).toBe('20 s ago');
    expect(pv.find('canvas').attributes('aria-label')).toBe('PV output, last 15 minutes');
    const grid = rowOf(app, 'Grid connection');
    expect(grid.find('[data-live-value]').text()).toContain('no live values from this server');
    expect(grid.find('canvas').exists()).toBe(false);
    expect(rowOf(app, 'House').find('[data-live-age]').text()).toBe(
      'no reading in the last 15 minutes',
    );
    expect(app.wrapper.find('[data-live-mode]').text()).toContain("the specification's routes");
    // The extension is not asked again in this session.
    await app.wrapper.find('button[aria-label="Refresh the live readings"]').trigger('click');
    await app.settle();
    expect(app.callsTo('listSensorStatuses')).toHaveLength(1);
    expect(app.callsTo('historyProduction').length).toBeGreaterThan(1);
  });
});
