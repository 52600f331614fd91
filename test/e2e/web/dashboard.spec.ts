import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { DateTime } from 'luxon';
import type {
  EnergyBreakdown,
  ForecastSeries,
  PvHealth,
  Series,
} from '../../../api/schemas/metrics.ts';
import { formatInZone } from '../../../renderer/src/charts/time.ts';
import {
  formatEnergy,
  formatPercent,
  formatPower,
  formatValue,
} from '../../../renderer/src/charts/units.ts';
import {
  currentPowerWindow,
  gridImportOf,
  latestSample,
  pointOfDay,
  selfShares,
} from '../../../renderer/src/components/dashboard/dashboardMath.ts';
import { ACCOUNTS, fillSignIn, openSignIn, rpc, screenshot } from '../support/shell.ts';
import { freePort, startServer, stopServer } from '../support/ownServer.ts';
import { expect, hostNow, test, type WebApp } from '../support/webApp.ts';

/**
 * The plant dashboard in browser mode, as the manager (read-only):
 * - against the Local sandbox, Demo Home's tiles and charts hold the API's own numbers (the same
 *   routes called through the host's `api.call`, compared with the tiles' unrounded values, their
 *   text, and the charts' accessible summaries), at a pinned night and a pinned noon: at night
 *   self-consumption is "—" with its reason, at noon the API's percentage;
 * - against a server of its own (a sandbox environment), stopping the server turns every card
 *   into its own error with Retry (none goes blank), and starting it again on the same port and
 *   database brings them back, by Retry and by the next refresh.
 * Screenshots of each state are attached.
 */

test.describe.configure({ mode: 'serial' });

const CARDS = 12;
const OUTAGE_ENVIRONMENT = 'Dashboard outage sandbox';
/** Enough history for the forecasts and the 7 days of PV health, and a quick first start. */
const HISTORY_DAYS = 10;
const HISTORY_ARGS = ['--history-days', String(HISTORY_DAYS)];

interface EnvironmentList {
  environments: { id: string; name: string }[];
  activeId: string;
}

/** A route of the API through the host, as the signed-in user. */
function api<T>(webApp: WebApp, route: string, input: unknown): Promise<T> {
  return rpc<T>(webApp, 'api.call', [route, input]);
}

async function demoHome(webApp: WebApp): Promise<{ plantUuid: string; zone: string }> {
  const plants = await api<{
    content: { plantUuid: string; name: string; location: { timezone: string } }[];
  }>(webApp, 'listPlants', { query: { search: 'Demo Home' } });
  const plant = plants.content.find((each) => each.name === 'Demo Home');
  expect(plant, 'Demo Home is listed').toBeDefined();
  return { plantUuid: plant!.plantUuid, zone: plant!.location.timezone };
}

function dashboard(page: Page): Locator {
  return page.getByRole('region', { name: 'Dashboard' });
}

function card(page: Page, title: string): Locator {
  return dashboard(page).getByRole('region', { name: title, exact: true });
}

/** Every card of the dashboard is in `state`. */
async function expectCards(page: Page, state: 'ready' | 'error', timeout = 30_000) {
  const cards = dashboard(page).locator('[data-state]');
  await expect(cards).toHaveCount(CARDS, { timeout });
  await expect(async () => {
    const states = await cards.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-state')),
    );
    expect(states).toEqual(Array.from({ length: CARDS }, () => state));
  }).toPass({ timeout });
}

async function openDashboard(page: Page, webApp: WebApp, plantUuid: string) {
  await page.goto(`${webApp.origin}/#/plants/${plantUuid}/dashboard`);
  await expect(dashboard(page)).toBeVisible();
}

async function chooseInterval(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Refresh every' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Refresh every' })).toHaveText(label);
}

/** The rows of a chart's text alternative (its hidden table): time, then one cell per series. */
function summaryRows(page: Page, chartName: string): Promise<string[][]> {
  return dashboard(page)
    .getByRole('table', { name: chartName })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.children].map((cell) => cell.textContent?.trim() ?? '')),
    );
}

