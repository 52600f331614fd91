import type { Page } from '@playwright/test';
import { expect, test, type WebApp } from '../support/webApp.ts';
import { ACCOUNTS, fillSignIn, openSignIn, screenshot, signOut } from '../support/shell.ts';

/**
 * Browser mode end to end: `npm run web` serves the app, which signs in to the Local sandbox as
 * the demo installer and lists "Demo Home". One web host serves the whole file (worker fixture),
 * so the tests run in order and each leaves the app signed out.
 */

test.describe.configure({ mode: 'serial' });

const INSTALLER = ACCOUNTS.installer;

/** The sign-in screen, on the Local sandbox. */
async function openLocalSignIn(page: Page, webApp: WebApp): Promise<void> {
  await openSignIn(page, webApp);
  await expect(page.getByRole('combobox', { name: 'Environment' })).toHaveText('Local sandbox');
}

test('signs in to the Local sandbox as the installer, lists Demo Home and signs out', async ({
  page,
  webApp,
}, testInfo) => {
  await openLocalSignIn(page, webApp);
  // The host swapped the key for an HttpOnly cookie and a clean address; the page never saw it.
  expect(page.url()).not.toContain('key=');
  expect(await page.evaluate(() => sessionStorage.getItem('plantdesk.webKey'))).toBeNull();
  const cookies = await page.context().cookies();
  expect(cookies).toEqual([
    expect.objectContaining({ httpOnly: true, sameSite: 'Strict', path: '/' }),
  ]);
  expect(await page.evaluate('document.cookie')).toBe('');
  await screenshot(page, testInfo, '01-sign-in');

  await fillSignIn(page, INSTALLER);
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();
  const topBar = page.getByRole('banner');
  await expect(topBar).toContainText('Local sandbox');
  await expect(topBar).toContainText(INSTALLER.email);
  await screenshot(page, testInfo, '02-plants');

  // A reload keeps the cookie and the session (the host holds it).
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search plants' }).fill('no such plant');
  await expect(page.getByText('No plant matches “no such plant”.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search plants' }).fill('');
  await expect(page.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();

  await signOut(page);
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await screenshot(page, testInfo, '03-signed-out');
});

test("shows the server's message for a wrong password", async ({ page, webApp }, testInfo) => {
  await openLocalSignIn(page, webApp);
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
