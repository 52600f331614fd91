import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ACCOUNTS, api, choose, fillSignIn, rpc, screenshot } from '../support/shell.ts';
import { startCuttingProxy, type CuttingProxy } from '../support/cuttingProxy.ts';
import { freePort, startServer, stopServer } from '../support/ownServer.ts';
import { expect, test, type WebApp } from '../support/webApp.ts';

/**
 * Commissioning without a connection, in browser mode, as the installer: the server is stopped,
 * the wizard keeps the plant, its sensors and devices in a local draft (marked as not sent, the
 * verification waiting, the report watermarked "Not verified"); the app is reloaded (browser
 * mode's restart) and the draft is still there; the server comes back, the first send is cut
 * halfway (the first device is created on the server but its answer never arrives), the second
 * goes on from there, and the server holds the plant, its sensors and devices exactly once.
 *
 * The Local sandbox cannot be stopped and started again from outside (the host restarts it on
 * another port when it dies), so the environment is a sandbox of the test's own: a server on a
 * fixed port and database behind a relay that can cut a request (test/e2e/support), as the
 * session-expiry spec does. Its clock and the page's are pinned to the same instant.
 */

test.describe.configure({ mode: 'serial' });

const CLOCK = '2026-06-21T12:00:00+02:00';
test.use({ hostClock: CLOCK });

const ENVIRONMENT = 'Drafts sandbox';
const SERVER_ARGS = ['--clock', CLOCK, '--history-days', '1', '--demo-fleet', '0'];
const SERVER_ENV = { PLANTDESK_JWT_SECRET: 'commissioning-draft-e2e-secret-0123456789abcdef' };

interface EnvironmentList {
  environments: { id: string; name: string }[];
}

let server: ChildProcess | undefined;
let proxy: CuttingProxy | undefined;
let serverDir: string | undefined;

async function removeEnvironment(webApp: WebApp): Promise<void> {
  const list = await rpc<EnvironmentList>(webApp, 'environments.list');
  for (const environment of list.environments) {
    if (environment.name !== ENVIRONMENT) continue;
    await rpc(webApp, 'environments.select', [environment.id]);
    await rpc(webApp, 'session.signOut');
    await rpc(webApp, 'environments.select', ['local']);
    await rpc(webApp, 'environments.remove', [environment.id]);
  }
}

test.afterAll(async ({ hosts }) => {
  const webApp = await hosts.get(CLOCK);
  await removeEnvironment(webApp);
  if (server) await stopServer(server);
  await proxy?.close();
  if (serverDir) fs.rmSync(serverDir, { recursive: true, force: true });
});

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

test('commissions a plant as a draft while the server is stopped, and sends it exactly once after an interrupted send', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(300_000);
  await removeEnvironment(webApp);
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-draft-e2e-'));
  const port = await freePort();
  const dbFile = path.join(serverDir, 'plantdesk.db');
  const start = () => startServer({ port, dbFile, args: SERVER_ARGS, env: SERVER_ENV });
  server = await start();
  proxy = await startCuttingProxy(port);
  const added = await rpc<{ id: string }>(webApp, 'environments.add', [
    { name: ENVIRONMENT, kind: 'sandbox', baseUrl: `http://127.0.0.1:${proxy.port}` },
  ]);
  await rpc(webApp, 'environments.select', [added.id]);

  await page.goto(webApp.url);
  await fillSignIn(page, ACCOUNTS.installer);
  const commissioning = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Commissioning' });
  await commissioning.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Drafts' })).toBeVisible();
  // Connected, the catalogs the draft's forms need are read and kept.
  await page.waitForFunction(() =>
    Object.keys(localStorage).some((key) => key.startsWith('plantdesk.draftCatalogs.')),
  );

  // ── The server stops; the app is opened again ─────────────────────────────────────────────
  await stopServer(server);
  server = undefined;
  await page.reload();
  await expect(page.getByText(`${ENVIRONMENT} cannot be reached`)).toBeVisible();
  await page.getByRole('link', { name: 'Start a draft' }).click();
  await expect(page.getByText(`Draft — not yet sent to ${ENVIRONMENT}`)).toBeVisible();

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
  await screenshot(page, testInfo, '01-draft-plant');
  await plantForm.getByRole('button', { name: 'Start the draft' }).click();

  await expect(stepHeading(page, 'Step 2 of 6: Sensors')).toBeVisible();
  await addSensor(page, 'PV output', 'Production', `sim://${suffix}/pv`);
  await addSensor(page, 'Grid connection', 'Grid (+ import, − export)', `sim://${suffix}/grid`);
  await expect(page.getByRole('row').filter({ hasText: 'PV output' })).toContainText(
    'Waits for the connection',
  );
  await screenshot(page, testInfo, '02-draft-sensors');
  await page.getByRole('button', { name: 'Next: Devices' }).click();
  await addDevice(page, 'PV inverter', `INV-${suffix}`, 'PV output');
  await addDevice(page, 'Grid meter', `MTR-${suffix}`, 'Grid connection');
  await screenshot(page, testInfo, '03-draft-devices');
  await page.getByRole('button', { name: 'Next: Vendor integrations' }).click();
  await page.getByRole('button', { name: 'Next: Verification' }).click();
  await expect(page.getByText('The verification waits for the connection')).toBeVisible();
  await page.getByRole('button', { name: 'Next: Report' }).click();
  const report = page.locator('.commissioning-report');
  await expect(report.locator('.watermark')).toHaveText('Not verified');
  await expect(report).toContainText('NOT VERIFIED');
  await screenshot(page, testInfo, '04-draft-report');

  // ── Reloaded (browser mode's restart): the draft is still there ──────────────────────────
  await page.reload();
  await expect(report.locator('.watermark')).toHaveText('Not verified');
  await commissioning.click();
  const row = page.getByRole('row').filter({ hasText: plantName });
  await expect(row).toContainText('Not sent');
  await expect(row).toContainText('2 sensors, 2 devices');

  // ── The server is back: the first send is cut after the first device was created ─────────
  server = await start();
  proxy.cutAfter((method, url) => method === 'POST' && /\/devices(\?|$)/.test(url));
  await page.getByRole('button', { name: `Send draft ${plantName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Send draft ${plantName}` });
  await dialog.getByRole('button', { name: 'Send the draft' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Interrupted', { timeout: 60_000 });
  expect(proxy.cuts()).toBe(1);
  await screenshot(page, testInfo, '05-send-interrupted');

  await dialog.getByRole('button', { name: 'Send again' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Sent: the server holds the whole draft', {
    timeout: 60_000,
  });
  await screenshot(page, testInfo, '06-sent');
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
