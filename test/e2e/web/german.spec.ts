import type { Page } from '@playwright/test';
import { expect, test, type WebApp } from '../support/webApp.ts';
import {
  ACCOUNTS,
  api,
  type Account,
  choose,
  rpc,
  SANDBOX_START_MS,
  screenshot,
} from '../support/shell.ts';

/**
 * The main journeys once in German, as an installer whose browser asks for German sees them on
 * first start: no language chosen, so the app follows the browser's languages. Every screen is
 * kept as a screenshot (test-artifacts/e2e). Then the header's language menu switches to Italian
 * at once, and "as the system" brings German back. Demo Home's dashboard, and a new plant
 * commissioned from nothing to its report, in German too.
 */

test.use({ locale: 'de-DE', hostClock: '2026-06-21T12:00:00+02:00' });
test.describe.configure({ mode: 'serial' });

const INSTALLER = ACCOUNTS.installer;
/** New sim:// sensors get their first reading within seconds; a minute tick at the latest. */
const FIRST_READINGS_MS = 100_000;
const NOTE = 'Stromwandler auf L1 im Zählerschrank, Pfeil zum Haus';

const main = (page: Page) => page.getByRole('navigation', { name: 'Hauptnavigation' });

/** Signs in through the German sign-in screen, the browser's language, and waits for the fleet. */
async function signInGerman(page: Page, webApp: WebApp, account: Account) {
  await rpc(webApp, 'session.signOut');
  await rpc(webApp, 'app.setLanguage', [null]);
  await page.goto(webApp.url);
  await expect(page.getByText('Lokale Sandbox: Läuft')).toBeVisible({ timeout: SANDBOX_START_MS });
  await page.getByLabel('E-Mail', { exact: true }).fill(account.email);
  await page.getByLabel('Passwort', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('heading', { name: 'Flotte' })).toBeVisible({ timeout: 60_000 });
}

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
  // The host's own texts follow the browser too (its "system" in browser mode): the keychain
  // notice, where no keychain is reachable, is not in the host machine's English.
  await expect(page.getByText(/No system keychain is available/)).toHaveCount(0);
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

test('Demo Home’s dashboard in German', async ({ page, webApp }, testInfo) => {
  await signInGerman(page, webApp, INSTALLER);
  const plants = await api<{ content: { plantUuid: string; name: string }[] }>(page, 'listPlants', {
    query: { search: 'Demo Home' },
  });
  const demoHome = plants.content.find((plant) => plant.name === 'Demo Home');
  expect(demoHome, 'Demo Home is listed').toBeDefined();
  await page.goto(`${webApp.origin}/#/plants/${demoHome!.plantUuid}/dashboard`);

  const dashboard = page.getByRole('region', { name: 'Dashboard' });
  await expect(dashboard).toBeVisible();
  const cards = dashboard.locator('[data-state]');
  await expect(cards).toHaveCount(12, { timeout: 60_000 });
  await expect(dashboard.locator('[data-state="ready"]')).toHaveCount(12, { timeout: 60_000 });
  for (const title of [
    'Erzeugung heute',
    'Verbrauch heute',
    'Eigenverbrauch',
    'Autarkie',
    'Letzte 7 Tage',
    'Letzte 24 Stunden',
    'Energieaufteilung',
    'PV-Zustand',
    'Erzeugungsprognose',
    'Verbrauchsprognose',
    'Sensoren',
  ]) {
    await expect(dashboard.getByRole('region', { name: title, exact: true })).toBeVisible();
  }
  await expect(dashboard.getByText('Zeiten in Europe/Rome (UTC+02:00)').first()).toBeVisible();

  // Noon on the longest day: the array has produced, written with a decimal comma.
  await expect(dashboard.locator('[data-tile-value="production-today"]')).toHaveText(
    /^\d+,\d kWh$/,
  );
  await expect(
    dashboard.getByText('Anteil der Erzeugung, der vor Ort verbraucht wird.'),
  ).toBeVisible();
  await expect(dashboard.getByRole('region', { name: 'PV-Zustand', exact: true })).toContainText(
    /\d+,\d\s%\s*des erwarteten Ertrags erzeugt/,
  );

  // The charts' text alternatives: German legend names and dates. The axis ticks are drawn on
  // the canvas, out of the DOM's reach: the screenshot shows them.
  const week = dashboard.getByRole('table', {
    name: 'Letzte 7 Tage: Verbrauch und Erzeugung in kWh',
  });
  await expect(week.getByRole('columnheader')).toHaveText([
    'Zeit',
    'Verbrauch (kWh)',
    'Erzeugung (kWh)',
  ]);
  await expect(week.locator('tbody tr').last().locator('th')).toHaveText('21.06.2026');
  await expect(week.locator('tbody td').first()).toHaveText(/^\d+,\d+ kWh$/);
  const day = dashboard.getByRole('table', {
    name: 'Letzte 24 Stunden: Verbrauch und Erzeugung in kWh',
  });
  await expect(day.locator('tbody tr').first().locator('th')).toHaveText(/^20\.06\.2026 \d\d:00$/);
  await screenshot(page, testInfo, 'de-06-dashboard');
  await rpc(webApp, 'session.signOut');
});

