import type { Page, TestInfo } from '@playwright/test';
import { expect, type WebApp } from './webApp.ts';

/**
 * Helpers for browser-mode specs: screenshots kept as artifacts, the web host's RPC for setup
 * and clean-up, and signing in through the screen as a user does.
 */

export const ACCOUNTS = {
  admin: { email: 'admin@plantdesk.test', password: 'admin-pass-1' },
  installer: { email: 'installer@plantdesk.test', password: 'installer-pass-1' },
  manager: { email: 'manager@plantdesk.test', password: 'manager-pass-1' },
  outsider: { email: 'outsider@plantdesk.test', password: 'outsider-pass-1' },
} as const;

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
  const key = new URL(webApp.url).searchParams.get('key') ?? '';
  const response = await fetch(`${webApp.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-plantdesk-key': key },
    body: JSON.stringify(args),
  });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: unknown };
  if (!envelope.ok) throw new Error(`${channel} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.value as T;
}

/** Opens the app's address and waits for the sign-in screen and a running Local sandbox. */
export async function openSignIn(page: Page, webApp: WebApp): Promise<void> {
  await page.goto(webApp.url);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(page.getByText('Local sandbox: Running')).toBeVisible({ timeout: SANDBOX_START_MS });
}

/** Fills the sign-in form of the screen shown and waits for the plants. */
export async function fillSignIn(
  page: Page,
  account: { email: string; password: string },
): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Plants' })).toBeVisible();
}