function selfConsumptionTile(page: Page): Locator {
  return card(page, 'Self-consumption');
}

function tile(page: Page, name: string): Locator {
  return dashboard(page).locator(`[data-tile-value="${name}"]`);
}

/** The tile's unrounded value and its text equal `value` as the API gives it. */
async function expectTile(page: Page, name: string, value: number | null, text: string) {
  await expect(tile(page, name)).toHaveAttribute('data-value', value === null ? '' : String(value));
  await expect(tile(page, name)).toHaveText(text);
}

/**
 * The instants the comparison runs at, in Bolzano (Europe/Rome): a night on the day DST ends
 * (the second 02:30, after the clocks went back: a 25-hour day) and a noon on the day DST starts
 * (a 23-hour day). The host, its Local sandbox and the page all run on that clock.
 */
const MOMENTS = [
  { name: 'at night', clock: '2026-10-25T02:30:00+01:00', daylight: false },
  { name: 'at noon', clock: '2026-03-29T12:30:00+02:00', daylight: true },
] as const;

for (const moment of MOMENTS) {
  test.describe(`${moment.name} (${moment.clock})`, () => {
    test.use({ hostClock: moment.clock });

    test('Demo Home’s dashboard shows the API’s numbers, in the plant’s zone', async ({
      page,
      webApp,
    }, testInfo) => {
      await showsTheApiNumbers(page, webApp, testInfo, moment.daylight);
    });
  });
}

