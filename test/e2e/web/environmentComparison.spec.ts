import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { axeViolations } from '../support/axe.ts';
import { ACCOUNTS, api, rpc, screenshot, signIn } from '../support/shell.ts';
import { freePort, startServer, stopServer } from '../support/ownServer.ts';
import type { Page } from '@playwright/test';
import { expect, test, type WebApp } from '../support/webApp.ts';

/**
 * The environment comparison in browser mode: the Local sandbox's Demo Home beside the same
 * plant on a server of the test's own (a sandbox environment) whose grid meter samples every
 * 5 minutes. The other environment has no session: the Compare tab signs in to it in place,
 * the Local sandbox stays the active environment, and the change is named in words.
 */

test.describe.configure({ mode: 'serial' });

const ENVIRONMENT = 'Comparison sandbox';

let server: ChildProcess | undefined;
let serverDir: string | undefined;
let serverUrl = '';

interface EnvironmentList {
  environments: { id: string; name: string }[];
  activeId: string;
}

async function removeEnvironment(webApp: WebApp): Promise<void> {
  const list = await rpc<EnvironmentList>(webApp, 'environments.list');
  for (const environment of list.environments) {
    if (environment.name === ENVIRONMENT) {
      await rpc(webApp, 'environments.remove', [environment.id]);
    }
  }
}

/** The grid meter of the other server's Demo Home samples every 5 minutes instead of every one. */
async function slowDownGridMeter(): Promise<void> {
  const login = await fetch(`${serverUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: ACCOUNTS.installer.email,
      password: ACCOUNTS.installer.password,
    }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  const plants = (await (
    await fetch(`${serverUrl}/plants?externalIds=DEMO-HOME-001`, { headers })
  ).json()) as { content: { plantUuid: string }[] };
  const plantUuid = plants.content[0]!.plantUuid;
  const sensors = (await (
    await fetch(`${serverUrl}/plants/${plantUuid}/sensors?size=200`, { headers })
  ).json()) as { content: { sensorUuid: string; name: string }[] };
  const grid = sensors.content.find((sensor) => sensor.name === 'Grid exchange')!;
  const answer = await fetch(`${serverUrl}/plants/${plantUuid}/sensors/${grid.sensorUuid}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ samplingIntervalSeconds: 300 }),
  });
  expect(answer.status).toBe(200);
}

/** axe's serious and critical findings on the page as shown (WCAG 2.1 A and AA). */
async function seriousFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']))
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`,
    );
}

test.beforeAll(async ({ hosts }) => {
  const port = await freePort();
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-e2e-comparison-'));
  server = await startServer({
    port,
    dbFile: path.join(serverDir, 'plantdesk.db'),
    args: ['--no-simulation'],
  });
  serverUrl = `http://127.0.0.1:${port}`;
  await slowDownGridMeter();
  const webApp = await hosts.get();
  await removeEnvironment(webApp);
  await rpc(webApp, 'environments.add', [
    { name: ENVIRONMENT, kind: 'sandbox', baseUrl: serverUrl },
  ]);
});

test.afterAll(async ({ hosts }) => {
  const webApp = await hosts.get();
  await removeEnvironment(webApp);
  if (server) await stopServer(server);
  if (serverDir) fs.rmSync(serverDir, { recursive: true, force: true });
});

test('compares Demo Home with the other environment, signing in to it in place', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.installer);
  const plants = await api<{ content: { plantUuid: string }[] }>(page, 'listPlants', {
    query: { externalIds: ['DEMO-HOME-001'] },
  });
  await page.goto(`${webApp.origin}/#/plants/${plants.content[0]!.plantUuid}/compare`);

  const signInForm = page.getByRole('region', { name: `Sign in to ${ENVIRONMENT}` });
  await expect(signInForm).toBeVisible();
  await expect(signInForm).toContainText(`The password goes to ${serverUrl} only.`);
  await screenshot(page, testInfo, 'comparison-sign-in');
  expect(await seriousFindings(page)).toEqual([]);
  await signInForm.getByLabel('Email', { exact: true }).fill(ACCOUNTS.installer.email);
  await signInForm.getByLabel('Password', { exact: true }).fill(ACCOUNTS.installer.password);
  await signInForm.getByRole('button', { name: `Sign in to ${ENVIRONMENT} and compare` }).click();

  await expect(
    page.getByRole('status').filter({ hasText: 'matched by external id' }),
  ).toContainText('1 difference');
  const grid = page.locator('li.entry', { hasText: 'Grid exchange' });
  await expect(grid).toContainText('Changed');
  await expect(grid.getByRole('row', { name: /Sampling interval/ })).toContainText('60');
  await expect(grid.getByRole('row', { name: /Sampling interval/ })).toContainText('300');
  await screenshot(page, testInfo, 'comparison-result');
  expect(await seriousFindings(page)).toEqual([]);

  // The Local sandbox is still the environment the app works in.
  const list = await rpc<EnvironmentList>(webApp, 'environments.list');
  expect(list.activeId).toBe('local');
});
