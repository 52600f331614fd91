import type { Page } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import {
  ACCOUNTS,
  fillSignIn,
  openSignIn,
  rpc,
  SANDBOX_START_MS,
  screenshot,
} from '../support/shell.ts';

/**
 * The shell in browser mode: the environment switcher on every screen, the environment editor
 * (add, test connection, refusals, edit, remove), a production environment's colour, name and
 * banner, the navigation and breadcrumbs, the account menu, and a screenshot of each main
 * screen. The production environment points at the Local sandbox's own server, so signing in
 * there works offline. The web host is shared by the worker: everything ends signed out, on
 * the Local sandbox, with the added environment removed.
 */

test.describe.configure({ mode: 'serial' });

const PRODUCTION_NAME = 'Acme production';
const RENAMED = 'Acme live';

interface EnvironmentList {
  environments: { id: string; name: string; kind: string; baseUrl: string }[];
  activeId: string;
}

function header(page: Page) {
  return page.getByRole('banner');
}

function switcher(page: Page) {
  return page.getByRole('combobox', { name: 'Environment' });
}

async function chooseEnvironment(page: Page, name: string): Promise<void> {
  await switcher(page).click();
  await page.getByRole('option', { name }).click();
}

test.beforeAll(async ({ hosts }) => {
  const webApp = await hosts.get();
  // Whatever an earlier spec left: signed out of the Local sandbox, no leftover environments.
  const list = await rpc<EnvironmentList>(webApp, 'environments.list');
  await rpc(webApp, 'environments.select', ['local']);
  for (const environment of list.environments) {
    if ([PRODUCTION_NAME, RENAMED].includes(environment.name)) {
      await rpc(webApp, 'environments.remove', [environment.id]);
    }
  }
  await rpc(webApp, 'session.signOut');
});

test.afterAll(async ({ hosts }) => {
  const webApp = await hosts.get();
  const list = await rpc<EnvironmentList>(webApp, 'environments.list');
  for (const environment of list.environments) {
    if ([PRODUCTION_NAME, RENAMED].includes(environment.name)) {
      await rpc(webApp, 'environments.select', [environment.id]);
      await rpc(webApp, 'session.signOut');
      await rpc(webApp, 'environments.remove', [environment.id]);
    }
  }
  await rpc(webApp, 'environments.select', ['local']);
  await rpc(webApp, 'session.signOut');
});

test('the environment switcher is on the sign-in screen; the editor is reachable from there', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp);
  await expect(header(page)).toBeVisible();
  await expect(switcher(page)).toHaveText('Local sandbox');
  await expect(header(page).getByText('PRODUCTION')).toHaveCount(0);
  await expect(page).toHaveTitle(/Local sandbox/);
  await screenshot(page, testInfo, '01-sign-in');

  await page.getByRole('link', { name: 'Manage environments' }).click();
  await expect(page.getByRole('heading', { name: 'Environments' })).toBeVisible();
  const local = page.getByRole('row', { name: /Local sandbox/ });
  await expect(local).toContainText('Built in');
  await expect(local.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
  await local.getByRole('button', { name: 'Test connection to Local sandbox' }).click();
  await expect(local.getByRole('status')).toContainText('Reachable: Plant Energy API answered');
  await screenshot(page, testInfo, '02-environments');
});

test('adds a production environment, tests it, and refuses a duplicate name', async ({
  page,
  webApp,
}, testInfo) => {
  const sandbox = await rpc<{ status: string; url?: string }>(webApp, 'localSandbox.state');
  expect(sandbox.status).toBe('running');
  const address = sandbox.url!;

  await openSignIn(page, webApp);
  await page.getByRole('link', { name: 'Manage environments' }).click();
  await page.getByRole('button', { name: 'Add environment' }).click();
  const editor = page.getByRole('dialog', { name: 'Add an environment' });
  await expect(editor).toBeVisible();

  // The contract's own validation, before anything is sent.
  await editor.getByLabel('Address').fill('ftp://files.example.com');
  await editor.getByRole('button', { name: 'Add environment' }).click();
  await expect(editor.getByText('Required', { exact: true })).toBeVisible();
  await expect(
    editor.getByText('Enter a web address starting with http:// or https://'),
  ).toBeVisible();

  await editor.getByLabel('Name').fill(PRODUCTION_NAME);
  await editor.getByLabel('Production').check();
  await editor.getByLabel('Address').fill(address);
  await editor.getByRole('button', { name: 'Test connection' }).click();
  await expect(editor.getByRole('status')).toContainText('Reachable: Plant Energy API answered');
  await screenshot(page, testInfo, '03-environment-editor');
  await editor.getByRole('button', { name: 'Add environment' }).click();
  await expect(editor).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(PRODUCTION_NAME) });
  await expect(row).toContainText('Production');
  await expect(row).toContainText(address);
  await expect(row).toContainText('Added by you');

  // The host refuses a second environment of the same name: the message sits on Name.
  await page.getByRole('button', { name: 'Add environment' }).click();
  await editor.getByLabel('Name').fill(PRODUCTION_NAME.toUpperCase());
  await editor.getByLabel('Address').fill('https://elsewhere.example.com');
  await editor.getByRole('button', { name: 'Add environment' }).click();
  await expect(editor.getByLabel('Name')).toHaveAccessibleDescription(/already exists/);
  await screenshot(page, testInfo, '04-environment-duplicate-name');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toBeHidden();
});

