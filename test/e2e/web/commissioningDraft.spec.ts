import type { Locator, Page } from '@playwright/test';
import { startWebHost, type WebHost } from '../../../scripts/webHost.ts';
import { startCuttingProxy, type CuttingProxy } from '../support/cuttingProxy.ts';
import { ACCOUNTS, api, choose, fillSignIn, rpc, screenshot } from '../support/shell.ts';
import { expect, test as base } from '../support/webApp.ts';

/**
 * The scenario, in browser mode, as support staff and the installer: the Local sandbox is
 * stopped from the Environments screen, the wizard keeps the plant, its sensors and devices in a
 * local draft (marked as not sent, the verification waiting, the report watermarked "Not
 * verified"); the app is restarted (the web host stopped and started again on its data folder)
 * and the sandbox stays stopped until started; the first send is cut halfway (the first device is
 * created on the server but its answer never arrives), the second goes on from there, and the
 * server holds the plant, its sensors and devices exactly once.
 *
 * The host of this spec is its own: started with `--local-sandbox-relay`, so that the Local
 * environment's address is a relay of the test's (test/e2e/support/cuttingProxy.ts) in front of
 * the sandbox, which can cut a request. Its clock and the page's are pinned to the same instant.
 */

const CLOCK = '2026-06-21T12:00:00+02:00';
const SANDBOX_START_MS = 60_000;

let relay: CuttingProxy | undefined;
let host: WebHost | undefined;

const launch = (dataDir?: string) =>
  startWebHost('plantdesk-e2e-draft-', {
    clock: CLOCK,
    demoFleet: 0,
    dataDir,
    localSandboxRelay: `http://127.0.0.1:${relay!.port}`,
  });

const test = base.extend({
  hostClock: CLOCK,
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
  webApp: async ({}, use) => {
    // Pointed at the sandbox once it runs (its port changes at every start).
    relay = await startCuttingProxy(0);
    host = await launch();
    await use(host);
    await host.stop();
    await relay.close();
  },
});

/** The relay forwards to wherever the Local sandbox listens now. */
async function followSandbox(webApp: WebHost): Promise<void> {
  const state = await rpc<{ url?: string }>(webApp, 'localSandbox.state');
  relay!.retarget(Number(new URL(state.url!).port));
}

const stepHeading = (page: Page, text: string) =>
  page.getByRole('heading', { level: 2, name: text });

