import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';

/**
 * Browser mode end to end: `npm run web` serves the app, which signs in to the Local sandbox as
 * the demo installer and lists "Demo Home". One web host serves the whole file (worker fixture),
 * so the tests run in order and each leaves the app signed out.
 */

const INSTALLER = { email: 'installer@plantdesk.test', password: 'installer-pass-1' };
/** The first start writes the sandbox's simulated history before it listens. */
const SANDBOX_START_MS = 90_000;

test.describe.configure({ mode: 'serial' });

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function openSignIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Environment' })).toHaveText('Local sandbox');
  await expect(page.getByText('Local sandbox: Running')).toBeVisible({ timeout: SANDBOX_START_MS });
}

test('signs in to the Local sandbox as the installer, lists Demo Home and signs out', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp.url);
  // The key is taken out of the address bar once read.
  expect(page.url()).not.toContain('key=');
  await screenshot(page, testInfo, '01-sign-in');

  await page.getByLabel('Email', { exact: true }).fill(INSTALLER.email);
  await page.getByLabel('Password', { exact: true }).fill(INSTALLER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Plants' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();
  const topBar = page.getByRole('banner');
  await expect(topBar).toContainText('Local sandbox');
  await expect(topBar).toContainText(INSTALLER.email);
  await screenshot(page, testInfo, '02-plants');

  // A reload keeps the key (sessionStorage) and the session (the host holds it).
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search plants' }).fill('no such plant');
  await expect(page.getByText('No plant matches “no such plant”.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search plants' }).fill('');
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await screenshot(page, testInfo, '03-signed-out');
});

test("shows the server's message for a wrong password", async ({ page, webApp }, testInfo) => {
  await openSignIn(page, webApp.url);
  await page.getByLabel('Email', { exact: true }).fill(INSTALLER.email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid e-mail or password' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await screenshot(page, testInfo, '04-wrong-password');
});

test('refuses a page opened without the key', async ({ page, webApp }) => {
  await page.goto(`${webApp.origin}/`);
  await expect(page.getByRole('alert').filter({ hasText: 'opened without its key' })).toBeVisible();
});