async function showsTheApiNumbers(
  page: Page,
  webApp: WebApp,
  testInfo: TestInfo,
  daylight: boolean,
) {
  await openSignIn(page, webApp);
  await fillSignIn(page, ACCOUNTS.manager);
  const { plantUuid, zone } = await demoHome(webApp);

  await openDashboard(page, webApp, plantUuid);
  await expect(dashboard(page).getByText(`Times in ${zone} (UTC`).first()).toBeVisible();
  await expectCards(page, 'ready', 60_000);
  // No refresh of its own between reading the screen and asking the API.
  await chooseInterval(page, '5 min');
  await expect(page.getByText(/^Last updated \d\d:\d\d:\d\d( [+-]\d\d:\d\d)?$/)).toBeVisible();
  await screenshot(page, testInfo, `01-dashboard-${daylight ? 'noon' : 'night'}`);

  // The simulator writes every minute: read the screen and the API within the same minute,
  // refreshing the screen until they are.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expectCards(page, 'ready');
    // The host's clock: the instant the host was started at, plus the time since.
    const now = await hostNow(webApp);
    const date = DateTime.fromMillis(now, { zone }).toISODate()!;
    const params = { plantUuid };
    const [dailyC, dailyP, hourlyC, hourlyP, breakdown, health] = await Promise.all([
      api<Series>(webApp, 'dailyConsumption', { params, query: { date } }),
      api<Series>(webApp, 'dailyProduction', { params, query: { date } }),
      api<Series>(webApp, 'hourlyConsumption', { params }),
      api<Series>(webApp, 'hourlyProduction', { params }),
      api<EnergyBreakdown>(webApp, 'energyBreakdown', {
        params,
        // There is no data after now: any end from the dashboard's load on asks the same.
        query: {
          startDate: `${date}T00:00`,
          endDate: DateTime.fromMillis(now, { zone }).toFormat("yyyy-MM-dd'T'HH:mm"),
        },
      }),
      api<PvHealth>(webApp, 'pvHealth', { params }),
    ]);

    // Tiles.
    const production = pointOfDay(dailyP, date)?.value ?? null;
    const consumption = pointOfDay(dailyC, date)?.value ?? null;
    await expectTile(page, 'production-today', production, formatEnergy(production));
    await expectTile(page, 'consumption-today', consumption, formatEnergy(consumption));
    const shares = selfShares({
      productionKwh: production,
      consumptionKwh: consumption,
      gridImportKwh: gridImportOf(breakdown),
    });
    if (daylight) {
      // Noon: the array has produced since sunrise, and the share is the API's numbers'.
      expect(production).toBeGreaterThan(0);
      expect(shares.selfConsumptionPercent).not.toBeNull();
      await expect(tile(page, 'self-consumption')).toHaveText(
        formatPercent(shares.selfConsumptionPercent),
      );
      await expect(selfConsumptionTile(page)).toContainText('Of production used on site.');
    } else {
      // Night: nothing produced since midnight, so no share, and the tile says why.
      expect(production ?? 0).toBe(0);
      expect(shares.selfConsumptionPercent).toBeNull();
      await expect(tile(page, 'self-consumption')).toHaveText('—');
      await expect(selfConsumptionTile(page)).toContainText('No production yet today.');
    }
    await expect(tile(page, 'self-consumption')).toHaveAttribute(
      'data-value',
      shares.selfConsumptionPercent === null ? '' : String(shares.selfConsumptionPercent),
    );
    await expect(tile(page, 'self-sufficiency')).toHaveAttribute(
      'data-value',
      shares.selfSufficiencyPercent === null ? '' : String(shares.selfSufficiencyPercent),
    );

    const window = currentPowerWindow(now, zone);
    const [powerC, powerP] = await Promise.all([
      api<Series>(webApp, 'historyConsumption', {
        params,
        query: { ...window, granularity: 'minutes' },
      }),
      api<Series>(webApp, 'historyProduction', {
        params,
        query: { ...window, granularity: 'minutes' },
      }),
    ]);
    const latestC = latestSample(powerC);
    const latestP = latestSample(powerP);
    await expectTile(page, 'power-consumption', latestC?.y ?? null, formatPower(latestC?.y));
    await expectTile(page, 'power-production', latestP?.y ?? null, formatPower(latestP?.y));

    // Charts: their text alternatives list the API's values at the API's local times.
    const rowsOf = (
      consumptionSeries: Series,
      productionSeries: Series,
      granularity: 'days' | 'hours',
    ) =>
      consumptionSeries.points.map((point, index) => [
        formatInZone(Date.parse(point.timestamp), zone, granularity),
        formatValue(point.value, consumptionSeries.unit),
        formatValue(productionSeries.points[index]!.value, productionSeries.unit),
      ]);
    expect(await summaryRows(page, 'Last 7 days: consumption and production in kWh')).toEqual(
      rowsOf(dailyC, dailyP, 'days'),
    );
    expect(await summaryRows(page, 'Last 24 hours: consumption and production in kWh')).toEqual(
      rowsOf(hourlyC, hourlyP, 'hours'),
    );

    // PV health and the breakdown.
    const pv = card(page, 'PV health');
    await expect(pv.locator('[data-pv="produced"]')).toHaveAttribute(
      'data-value',
      String(health.energyProducedKwh),
    );
    await expect(pv.locator('[data-pv="performance"]')).toHaveAttribute(
      'data-value',
      String(health.performancePercent ?? ''),
    );
    const loads = await card(page, 'Energy breakdown')
      .locator('[data-breakdown="loads"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.querySelector('th')?.childNodes[0]?.textContent?.trim() ?? '',
          ...[...row.querySelectorAll('td[data-value]')].map((cell) =>
            cell.getAttribute('data-value'),
          ),
        ]),
      );
    expect(loads).toEqual(
      breakdown.loads.map((share) => [
        share.name,
        String(share.energyKwh),
        String(share.percentage),
      ]),
    );
    expect(loads.map((row) => row[0])).toContain('Unmeasured');
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000, 5_000] });

  // The forecasts: 48 hours and their 80 % band, the API's extremes in the summary.
  const forecast = await api<ForecastSeries>(webApp, 'predictProduction', {
    params: { plantUuid },
    query: { hours: 48 },
  });
  expect(forecast.points).toHaveLength(48);
  const highest = forecast.points.reduce((best, point) =>
    point.value > best.value ? point : best,
  );
  await expect(card(page, 'Production forecast')).toContainText('Next 48 hours');
  await expect(
    card(page, 'Production forecast').getByText(
      `highest ${formatValue(highest.value, forecast.unit)} at ${formatInZone(Date.parse(highest.timestamp), zone, 'hours')}`,
    ),
  ).toHaveCount(1);
  await screenshot(page, testInfo, `02-dashboard-compared-${daylight ? 'noon' : 'night'}`);
}