async function addSensor(page: Page, name: string, flow: string, address: string): Promise<void> {
  await page.getByRole('button', { name: 'Add sensor' }).click();
  const form: Locator = page.getByRole('form', { name: 'New sensor (draft)' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await choose(page, 'Sensor type', 'Power meter');
  await choose(page, 'Flow', flow);
  await form.getByLabel('Connection address').fill(address);
  await expect(form.getByRole('combobox', { name: 'Connection vendor' })).toContainText(
    'PlantDesk simulator',
  );
  await form.getByRole('button', { name: 'Keep in the draft' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText(address);
}

async function addDevice(page: Page, type: string, serial: string, sensor: string): Promise<void> {
  await page.getByRole('button', { name: 'Add device' }).click();
  const form = page.getByRole('form', { name: 'New device (draft)' });
  await choose(page, 'Device type', type);
  await form.getByLabel('Serial number').fill(serial);
  await form.getByRole('checkbox', { name: sensor }).check();
  await form.getByRole('button', { name: 'Keep in the draft' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: serial })).toContainText(sensor);
}

test('commissions with the Local sandbox stopped, restarts the app, starts the sandbox and sends the draft exactly once after an interrupted send', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(180_000);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const sandboxState = page.getByRole('status').filter({ hasText: 'Local sandbox:' });

  await page.goto(webApp.url);
  await expect(sandboxState).toContainText('Running', { timeout: SANDBOX_START_MS });
  await followSandbox(host!);
  await fillSignIn(page, ACCOUNTS.installer);
  await nav.getByRole('link', { name: 'Commissioning' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Drafts' })).toBeVisible();
  // Connected, the catalogs the draft's forms need are read and kept.
  await page.waitForFunction(() =>
    Object.keys(localStorage).some((key) => key.startsWith('plantdesk.draftCatalogs.')),
  );

  // ── Support staff stop the Local sandbox ─────────────────────────────────────────────────
  await nav.getByRole('link', { name: 'Environments' }).click();
  await page.getByRole('button', { name: 'Stop the Local sandbox' }).click();
  await expect(sandboxState).toContainText('Local sandbox: Stopped');
  await expect(page.getByRole('button', { name: 'Start the Local sandbox' })).toBeVisible();
  await screenshot(page, testInfo, '01-sandbox-stopped');

  // ── The wizard falls into a draft ────────────────────────────────────────────────────────
  await nav.getByRole('link', { name: 'Commissioning' }).click();
  await expect(page.getByText('Local sandbox cannot be reached')).toBeVisible();
  await page.getByRole('link', { name: 'Start a draft' }).click();
  await expect(page.getByText('Draft — not yet sent to Local sandbox')).toBeVisible();

  const suffix = Date.now().toString(36);
  const plantName = `E2E draft ${suffix}`;
  const plantForm = page.getByRole('form', { name: 'New plant (draft)' });
  await plantForm.getByLabel('Name', { exact: true }).fill(plantName);
  await plantForm.getByLabel('Latitude').fill('45.0703');
  await plantForm.getByLabel('Longitude').fill('7.6869');
  await plantForm.getByRole('combobox', { name: 'Time zone' }).click();
  await page.getByRole('searchbox', { name: 'Search time zones' }).fill('Rome');
  await page.getByRole('option', { name: /^Europe\/Rome/ }).click();
  await plantForm.getByLabel('The plant has photovoltaic panels').check();
  await plantForm.getByLabel('Peak power (kWp)').fill('6');
  await plantForm.getByRole('button', { name: 'Start the draft' }).click();

  await expect(stepHeading(page, 'Step 2 of 6: Sensors')).toBeVisible();
  await addSensor(page, 'PV output', 'Production', `sim://${suffix}/pv`);
  await addSensor(page, 'Grid connection', 'Grid (+ import, − export)', `sim://${suffix}/grid`);
  await expect(page.getByRole('row').filter({ hasText: 'PV output' })).toContainText(
    'Waits for the connection',
  );
  await page.getByRole('button', { name: 'Next: Devices' }).click();
  await addDevice(page, 'PV inverter', `INV-${suffix}`, 'PV output');
  await addDevice(page, 'Grid meter', `MTR-${suffix}`, 'Grid connection');
  await screenshot(page, testInfo, '02-draft-devices');
  await page.getByRole('button', { name: 'Next: Vendor integrations' }).click();
  await page.getByRole('button', { name: 'Next: Verification' }).click();
  await expect(page.getByText('The verification waits for the connection')).toBeVisible();
  await page.getByRole('button', { name: 'Next: Report' }).click();
  const report = page.locator('.commissioning-report');
  await expect(report.locator('.watermark')).toHaveText('Not verified');

  // ── The app is restarted: the sandbox stays stopped until started ───────────────────────
  await host!.stop({ keepData: true });
  host = await launch(webApp.dataDir);
  await page.goto(host.url);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(sandboxState).toContainText('Local sandbox: Stopped');
  await page.getByRole('button', { name: 'Start the Local sandbox' }).click();
  await expect(sandboxState).toContainText('Local sandbox: Running', {
    timeout: SANDBOX_START_MS,
  });
  await followSandbox(host);
  await fillSignIn(page, ACCOUNTS.installer);
  await nav.getByRole('link', { name: 'Commissioning' }).click();
  const row = page.getByRole('row').filter({ hasText: plantName });
  await expect(row).toContainText('Not sent');
  await expect(row).toContainText('2 sensors, 2 devices');

  // ── The first send is cut after the first device was created ────────────────────────────
  relay!.cutAfter((method, url) => method === 'POST' && /\/devices(\?|$)/.test(url));
  await page.getByRole('button', { name: `Send draft ${plantName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Send draft ${plantName}` });
  await dialog.getByRole('button', { name: 'Send the draft' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Interrupted', { timeout: 30_000 });
  expect(relay!.cuts()).toBe(1);
  await screenshot(page, testInfo, '03-send-interrupted');

  await dialog.getByRole('button', { name: 'Send again' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Sent: the server holds the whole draft', {
    timeout: 30_000,
  });
  // The send reached the server: nothing says it cannot be reached any more.
  await expect(page.getByText('Cannot reach Local sandbox')).toBeHidden();
  await screenshot(page, testInfo, '04-sent');
  await dialog.getByRole('button', { name: 'Continue with the verification' }).click();
  await expect(stepHeading(page, 'Step 5 of 6: Verification')).toBeVisible();
  const plantUuid = /#\/commission\/([0-9a-f-]{36})\/verification$/.exec(page.url())?.[1];
  expect(plantUuid).toBeDefined();

  // ── The server holds everything exactly once ─────────────────────────────────────────────
  const plants = await api<{ content: { plantUuid: string; name: string }[] }>(page, 'listPlants', {
    query: { page: 0, size: 100 },
  });
  expect(plants.content.filter((plant) => plant.name === plantName)).toEqual([
    expect.objectContaining({ plantUuid }),
  ]);
  const sensors = await api<{ content: { name: string; deviceUuid: string | null }[] }>(
    page,
    'listSensors',
    { params: { plantUuid }, query: { page: 0, size: 100 } },
  );
  expect(sensors.content.map((sensor) => sensor.name).sort()).toEqual([
    'Grid connection',
    'PV output',
  ]);
  expect(sensors.content.every((sensor) => sensor.deviceUuid !== null)).toBe(true);
  const devices = await api<{ content: { serialNumber: string | null }[] }>(page, 'listDevices', {
    params: { plantUuid },
    query: { page: 0, size: 100 },
  });
  expect(devices.content.map((device) => device.serialNumber).sort()).toEqual([
    `INV-${suffix}`,
    `MTR-${suffix}`,
  ]);
});
