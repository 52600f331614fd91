// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import App from '../../../renderer/src/App.vue';
import { useLanguageStore } from '../../../renderer/src/stores/useLanguageStore.ts';
import ReportPrintView from '../../../renderer/src/views/ReportPrintView.vue';
import ReportsView from '../../../renderer/src/views/ReportsView.vue';
import type { PreparedReport } from '../../../electron/ipc/contract.ts';
import { apiError, mountWithApp, page, type MountedApp } from '../support/mountWithApp.ts';
import { button, control } from '../support/queries.ts';
import {
  ALERT,
  BARN,
  marchHours,
  marchRoutes,
  plant,
  preparedFrom,
  ROOF,
  week,
} from './reportFixtures.ts';

const TOKEN = '0f0e0d0c-0b0a-4909-8807-060504030201';
const printRoute = (scope: string, period = '2026-03') =>
  `/reports/print?period=${period}&scope=${scope}&token=${TOKEN}`;

const MARCH = { kind: 'month', year: 2026, month: 3 } as const;

const CHANNELS = {
  'alerts.state': { alerts: [ALERT], mutes: [], settings: {} },
  'reports.printReady': () => undefined,
};

/** The desktop app's host; the tests' default is browser mode. */
const ELECTRON = {
  name: 'PlantDesk',
  version: '0.0.0-test',
  host: 'electron',
  keychain: { available: true },
  now: Date.parse('2026-06-21T10:00:00Z'),
  language: { chosen: null, system: 'en' },
};

/** The print window as the desktop host opens it: its report handed over for its token, no API. */
function mountPrint(route: string, prepared: PreparedReport) {
  return mountWithApp(ReportPrintView, {
    route,
    routes: {},
    channels: {
      ...CHANNELS,
      'app.info': ELECTRON,
      'reports.preparedReport': ([request]: [{ token: string }]) =>
        request.token === TOKEN
          ? prepared
          : { kind: 'invalidArguments', message: 'No report is waiting to be printed' },
    },
  });
}

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

    const printed = await mountPrint(
      printRoute('fleet'),
      await preparedFrom(marchRoutes(), 'fleet', MARCH, [ALERT]),
    );
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
    // Drawn from the host's report alone: it asked for it by its token and read no API.
    expect(printed.calls.map((call) => call.channel)).toEqual([
      'app.info',
      'reports.preparedReport',
      'reports.printReady',
    ]);
    expect(printed.calls[1]!.args).toEqual([{ token: TOKEN }]);
    // When it was made is the host's: the same time as its CSVs.
    expect(printed.wrapper.find('.meta').text()).toContain('Apr 1, 2026');
  });

  test('draws one plant’s report with its days, as on the plant’s page', async () => {
    const routes = {
      listPlants: page([plant(ROOF, 'Roof', 5), plant(BARN, 'Barn', 2)]),
      getPlant: plant(ROOF, 'Roof', 5),
      summaryProduction: week(1, 31, 10),
      summaryConsumption: week(1, 31, 4),
      historyProduction: marchHours(),
      getDataHealth: apiError(404, 'No route for GET /plants/{plantUuid}/data-health'),
      pvHealth: apiError(403, 'Permission PLANT_HEALTH READ required'),
    };
    const printed = await mountPrint(printRoute(ROOF), await preparedFrom(routes, ROOF, MARCH));
    await printed.settle();
    await printed.settle();
    expect(documentText(printed)).toContain('Roof: report for March 2026');
    expect(printed.wrapper.findAll('#report-days + table tbody tr')).toHaveLength(31);
    expect(readySignals(printed)).toEqual([{ token: TOKEN, ok: true }]);
  });

  test('without a report handed over (not this token) nothing is printed: the host is told why', async () => {
    const prepared = await preparedFrom(marchRoutes(), 'fleet', MARCH);
    const other = '99999999-9999-4999-8999-999999999999';
    const printed = await mountPrint(printRoute('fleet').replace(TOKEN, other), prepared);
    await printed.settle();
    await printed.settle();
    const [signal] = readySignals(printed) as { ok: boolean; message: string }[];
    expect(signal).toMatchObject({ token: other, ok: false });
    expect(signal!.message).toMatch(/could not be made: No report is waiting to be printed/);
    expect(printed.wrapper.find('[role="alert"]').text()).toBe(signal!.message);
    expect(printed.wrapper.find('article.period-report').exists()).toBe(false);
    expect(printed.calls.some((call) => call.route !== undefined)).toBe(false);
  });

  test('in browser mode (no host makes reports) the route makes its report from the API', async () => {
    const printed = await mountWithApp(ReportPrintView, {
      route: printRoute('fleet'),
      routes: marchRoutes(),
      channels: CHANNELS,
    });
    await printed.settle();
    await printed.settle();
    expect(documentText(printed)).toContain('All plants (fleet): report for March 2026');
    expect(printed.calls.some((call) => call.channel === 'reports.preparedReport')).toBe(false);
    expect(printed.callsTo('pvHealth')).toHaveLength(2);
  });

  test('in browser mode a report that cannot be made is not drawn: the page says why', async () => {
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
    const printed = await mountPrint(
      printRoute('fleet'),
      await preparedFrom(marchRoutes(), 'fleet', MARCH, [ALERT]),
    );
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