test('commissioning a new plant to its report in German', async ({ page, webApp }, testInfo) => {
  test.setTimeout(180_000);
  await signInGerman(page, webApp, INSTALLER);
  const suffix = Date.now().toString(36);
  const plantName = `E2E Inbetriebnahme ${suffix}`;
  const stepHeading = (text: string) => page.getByRole('heading', { level: 2, name: text });
  let plantUuid: string | undefined;

  try {
    // 1. Plant: in Bolzano, decimals typed with a comma as a German installer does.
    await main(page).getByRole('link', { name: 'Inbetriebnahme' }).click();
    await expect(stepHeading('Schritt 1 von 6: Anlage')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(plantName);
    await page.getByLabel('Breitengrad (°)').fill('46,4983');
    await page.getByLabel('Längengrad (°)').fill('11,3548');
    await page.getByRole('combobox', { name: 'Zeitzone' }).click();
    await page.getByLabel('Zeitzonen durchsuchen').fill('Rome');
    await page.getByRole('option', { name: /^Europe\/Rome/ }).click();
    await page.getByLabel('Die Anlage hat Photovoltaikmodule').check();
    await page.getByLabel('Spitzenleistung (kWp)').fill('6,5');
    await screenshot(page, testInfo, 'de-07-commissioning-plant');
    await page.getByRole('button', { name: 'Anlage anlegen' }).click();

    // 2. Sensors: PV output and the grid connection at sim:// addresses.
    await expect(stepHeading('Schritt 2 von 6: Sensoren')).toBeFocused();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `Inbetriebnahme: ${plantName}`,
    );
    plantUuid = /#\/commission\/([0-9a-f-]{36})\/sensors$/.exec(page.url())?.[1];
    expect(plantUuid).toBeDefined();
    await expect(page.getByText(/^Noch keine Sensoren\./)).toBeVisible();
    const addSensor = async (name: string, flow: string, address: string) => {
      await page.getByRole('button', { name: 'Sensor hinzufügen' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await choose(page, 'Sensortyp', 'Power meter');
      await dialog.getByRole('checkbox', { name: 'Voltage (V)' }).uncheck();
      await dialog.getByRole('checkbox', { name: 'Current (A)' }).uncheck();
      await choose(page, 'Fluss', flow);
      await dialog.getByLabel('Verbindungsadresse').fill(address);
      await expect(dialog.getByRole('combobox', { name: 'Anbieter der Verbindung' })).toContainText(
        'PlantDesk simulator',
      );
      await dialog.getByRole('button', { name: 'Sensor speichern' }).click();
      await expect(dialog).toBeHidden();
      const row = page
        .getByRole('table', { name: 'Sensoren dieser Anlage' })
        .getByRole('row')
        .filter({ hasText: address });
      await expect(row).toContainText('Bestanden');
    };
    await addSensor('PV-Ertrag', 'Erzeugung', `sim://${suffix}/pv`);
    await addSensor('Netzanschluss', 'Netz (+ Bezug, − Einspeisung)', `sim://${suffix}/grid`);
    await page.getByLabel('Notizen zum Schritt Sensoren').fill(NOTE);
    await screenshot(page, testInfo, 'de-08-commissioning-sensors');
    await page.getByRole('button', { name: 'Weiter: Geräte' }).click();

    // 3. Devices: an inverter and a grid meter, each linked to its sensor.
    await expect(stepHeading('Schritt 3 von 6: Geräte')).toBeFocused();
    const addDevice = async (type: string, serial: string, sensorName: string) => {
      await page.getByRole('button', { name: 'Gerät hinzufügen' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await choose(page, 'Gerätetyp', type);
      await dialog.getByLabel('Seriennummer').fill(serial);
      await dialog.getByRole('checkbox', { name: sensorName }).check();
      await dialog.getByRole('button', { name: 'Gerät speichern' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: serial })).toContainText(sensorName);
    };
    await addDevice('PV inverter', `WR-${suffix}`, 'PV-Ertrag');
    await addDevice('Grid meter', `NZ-${suffix}`, 'Netzanschluss');
    await screenshot(page, testInfo, 'de-09-commissioning-devices');
    await page.getByRole('button', { name: 'Weiter: Anbieter-Integrationen' }).click();

    // 4. Vendor integrations: the simulator needs none.
    await expect(stepHeading('Schritt 4 von 6: Anbieter-Integrationen')).toBeFocused();
    await screenshot(page, testInfo, 'de-10-commissioning-vendors');
    await page.getByRole('button', { name: 'Weiter: Prüfung' }).click();

    // 5. Verification: checked again until the new sensors' first readings are in (bounded).
    await expect(stepHeading('Schritt 5 von 6: Prüfung')).toBeFocused();
    await expect(page.getByText(/^Prüfung (nicht )?bestanden:/)).toBeVisible({ timeout: 30_000 });
    const deadline = Date.now() + FIRST_READINGS_MS;
    while (!(await page.getByText(/^Prüfung bestanden:/).isVisible())) {
      if (Date.now() > deadline) {
        await screenshot(page, testInfo, 'de-11-verification-failed');
        throw new Error('the checks did not pass in time');
      }
      await page.waitForTimeout(5_000);
      await page.getByRole('button', { name: 'Erneut prüfen' }).click();
      await expect(page.getByRole('button', { name: 'Erneut prüfen' })).toBeEnabled({
        timeout: 30_000,
      });
    }
    const checks = page.getByRole('list', { name: 'Prüfungen der Inbetriebnahme' }).locator('> li');
    await expect(checks).toHaveCount(5);
    for (const item of await checks.all()) await expect(item).toContainText('BESTANDEN');
    await expect(page.getByText('Jedes der 2 Geräte hat einen Sensor.')).toBeVisible();
    await screenshot(page, testInfo, 'de-11-commissioning-verification');
    await page.getByRole('button', { name: 'Weiter: Protokoll' }).click();

    // 6. The report: German headings, the date the German way in the plant's zone (noon in
    // Bolzano is 10:00 UTC), the result line.
    await expect(stepHeading('Schritt 6 von 6: Protokoll')).toBeFocused();
    const report = page.getByRole('article', { name: `Inbetriebnahmeprotokoll: ${plantName}` });
    await expect(report).toBeVisible({ timeout: 30_000 });
    for (const heading of [
      'Anlage',
      'Geräte (2)',
      'Sensoren (2)',
      'Prüfung',
      'Live-Werte zum Zeitpunkt der Prüfung',
      'Notizen und Fotos des Installateurs',
      'Unterschrift',
    ]) {
      await expect(report.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
    await expect(report.locator('time').first()).toHaveText(/^21\. Juni 2026.* 12:\d\d/);
    await expect(report).toContainText('(Europe/Rome)');
    await expect(report).toContainText('6,5 kWp');
    await expect(report).toContainText('BESTANDEN: Alle 5 Prüfungen sind bestanden');
    await expect(report).toContainText(`${INSTALLER.name} <${INSTALLER.email}>`);
    await expect(report).toContainText(NOTE);
    await screenshot(page, testInfo, 'de-12-commissioning-report');
  } finally {
    if (plantUuid) await api(page, 'deletePlant', { params: { plantUuid } }).catch(() => {});
    await rpc(webApp, 'session.signOut');
  }
});
