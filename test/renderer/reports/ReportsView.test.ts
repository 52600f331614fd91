// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { ReportScheduleState } from '../../../electron/ipc/contract.ts';
import ReportsView from '../../../renderer/src/views/ReportsView.vue';
import { apiError, mountWithApp, page } from '../support/mountWithApp.ts';
import { ALERT, BARN, marchHours, marchRoutes, plant, ROOF, week, ZONE } from './reportFixtures.ts';
import { button, control } from '../support/queries.ts';
import { sensorHealth } from '../../support/dataHealthAnswers.ts';

const UNAVAILABLE: ReportScheduleState = {
  available: false,
  settings: { enabled: false, dayOfMonth: 1, folder: null },
  lastWritten: null,
  lastWrittenAt: null,
  lastError: null,
};

function mount() {
  return mountWithApp(ReportsView, {
    route: '/reports',
    routes: marchRoutes(),
    channels: {
      'alerts.state': { alerts: [ALERT], mutes: [], settings: {} },
      'reports.schedule': UNAVAILABLE,
    },
  });
}

const healthOf = (flow: 'PRODUCTION' | 'CONSUMPTION', coverageTotal: number, gapCount: number) =>
  sensorHealth({
    sensorUuid: flow === 'PRODUCTION' ? BARN : ROOF,
    flow,
    coverageTotal,
    gapCount,
    counterIssueCount: flow === 'CONSUMPTION' ? 1 : 0,
  });

describe('ReportsView', () => {
  test('makes the fleet report of a chosen month from the specification routes, with coverage', async () => {
    const app = await mount();
    await app.settle();
    await control(app.wrapper, 'Month of the report').setValue('March 2026');
    await button(app.wrapper, 'Make report').trigger('submit');
    await app.settle();

    const daily = app.calls.filter((call) => call.route === 'dailyProduction');
    expect(
      daily
        .filter((call) => call.input?.params?.plantUuid === ROOF)
        .map((c) => c.input?.query?.date),
    ).toEqual(['2026-03-07', '2026-03-14', '2026-03-21', '2026-03-28', '2026-03-31']);
    const text = app.wrapper.text();
    expect(text).toContain('All plants (fleet): report for March 2026');
    // Roof: 31 × 10 kWh over 5 kWp = 62 kWh/kWp, ranked before Barn's 31.
    const ranking = app.wrapper
      .findAll('#report-ranking + table tbody tr')
      .map((row) => row.text());
    expect(ranking[0]).toContain('Roof');
    expect(ranking[0]).toContain('62');
    expect(ranking[1]).toContain('Barn');
    expect(text).toContain('310 kWh');
    expect(text).toContain('coverage 100%');
    expect(text).toContain('Degraded');
    expect(text).toContain('Grid meter silent for 2 h');
    // The fleet's totals: each plant 155 kWh expected (743 h × 5/24), 124 kWh used.
    const total = (key: string) => app.wrapper.find(`[data-total="${key}"]`).text();
    expect(total('production')).toContain('372 kWh');
    expect(total('expectedProduction')).toContain('800 kWh');
    expect(total('expectedProduction')).toContain(
      'against 372 kWh of the plants with an expectation',
    );
    expect(total('expectedConsumption')).toContain('310 kWh');
    expect(total('expectedConsumption')).toContain(
      'against 248 kWh of the plants with an expectation',
    );
    expect(total('consumptionDifference')).toContain('-19.9%');
    // Consumption against its expectation from the 4 weeks before: 743 h × 5/24 kWh.
    const roof = app.wrapper.findAll('.report-figures')[1]!;
    const figure = (key: string) => roof.find(`[data-figure="${key}"]`).text();
    expect(figure('expectedConsumption')).toContain('155 kWh');
    expect(figure('expectedConsumption')).toContain('from the same weekdays of the 4 weeks before');
    expect(figure('consumptionDifference')).toContain('-19.9%');
    // Availability by the hour of daylight; the silent 10th lowers its coverage, not the ratio.
    expect(figure('availability')).toMatch(/% of daylight \([\d.,]+ of [\d.,]+ h with data\)/);
    expect(figure('availability')).toMatch(/coverage 9\d(\.\d)?%/);
    // No data-health map on this server: said so, and no sensor coverage beside the figures.
    expect(figure('dataFindings')).toContain('Not available: this server has no data-health map');
    expect(figure('production')).not.toContain('data health');
    // Browser mode: the PDF is the print dialog; the schedule needs the desktop app.
    expect(button(app.wrapper, 'Print').exists()).toBe(true);
    expect(text).toContain('Scheduled reports need the desktop app.');
  });

  test('a report that cannot be made says why, without an error screen', async () => {
    const app = await mount();
    app.routes.summaryConsumption = apiError(500, 'Database unavailable');
    await app.settle();
    await control(app.wrapper, 'Month of the report').setValue('March 2026');
    await button(app.wrapper, 'Make report').trigger('submit');
    await app.settle();
    expect(app.wrapper.text()).toMatch(/2 plants could not be read: (Roof, Barn|Barn, Roof)/);
  });
});

describe('ReportsView on a plant page', () => {
  test('makes that plant’s report with its days, without the fleet’s schedule', async () => {
    const app = await mountWithApp(ReportsView, {
      props: { plantUuid: ROOF },
      route: `/plants/${ROOF}/reports`,
      routes: {
        listPlants: page([plant(ROOF, 'Roof', 5), plant(BARN, 'Barn', 2)]),
        summaryProduction: week(1, 31, 10),
        summaryConsumption: week(1, 31, 4),
        historyProduction: marchHours(),
        getDataHealth: {
          plantUuid: ROOF,
          timezone: ZONE,
          evaluatedAt: '2026-06-21T10:00:00Z',
          from: '2026-03-01T00:00:00+01:00',
          to: '2026-04-01T00:00:00+02:00',
          days: [],
          sensors: [healthOf('PRODUCTION', 0.98, 3), healthOf('CONSUMPTION', 0.5, 0)],
        },
        getPlant: plant(ROOF, 'Roof', 5),
        pvHealth: apiError(403, 'Permission PLANT_HEALTH READ required'),
      },
      channels: { 'alerts.state': { alerts: [], mutes: [], settings: {} } },
    });
    await app.settle();
    await control(app.wrapper, 'Month of the report').setValue('March 2026');
    await button(app.wrapper, 'Make report').trigger('submit');
    await app.settle();
    const text = app.wrapper.text();
    expect(text).toContain('Roof: report for March 2026');
    expect(
      app.calls.some((call) => call.route === 'pvHealth' && call.input?.params?.plantUuid === BARN),
    ).toBe(false);
    // PV health not readable: its figures are not available, the energies are.
    expect(text).toContain('Not available');
    expect(app.wrapper.findAll('#report-days + table tbody tr')).toHaveLength(31);
    expect(text).not.toContain('Scheduled reports');
    // The data-health map's coverage beside each figure, and its findings.
    const figure = (key: string) => app.wrapper.find(`[data-figure="${key}"]`).text();
    expect(figure('production')).toContain('data health 98%');
    expect(figure('consumption')).toContain('data health 50%');
    expect(figure('dataFindings')).toContain(
      'gaps: 3, counter resets or drops: 1, frozen values: 0',
    );
    // Only March's days were answered: nothing before it to expect from.
    expect(figure('expectedConsumption')).toContain('Not enough history before the period');
  });
});
