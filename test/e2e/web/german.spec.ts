import type { Page } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, rpc, SANDBOX_START_MS, screenshot } from '../support/shell.ts';

/**
 * The main journeys once in German, as an installer whose browser asks for German sees them on
 * first start: no language chosen, so the app follows the browser's languages. Every screen is
 * kept as a screenshot (test-artifacts/e2e). Then the header's language menu switches to Italian
 * at once, and "as the system" brings German back.
 */

test.use({ locale: 'de-DE', hostClock: '2026-06-21T12:00:00+02:00' });
test.describe.configure({ mode: 'serial' });

const INSTALLER = ACCOUNTS.installer;

const main = (page: Page) => page.getByRole('navigation', { name: 'Hauptnavigation' });

test('sign-in, fleet, plants and the commissioning wizard in German', async ({
  page,
  webApp,
}, testInfo) => {
  await rpc(webApp, 'session.signOut');
  await rpc(webApp, 'app.setLanguage', [null]);
  await page.goto(webApp.url);

  // Sign-in: the page's language is German, the screen too; numbers and words from the files.
  await expect(page.getByRole('heading', { name: 'Bei PlantDesk anmelden' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByText('Lokale Sandbox: Läuft')).toBeVisible({ timeout: SANDBOX_START_MS });
  await expect(page.getByRole('combobox', { name: 'Sprache' })).toHaveText(
    'Wie das System (Deutsch)',
  );
  await screenshot(page, testInfo, 'de-01-sign-in');

  await page.getByLabel('E-Mail', { exact: true }).fill(INSTALLER.email);
  await page.getByLabel('Passwort', { exact: true }).fill(INSTALLER.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();

  // Fleet: headings, columns and Demo Home's row with decimal commas.
  await expect(page.getByRole('heading', { name: 'Flotte' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('columnheader', { name: 'Anlage' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Erzeugung heute' })).toBeVisible();
  const demoRow = page.getByRole('row').filter({ hasText: 'Demo Home' });
  await expect(demoRow).toContainText(/\d,\d kWh/);
  await expect(page).toHaveTitle(/ — PlantDesk \(Browser\)$/);
  await screenshot(page, testInfo, 'de-02-fleet');

  // Plants and Demo Home's overview.
  await main(page).getByRole('link', { name: 'Anlagen' }).click();
  await expect(page.getByRole('heading', { name: 'Anlagen' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Anlagen durchsuchen' })).toBeVisible();
  await screenshot(page, testInfo, 'de-03-plants');

  // The commissioning wizard's first step.
  await main(page).getByRole('link', { name: 'Inbetriebnahme' }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Schritt 1 von 6: Anlage' }),
  ).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Schritt 2: Sensoren' })).toBeDisabled();
  await screenshot(page, testInfo, 'de-04-commissioning-plant');

  // Italian from the header's menu: at once, without a reload; the host keeps it.
  await page.getByRole('combobox', { name: 'Sprache' }).click();
  await page.getByRole('option', { name: 'Italiano', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Passo 1 di 6: / })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await screenshot(page, testInfo, 'it-05-commissioning-plant');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');

  // "As the system": the browser's German again.
  await page.getByRole('combobox', { name: 'Lingua' }).click();
  await page.getByRole('option', { name: 'Come il sistema (Deutsch)' }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Schritt 1 von 6: Anlage' }),
  ).toBeVisible();
  await rpc(webApp, 'session.signOut');
});
