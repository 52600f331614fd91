import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ACCOUNTS, fillSignIn, rpc, screenshot } from '../support/shell.ts';
import { freePort, startServer, stopServer } from '../support/ownServer.ts';
import { expect, test, type WebApp } from '../support/webApp.ts';

/**
 * A session that really expires, in browser mode, as the installer, against a server of its own
 * (a sandbox environment): the installer types a new plant; the server restarts on the same port
 * and database with another JWT signing secret, so the host's access token and refresh token are
 * both refused (they are JWTs signed with the secret, server/auth/tokens.ts) and the host
 * announces `session.expired`. Creating the plant then asks for the password in a dialog over
 * the form — the email filled in, the typed values still there — and once signed in again the
 * same form creates the plant. Screenshots of each state are attached.
 */

test.describe.configure({ mode: 'serial' });

const ENVIRONMENT = 'Session expiry sandbox';
const SECRET_A = 'session-expiry-e2e-secret-A-0123456789abcdef';
const SECRET_B = 'session-expiry-e2e-secret-B-fedcba9876543210';
const NO_SIMULATION = ['--no-simulation'];
/** Tokens are signed with this: a server restarted with another refuses every token it gave. */
const secret = (value: string) => ({ PLANTDESK_JWT_SECRET: value });

interface EnvironmentList {
  environments: { id: string; name: string }[];
  activeId: string;
}

// ── A server of its own ──────────────────────────────────────────────────────────────────────

let server: ChildProcess | undefined;
let serverDir: string | undefined;

/** Stops the server and deletes its database (also what a previous attempt left). */
async function removeServer(): Promise<void> {
  if (server) await stopServer(server);
  server = undefined;
  if (serverDir) fs.rmSync(serverDir, { recursive: true, force: true });
  serverDir = undefined;
}

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
  const webApp = await hosts.get();
  await removeEnvironment(webApp);
  await rpc(webApp, 'environments.select', ['local']);
  await rpc(webApp, 'session.signOut');
  await removeServer();
});

// ── The form ─────────────────────────────────────────────────────────────────────────────────

const TYPED = {
  name: `Expiry Plant ${Date.now().toString(36).toUpperCase()}`,
  externalId: 'EXPIRY-POD-1',
  latitude: '46.2044',
  longitude: '6.1432',
  altitude: '375',
  timezone: 'Europe/Zurich',
  peakPower: '7.2',
};

function form(page: Page): Locator {
  return page.getByRole('form', { name: 'New plant' });
}

/** The form holds every value typed, with no dialog in the way of reading them. */
async function expectTyped(page: Page): Promise<void> {
  const plant = form(page);
  await expect(plant.getByLabel('Name', { exact: true })).toHaveValue(TYPED.name);
  await expect(plant.getByRole('list', { name: 'External ids' })).toContainText(TYPED.externalId);
  await expect(plant.getByLabel('Latitude')).toHaveValue(TYPED.latitude);
  await expect(plant.getByLabel('Longitude')).toHaveValue(TYPED.longitude);
  await expect(plant.getByLabel('Altitude')).toHaveValue(TYPED.altitude);
  await expect(plant.getByRole('combobox', { name: 'Time zone' })).toContainText(TYPED.timezone);
  await expect(plant.getByLabel('The plant has photovoltaic panels')).toBeChecked();
  await expect(plant.getByLabel('Peak power (kWp)')).toHaveValue(TYPED.peakPower);
}

/**
 * Whether something else lies over `target`: what the user would hit at its middle, once it is
 * scrolled into the viewport (by script: a modal dialog locks the page's own scrolling).
 */
function coveredAt(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    element.scrollIntoView({ block: 'center' });
    const box = element.getBoundingClientRect();
    const top = element.ownerDocument.elementFromPoint(
      box.x + box.width / 2,
      box.y + box.height / 2,
    );
    return top !== null && top !== element && !element.contains(top);
  });
}