// ── A stopped server ─────────────────────────────────────────────────────────────────────────

interface OwnServer {
  port: number;
  dbFile: string;
  child: ChildProcess;
}

let own: OwnServer | undefined;
let ownDir: string | undefined;

async function removeOutageEnvironment(webApp: WebApp) {
  const list = await rpc<EnvironmentList>(webApp, 'environments.list');
  for (const environment of list.environments) {
    if (environment.name !== OUTAGE_ENVIRONMENT) continue;
    await rpc(webApp, 'environments.select', [environment.id]);
    await rpc(webApp, 'session.signOut');
    await rpc(webApp, 'environments.select', ['local']);
    await rpc(webApp, 'environments.remove', [environment.id]);
  }
}

test.afterAll(async ({ hosts }) => {
  const webApp = await hosts.get();
  await removeOutageEnvironment(webApp);
  await rpc(webApp, 'environments.select', ['local']);
  await rpc(webApp, 'session.signOut');
  if (own) await stopServer(own.child);
  if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
});

test('a stopped server shows each card’s error, and the dashboard recovers when it is back', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(240_000);
  await removeOutageEnvironment(webApp);
  ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-dashboard-outage-'));
  const port = await freePort();
  const dbFile = path.join(ownDir, 'plantdesk.db');
  own = { port, dbFile, child: await startServer({ port, dbFile, args: HISTORY_ARGS }) };

  const added = await rpc<{ id: string }>(webApp, 'environments.add', [
    { name: OUTAGE_ENVIRONMENT, kind: 'sandbox', baseUrl: `http://127.0.0.1:${port}` },
  ]);
  await rpc(webApp, 'environments.select', [added.id]);

  await page.goto(webApp.url);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Environment' })).toHaveText(OUTAGE_ENVIRONMENT);
  await fillSignIn(page, ACCOUNTS.manager);
  const { plantUuid } = await demoHome(webApp);

  await openDashboard(page, webApp, plantUuid);
  await expectCards(page, 'ready', 60_000);
  // No timer in the way while the outage is looked at; the recovery comes from a 10 s timer.
  await chooseInterval(page, '5 min');
  await screenshot(page, testInfo, '03-own-server-dashboard');

  // The server stops: the refresh fails card by card, each with its reason and Retry.
  await stopServer(own.child);
  await page.getByRole('button', { name: 'Refresh now' }).click();
  await expectCards(page, 'error');
  const cards = dashboard(page).locator('[data-state]');
  for (let index = 0; index < CARDS; index++) {
    const one = cards.nth(index);
    await expect(one.getByRole('heading')).not.toHaveText('');
    await expect(one.getByRole('alert')).not.toHaveText('');
    await expect(one.getByRole('button', { name: 'Retry' })).toBeVisible();
  }
  await expect(dashboard(page).getByText(/12 cards could not be updated/)).toBeVisible();
  await screenshot(page, testInfo, '04-server-stopped');

  // Back on the same port and database: one card's Retry brings that card back, alone…
  own.child = await startServer({ port, dbFile, args: HISTORY_ARGS });
  const health = card(page, 'PV health');
  await health.getByRole('button', { name: 'Retry' }).click();
  await expect(health).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(health.getByRole('alert')).toHaveCount(0);
  await expect(card(page, 'Last 7 days')).toHaveAttribute('data-state', 'error');
  await expect(dashboard(page).getByText(/11 cards could not be updated/)).toBeVisible();
  await screenshot(page, testInfo, '05-one-card-retried');

  // …and the live refresh brings back the rest, without Retry or "Refresh now".
  await chooseInterval(page, '10 s');
  await expectCards(page, 'ready', 40_000);
  await expect(dashboard(page).getByText(/could not be updated/)).toHaveCount(0);
  await screenshot(page, testInfo, '06-server-back');
});
