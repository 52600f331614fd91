import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { startWebHost, type WebHost } from '../../../scripts/webHost.ts';
import { ACCOUNTS, api, fillSignIn, openSignIn, rpc, screenshot } from '../support/shell.ts';
import { SUMMARY_MAX_AGE_MS } from '../../../server/features/fleet/summaryCache.ts';
import { freePort, startServer, stopServer } from '../support/ownServer.ts';
import { expect, hostNow } from '../support/webApp.ts';

/**
 * Fleet monitoring in browser mode, at noon in Rome on 2 July (the simulated weather is the same
 * at every run), with the demo fleet and its faults in the Local sandbox and alerts opening at
 * the first check (`--immediate-alerts`):
 * - every injected fault shows as its alert on the alerts screen, with its reason, and on the
 *   fleet screen beside its plant; one is acknowledged, with a note;
 * - the same fleet screen against a server started without the extension routes is assembled
 *   plant by plant from the specification's routes, says so, and shows the same figures.
 */

const CLOCK = '2026-07-02T12:00:00+02:00';
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no test-scoped fixtures.
const test = base.extend<{}, { webApp: WebHost }>({
  // One host for the file: its Local sandbox (and its background history) and its monitor are
  // what is tested.
  webApp: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, use) => {
      const host = await startWebHost('plantdesk-fleet-', { clock: CLOCK, immediateAlerts: true });
      try {
        await use(host);
      } finally {
        await host.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});
test.describe.configure({ mode: 'serial', timeout: 240_000 });

/** The alert each fault of the demo fleet raises. */
const EXPECTED_ALERTS: readonly { plant: string; rule: string; reason: RegExp }[] = [
  { plant: 'Berlin Dachhaus', rule: 'No production', reason: /No production since 10:3\d/ },
  { plant: 'Madrid Casa Solar', rule: 'PV health', reason: /PV health over the last 7 days/ },
  { plant: 'London Terrace', rule: 'Grid meter sign', reason: /current transformer/ },
  { plant: 'Kathmandu Guesthouse', rule: 'Meter units', reason: /kW where W is expected/ },
  { plant: 'Milano Capannone', rule: 'Sensor silent', reason: /no reading since (10:59|11:0\d)/ },
  { plant: 'München Bauernhof', rule: 'Battery charge stuck', reason: /state of charge/ },
  { plant: 'Valencia Apartamentos', rule: 'Above clear sky', reason: /clear sky allows/ },
];

async function signInAt(page: Page, webApp: WebHost) {
  await page.clock.install({ time: await hostNow(webApp) });
  await rpc(webApp, 'session.signOut');
  await openSignIn(page, webApp);
  await fillSignIn(page, ACCOUNTS.manager);
}

/**
 * Waits until the plant's row shows `status`, refreshing the screen meanwhile: the older history
 * (PV health's 7 days) is written in the background after a server's first start.
 */
async function untilStatus(page: Page, plant: string, status: string) {
  const row = page
    .getByRole('table', { name: 'Fleet' })
    .getByRole('row')
    .filter({ hasText: plant });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toContainText(status, { timeout: 5_000 });
  }).toPass({ timeout: 180_000, intervals: [5_000] });
  return row;
}

/** Until the plant's PV health (7 full local days) rests on readings of every day. */
async function untilHistoryComplete(page: Page, plant: string): Promise<void> {
  const plants = await api<{ content: { plantUuid: string; name: string }[] }>(page, 'listPlants', {
    query: { search: plant },
  });
  const plantUuid = plants.content.find((each) => each.name === plant)!.plantUuid;
  await expect(async () => {
    const health = await api<{ indicators: { code: string }[] }>(page, 'pvHealth', {
      params: { plantUuid },
    });
    expect(health.indicators.map((indicator) => indicator.code)).not.toContain('DATA_GAPS');
  }).toPass({ timeout: 180_000, intervals: [2_000] });
}

const alertRow = (page: Page, plant: string, rule: string) =>
  page
    .getByRole('table', { name: 'Alerts' })
    .getByRole('row')
    .filter({ hasText: plant })
    .filter({ hasText: rule });