test('an expired session asks for the password over the form, which keeps what was typed', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(180_000);
  await removeEnvironment(webApp);
  await removeServer();
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-session-expiry-'));
  const port = await freePort();
  const dbFile = path.join(serverDir, 'plantdesk.db');
  server = await startServer({ port, dbFile, args: NO_SIMULATION, env: secret(SECRET_A) });

  const added = await rpc<{ id: string }>(webApp, 'environments.add', [
    { name: ENVIRONMENT, kind: 'sandbox', baseUrl: `http://127.0.0.1:${port}` },
  ]);
  await rpc(webApp, 'environments.select', [added.id]);

  await page.goto(webApp.url);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Environment' })).toHaveText(ENVIRONMENT);
  await fillSignIn(page, ACCOUNTS.installer);

  // ── The installer types a new plant ──────────────────────────────────────────────────────
  await page.getByRole('button', { name: 'New plant' }).click();
  await expect(page.getByRole('heading', { name: 'New plant' })).toBeVisible();
  const plant = form(page);
  await plant.getByLabel('Name', { exact: true }).fill(TYPED.name);
  await plant.getByLabel('External id', { exact: true }).fill(TYPED.externalId);
  await plant.getByLabel('External id', { exact: true }).press('Enter');
  await plant.getByLabel('Latitude').fill(TYPED.latitude);
  await plant.getByLabel('Longitude').fill(TYPED.longitude);
  await plant.getByLabel('Altitude').fill(TYPED.altitude);
  await plant.getByRole('combobox', { name: 'Time zone' }).click();
  await page.getByRole('searchbox', { name: 'Search time zones' }).fill('Zurich');
  await page.getByRole('option', { name: /^Europe\/Zurich/ }).click();
  await plant.getByLabel('The plant has photovoltaic panels').check();
  await plant.getByLabel('Peak power (kWp)').fill(TYPED.peakPower);
  await expectTyped(page);
  const formUrl = page.url();
  await screenshot(page, testInfo, '01-form-typed');

  // ── The server comes back with another signing secret: every token it gave is refused ─────
  await stopServer(server);
  server = await startServer({ port, dbFile, args: NO_SIMULATION, env: secret(SECRET_B) });

  await plant.getByRole('button', { name: 'Create plant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Session expired' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Your session on ${ENVIRONMENT} has ended`);
  await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue(ACCOUNTS.installer.email);
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('');
  // Over the form: same address, the form still mounted with its values, but covered.
  expect(page.url()).toBe(formUrl);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toHaveCount(0);
  await expectTyped(page);
  expect(await coveredAt(plant.getByLabel('Name', { exact: true }))).toBe(true);
  await screenshot(page, testInfo, '02-session-expired-dialog');

  // A wrong password keeps the dialog, with the server's reason.
  await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog.getByRole('alert')).not.toHaveText('');
  await expect(dialog).toBeVisible();
  await screenshot(page, testInfo, '03-session-expired-wrong-password');

  // ── Signing in again closes the dialog; the form is as it was and saves ────────────────────
  await dialog.getByLabel('Password', { exact: true }).fill(ACCOUNTS.installer.password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog).toBeHidden();
  expect(page.url()).toBe(formUrl);
  await expectTyped(page);
  expect(await coveredAt(plant.getByLabel('Name', { exact: true }))).toBe(false);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The refused save says so in words, not as the server's "Invalid access token".
  await expect(plant).toContainText('Your session had ended, so this was not done');
  await expect(plant).not.toContainText('Invalid access token');
  await screenshot(page, testInfo, '04-signed-in-again');

  await plant.getByRole('button', { name: 'Create plant' }).click();
  await expect(page.getByRole('heading', { level: 1, name: TYPED.name })).toBeVisible();
  const overview = page.getByRole('main');
  await expect(overview).toContainText(TYPED.externalId);
  await expect(overview).toContainText(TYPED.timezone);
  await expect(overview).toContainText('7.2 kWp');
  await screenshot(page, testInfo, '05-plant-created');

  // The server holds exactly what was typed.
  const plants = await rpc<{
    content: {
      name: string;
      externalIds: string[];
      location: { latitude: number; longitude: number; altitudeM?: number; timezone: string };
    }[];
  }>(webApp, 'api.call', ['listPlants', { query: { search: TYPED.name } }]);
  expect(plants.content).toHaveLength(1);
  expect(plants.content[0]).toMatchObject({
    name: TYPED.name,
    externalIds: [TYPED.externalId],
    location: {
      latitude: Number(TYPED.latitude),
      longitude: Number(TYPED.longitude),
      altitudeM: Number(TYPED.altitude),
      timezone: TYPED.timezone,
    },
  });
});