test('production: red header with its name, a banner, and the name in the title', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp);
  await chooseEnvironment(page, PRODUCTION_NAME);
  // No session there yet: still the sign-in screen, now for production.
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(switcher(page)).toHaveText(PRODUCTION_NAME);
  await expect(header(page)).toContainText(`PRODUCTION · ${PRODUCTION_NAME}`);
  await expect(header(page)).toContainText('Production environment: changes affect real plants');
  await expect(page).toHaveTitle(new RegExp(`^PRODUCTION · ${PRODUCTION_NAME}`));
  await screenshot(page, testInfo, '05-production-sign-in');

  await fillSignIn(page, ACCOUNTS.installer);
  await expect(header(page)).toContainText(`PRODUCTION · ${PRODUCTION_NAME}`);
  await expect(header(page)).toContainText('Production environment: changes affect real plants');
  await expect(header(page)).toContainText(ACCOUNTS.installer.email);
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();
  await screenshot(page, testInfo, '06-production-plants');

  // Back to the Local sandbox: its own session (none), so the sign-in screen.
  await chooseEnvironment(page, 'Local sandbox');
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(header(page).getByText('PRODUCTION')).toHaveCount(0);
  await expect(page).not.toHaveTitle(/PRODUCTION/);
});

test('navigation, breadcrumbs, account menu, and each main screen', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp);
  await fillSignIn(page, ACCOUNTS.installer);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Plants' })).toHaveAttribute('aria-current', 'page');
  await screenshot(page, testInfo, '07-plants');

  // The account: who, which organization, which permissions.
  await page.getByRole('button', { name: /^Account:/ }).click();
  const account = page.getByRole('dialog', { name: 'Account' });
  await expect(account).toContainText(ACCOUNTS.installer.email);
  await expect(account).toContainText('Organization');
  await expect(account.getByRole('list', { name: 'Permissions' })).toContainText('PLANTS CREATE');
  await screenshot(page, testInfo, '08-account-menu');
  await page.keyboard.press('Escape');
  await expect(account).toBeHidden();

  // A plant's breadcrumbs show its name; deep links are hash routes.
  await page.getByRole('cell', { name: 'Demo Home', exact: true }).click();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs).toContainText('Demo Home');
  await expect(crumbs.getByRole('link', { name: 'Plants' })).toBeVisible();
  expect(new URL(page.url()).hash).toMatch(/^#\/plants\/[0-9a-f-]{36}/);
  await screenshot(page, testInfo, '09-plant');

  for (const [section, name] of [
    ['Commissioning', '10-commissioning'],
    ['Catalogs', '11-catalogs'],
    ['Environments', '12-environments-signed-in'],
  ] as const) {
    await nav.getByRole('link', { name: section }).click();
    await expect(nav.getByRole('link', { name: section })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await screenshot(page, testInfo, name);
  }

  // A reload of a deep link comes back to the same screen.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Environments' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
});

test('edits and removes the production environment', async ({ page, webApp }, testInfo) => {
  await openSignIn(page, webApp);
  await page.getByRole('link', { name: 'Manage environments' }).click();

  await page.getByRole('button', { name: `Edit ${PRODUCTION_NAME}` }).click();
  const editor = page.getByRole('dialog', { name: `Edit ${PRODUCTION_NAME}` });
  await expect(editor.getByLabel('Name')).toHaveValue(PRODUCTION_NAME);
  await expect(editor.getByLabel('Production')).toBeChecked();
  await editor.getByLabel('Name').fill(RENAMED);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(RENAMED) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(PRODUCTION_NAME) })).toHaveCount(0);

  await page.getByRole('button', { name: `Remove ${RENAMED}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete environment' });
  await expect(confirm).toContainText(`Delete the environment ${RENAMED}?`);
  await screenshot(page, testInfo, '13-remove-environment');
  await confirm.getByRole('button', { name: 'Delete environment' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(RENAMED) })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Local sandbox/ })).toBeVisible();
  await expect(switcher(page)).toHaveText('Local sandbox', { timeout: SANDBOX_START_MS });
});