test('each injected fault appears as its alert, with its reason, on the alerts and fleet screens', async ({
  page,
  webApp,
}, testInfo) => {
  await signInAt(page, webApp);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Alerts' })
    .click();
  await expect(page.getByRole('heading', { name: 'Alerts' })).toBeVisible();

  // The older history (PV health's 7 days, the stuck gauge's day) is written in the background:
  // check again until every alert is there.
  await expect(async () => {
    await page.getByRole('button', { name: 'Check now' }).click();
    for (const expected of EXPECTED_ALERTS) {
      await expect(alertRow(page, expected.plant, expected.rule)).toBeVisible({ timeout: 2_000 });
    }
  }).toPass({ timeout: 150_000, intervals: [3_000] });
  for (const expected of EXPECTED_ALERTS) {
    await expect(alertRow(page, expected.plant, expected.rule)).toContainText(expected.reason);
  }
  await screenshot(page, testInfo, '01-alerts');

  // Acknowledge one, with a note: who, and the note, show in its row.
  await page.getByRole('button', { name: 'Acknowledge No production at Berlin Dachhaus' }).click();
  const dialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
  await dialog.getByLabel('Note (optional)').fill('Installer on the way');
  await dialog.getByRole('button', { name: 'Acknowledge' }).click();
  const berlin = alertRow(page, 'Berlin Dachhaus', 'No production');
  await expect(berlin).toContainText('By manager@plantdesk.test');
  await expect(berlin).toContainText('Installer on the way');
  await expect(
    page.getByRole('button', { name: 'Acknowledge No production at Berlin Dachhaus' }),
  ).toHaveCount(0);

  // The evidence: the history chart of the plant, around the time production stopped.
  await berlin.getByRole('link', { name: 'Show the evidence' }).click();
  await expect(page).toHaveURL(/analytics\/history\?start=2026-07-02T/);

  // The fleet screen: each plant's open alert beside it, and the summary above.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet' }).click();
  const table = page.getByRole('table', { name: 'Fleet' });
  for (const expected of EXPECTED_ALERTS) {
    const row = table.getByRole('row').filter({ hasText: expected.plant });
    await expect(row).toContainText(expected.reason);
    await expect(
      row.getByRole('link', { name: new RegExp(`\\d+ open alerts of ${expected.plant}`) }),
    ).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'Fleet summary' })).toContainText('Open alerts');
  await untilStatus(page, 'Madrid Casa Solar', 'Degraded');
  await screenshot(page, testInfo, '02-fleet');
});

test.describe('against a server with only the specification’s routes', () => {
  let server: ChildProcess | undefined;
  let port = 0;
  let dbDir = '';

  test.beforeAll(async () => {
    port = await freePort();
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-spec-only-'));
    server = await startServer({
      port,
      dbFile: path.join(dbDir, 'plantdesk.db'),
      args: ['--no-extensions', '--clock', CLOCK],
    });
  });
  test.afterAll(async () => {
    if (server) await stopServer(server);
    fs.rmSync(dbDir, { recursive: true, force: true });
  });

  test('the fleet screen assembles the same figures plant by plant, and says so', async ({
    page,
    webApp,
  }, testInfo) => {
    // Two histories written in the background and a summary's minute of age to wait out.
    test.setTimeout(420_000);
    // The Local sandbox (with the extension) first: Madrid's figures of full past days.
    await signInAt(page, webApp);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Fleet' })
      .click();
    const madridRow = await untilStatus(page, 'Madrid Casa Solar', 'Degraded');
    // Degraded shows before the background history has reached all 7 days (with DATA_GAPS, on
    // fewer days' energy): the figure to compare is that of the complete history.
    await untilHistoryComplete(page, 'Madrid Casa Solar');
    // A plant's summary is computed again only once it is older than SUMMARY_MAX_AGE_MS (by the
    // server's clock, which runs on from CLOCK): the complete history's figure is the one
    // answered after that age has passed since the history was complete.
    await new Promise((resolve) => setTimeout(resolve, SUMMARY_MAX_AGE_MS + 1_000));
    const summaries = await api<{
      content: { name: string; specificYield7DaysKwhPerKwp: number | null }[];
    }>(page, 'listPlantSummaries', { query: { search: 'Madrid Casa Solar' } });
    const complete = summaries.content.find((each) => each.name === 'Madrid Casa Solar')!;
    const withExtension = `${complete.specificYield7DaysKwhPerKwp!.toFixed(2)} kWh/kWp`;
    const refresh = page.getByRole('button', { name: 'Refresh' });
    const yieldCell = madridRow.getByRole('cell').nth(7);
    await expect(async () => {
      await refresh.click();
      await expect(yieldCell).toHaveText(withExtension, { timeout: 5_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });

    const environment = await rpc<{ id: string }>(webApp, 'environments.add', [
      { name: 'Spec-only sandbox', kind: 'sandbox', baseUrl: `http://127.0.0.1:${port}` },
    ]);
    await rpc(webApp, 'environments.select', [environment.id]);
    await page.goto(webApp.url);
    await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
    await fillSignIn(page, ACCOUNTS.manager);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Fleet' })
      .click();
    await expect(page.getByText('figures are assembled plant by plant')).toBeVisible();
    // Its own history is written in the background too: the same figures once it is complete.
    await untilStatus(page, 'Madrid Casa Solar', 'Degraded');
    await untilStatus(page, 'Madrid Casa Solar', withExtension);
    await screenshot(page, testInfo, '03-fleet-spec-only');
  });
});
