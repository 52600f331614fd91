import type { Locator, Page, TestInfo } from '@playwright/test';
import { messagesOf, type Translate } from './messages.ts';
import { expect, rpc as rawRpc, type WebApp } from './webApp.ts';

/**
 * Helpers for browser-mode specs: the demo accounts, screenshots kept as artifacts, the web
 * host's RPC and the page's own API channel for setup and clean-up, signing in and out through
 * the screen as a user does, and picking an option of a PrimeVue select.
 */

export const ACCOUNTS = {
  admin: { email: 'admin@plantdesk.test', password: 'admin-pass-1', name: 'Ada Admin' },
  installer: {
    email: 'installer@plantdesk.test',
    password: 'installer-pass-1',
    name: 'Ivo Installer',
  },
  manager: { email: 'manager@plantdesk.test', password: 'manager-pass-1', name: 'Mia Manager' },
  outsider: {
    email: 'outsider@plantdesk.test',
    password: 'outsider-pass-1',
    name: 'Otto Outsider',
  },
} as const;

export interface Account {
  email: string;
  password: string;
}

/** The first start writes the sandbox's simulated history before it listens. */
export const SANDBOX_START_MS = 90_000;

/** A full-page screenshot in the test's output folder, attached to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** One channel of the web host, as the page's bridge calls it (`POST /rpc/<channel>`). */
export async function rpc<T>(webApp: WebApp, channel: string, args: unknown[] = []): Promise<T> {
  const envelope = (await rawRpc(webApp, channel, args)) as {
    ok: boolean;
    value?: unknown;
    error?: unknown;
  };
  if (!envelope.ok) throw new Error(`${channel} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.value as T;
}

/** Calls a route of the API through the page's own bridge channel (`POST /rpc/api.call`). */
export async function api<T>(page: Page, route: string, input: unknown): Promise<T> {
  const envelope = await page.evaluate(
    async ([routeId, routeInput]) => {
      // The page's session cookie (HttpOnly, set when the page was opened) authorizes it.
      const response = await fetch('./rpc/api.call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([routeId, routeInput]),
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: unknown };
    },
    [route, input] as const,
  );
  if (!envelope.ok) throw new Error(`${route} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.value as T;
}

const ENGLISH = messagesOf('en');

/**
 * Opens the app's address and waits for the sign-in screen and a running Local sandbox, in the
 * words of `t` (the page's language; English unless the spec's browser asks for another).
 */
export async function openSignIn(
  page: Page,
  webApp: WebApp,
  t: Translate = ENGLISH,
): Promise<void> {
  await page.goto(webApp.url);
  await expect(page.getByRole('heading', { name: t('signIn.title') })).toBeVisible();
  const running = t('environments.sandbox.state', { state: t('environments.sandbox.running') });
  await expect(page.getByText(running)).toBeVisible({ timeout: SANDBOX_START_MS });
}

/**
 * Fills the sign-in form of the screen shown, waits for the fleet (the home screen), then opens
 * the plants, where most specs start.
 */
export async function fillSignIn(
  page: Page,
  account: Account,
  t: Translate = ENGLISH,
): Promise<void> {
  await page.getByLabel(t('signIn.email'), { exact: true }).fill(account.email);
  await page.getByLabel(t('signIn.password'), { exact: true }).fill(account.password);
  await page.getByRole('button', { name: t('signIn.signIn') }).click();
  // The first screen after signing in: the fleet's chunks and first page on a cold host.
  await expect(page.getByRole('heading', { name: t('fleet.title') })).toBeVisible({
    timeout: 60_000,
  });
  await page
    .getByRole('navigation', { name: t('shell.nav.label') })
    .getByRole('link', { name: t('shell.nav.plants') })
    .click();
  await expect(page.getByRole('heading', { name: t('plants.list.title') })).toBeVisible();
}

/**
 * Signs in as `account` through the sign-in screen, and waits for the plants. The host holds
 * one session for every page: whoever it holds is signed out first.
 */
export async function signIn(page: Page, webApp: WebApp, account: Account): Promise<void> {
  await rpc(webApp, 'session.signOut');
  await openSignIn(page, webApp);
  await fillSignIn(page, account);
}

/** Signs out with the top bar's button and waits for the sign-in screen. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
}

/** Picks `option` in the PrimeVue select labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The plant's sensors table ("Sensors" on the sensors page, "Sensors of this plant" in the
 * wizard), not the live readings beside it, whose rows carry the same sensor names.
 */
export function sensorsTable(page: Page): Locator {
  return page.getByRole('table', { name: /^Sensors/ });
}
