// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import App from '../../../renderer/src/App.vue';
import { useLanguageStore } from '../../../renderer/src/stores/useLanguageStore.ts';
import ReportPrintView from '../../../renderer/src/views/ReportPrintView.vue';
import ReportsView from '../../../renderer/src/views/ReportsView.vue';
import { apiError, mountWithApp, page, type MountedApp } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';
import { ALERT, BARN, marchHours, marchRoutes, plant, ROOF, week } from './reportFixtures.ts';

const TOKEN = '0f0e0d0c-0b0a-4909-8807-060504030201';
const printRoute = (scope: string, period = '2026-03') =>
  `/reports/print?period=${period}&scope=${scope}&token=${TOKEN}`;

const CHANNELS = {
  'alerts.state': { alerts: [ALERT], mutes: [], settings: {} },
  'reports.printReady': () => undefined,
};

/** The printed document's text without the line of when it was made (the clock's, not the data's). */
function documentText(app: MountedApp): string {
  const article = app.wrapper.find('article.period-report');
  expect(article.exists()).toBe(true);
  return article.text().replace(article.find('.meta').text(), '');
}

const readySignals = (app: MountedApp) =>
  app.calls.filter((call) => call.channel === 'reports.printReady').map((call) => call.args[0]);

describe('ReportPrintView (the desktop app’s print window)', () => {
  test('draws the fleet report the screen draws, same numbers, then tells the host it is ready', async () => {
    const screen = await mountWithApp(ReportsView, {
      route: '/reports',
      routes: marchRoutes(),
      channels: { ...CHANNELS, 'reports.schedule': apiError(404, 'none') },
    });
    await screen.settle();
    await control(screen.wrapper, 'Month of the report').setValue('March 2026');
    await button(screen.wrapper, 'Make report').trigger('submit');
    await screen.settle();

    const printed = await mountWithApp(ReportPrintView, {
      route: printRoute('fleet'),
      routes: marchRoutes(),
      channels: CHANNELS,
    });
    await printed.settle();
    await printed.settle();

    const text = documentText(printed);
    expect(text).toContain('All plants (fleet): report for March 2026');
    expect(text).toContain('310 kWh');
    expect(text).toContain('Grid meter silent for 2 h');
    expect(printed.wrapper.findAll('#report-ranking + table tbody tr')[0]!.text()).toContain('62');
    expect(text).toBe(documentText(screen));
    // Only the document: no form, no buttons, nothing else to print.
    expect(printed.wrapper.findAll('button')).toHaveLength(0);
    expect(readySignals(printed)).toEqual([{ token: TOKEN, ok: true }]);
  });

  test('draws one plant’s report with its days, as on the plant’s page', async () => {
    const printed = await mountWithApp(ReportPrintView, {
      route: printRoute(ROOF),
      routes: {
        listPlants: page([plant(ROOF, 'Roof', 5), plant(BARN, 'Barn', 2)]),
        getPlant: plant(ROOF, 'Roof', 5),
        summaryProduction: week(1, 31, 10),
        summaryConsumption: week(1, 31, 4),
        historyProduction: marchHours(),
        getDataHealth: apiError(404, 'No route for GET /plants/{plantUuid}/data-health'),
        pvHealth: apiError(403, 'Permission PLANT_HEALTH READ required'),
      },
      channels: CHANNELS,
    });
    await printed.settle();
    await printed.settle();
    expect(documentText(printed)).toContain('Roof: report for March 2026');
    expect(printed.wrapper.findAll('#report-days + table tbody tr')).toHaveLength(31);
    expect(readySignals(printed)).toEqual([{ token: TOKEN, ok: true }]);
  });

  test('a report that cannot be made is not printed: the host is told why', async () => {
    const routes = { ...marchRoutes(), summaryConsumption: apiError(500, 'Database unavailable') };
    const printed = await mountWithApp(ReportPrintView, {
      route: printRoute('fleet'),
      routes,
      channels: CHANNELS,
    });
    await printed.settle();
    await printed.settle();
    const [signal] = readySignals(printed) as { ok: boolean; message: string }[];
    expect(signal).toMatchObject({ token: TOKEN, ok: false });
    expect(signal!.message).toMatch(/2 plants could not be read/);
    expect(printed.wrapper.find('[role="alert"]').text()).toBe(signal!.message);
  });

  test('an address that names no report says so and signals nothing', async () => {
    const printed = await mountWithApp(ReportPrintView, {
      route: '/reports/print?period=2026-13&scope=fleet',
      routes: marchRoutes(),
      channels: CHANNELS,
    });
    await printed.settle();
    expect(printed.wrapper.text()).toContain('This print address names no report.');
    expect(readySignals(printed)).toEqual([]);
  });

  test('is drawn in the user’s language', async () => {
    const printed = await mountWithApp(ReportPrintView, {
      route: printRoute('fleet'),
      routes: marchRoutes(),
      channels: CHANNELS,
    });
    useLanguageStore().start({ host: 'electron', language: { chosen: 'de', system: 'en' } });
    await printed.settle();
    await printed.settle();
    expect(documentText(printed)).toContain('Alle Anlagen (Flotte): Bericht für März 2026');
  });

  test('has no shell around it: no top bar, no notices, only the page', async () => {
    const shell = await mountWithApp(App, {
      route: printRoute('fleet'),
      environment: { id: 'acme', name: 'Acme', kind: 'production' },
      routes: marchRoutes(),
      channels: CHANNELS,
    });
    await shell.settle();
    expect(shell.wrapper.text()).not.toContain('PRODUCTION');
    expect(shell.wrapper.find('header').exists()).toBe(false);
    expect(shell.wrapper.findAll('main')).toHaveLength(1);
  });
});
