import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, api, choose, screenshot, sensorsTable, signIn } from '../support/shell.ts';

/**
 * Commissioning a plant from nothing, in browser mode against the Local sandbox, as the
 * installer: from the Commissioning entry of the navigation, a new plant with PV, a production
 * sensor and a grid sensor at sim:// addresses (the simulator feeds them), an inverter and a grid
 * meter linking them, the vendor step, a verification with every check passing, and the report,
 * printed with the browser's print dialog. On the sensors step the installer writes a note and
 * adds a photo from disk; the report shows both, on screen and in print, and still after a
 * reload (the host keeps them). Every step is kept as a screenshot.
 */

const INSTALLER = ACCOUNTS.installer;
/** New sim:// sensors get their first reading within seconds; a minute tick at the latest. */
const FIRST_READINGS_MS = 100_000;

test.describe.configure({ mode: 'serial' });

/**
 * A minute before New Year: the verification's "first readings in the last 15 minutes" and the
 * report's date fall around midnight of the turn of the year, whichever side the steps end on.
 */
test.use({ hostClock: '2026-12-31T23:59:00+01:00' });

/** A photo of the CT's placement, as picked from disk (a 48×32 PNG). */
const PHOTO = join(import.meta.dirname, '../support/ct-placement.png');
const NOTE = 'CT on L1 in the meter cabinet, arrow towards the house';

const stepHeading = (page: Page, text: string) =>
  page.getByRole('heading', { level: 2, name: text });

test('commissions a new plant from nothing to a passing verification and its report', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(240_000);
  await signIn(page, webApp, INSTALLER);
  const suffix = Date.now().toString(36);
  const plantName = `E2E commissioning ${suffix}`;
  let plantUuid: string | undefined;

  try {
    // ── 1. Plant ─────────────────────────────────────────────────────────────────────────────
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Commissioning' })
      .click();
    await expect(stepHeading(page, 'Step 1 of 6: Plant')).toBeVisible();
    // Later steps wait for the plant.
    await expect(page.getByRole('tab', { name: 'Step 2: Sensors' })).toBeDisabled();
    await page.getByLabel('Name', { exact: true }).fill(plantName);
    await page.getByLabel('Latitude').fill('45.0703');
    await page.getByLabel('Longitude').fill('7.6869');
    await page.getByRole('combobox', { name: 'Time zone' }).click();
    await page.getByLabel('Search time zones').fill('Rome');
    await page.getByRole('option', { name: /^Europe\/Rome/ }).click();
    await page.getByLabel('The plant has photovoltaic panels').check();
    await page.getByLabel('Peak power (kWp)').fill('6');
    await screenshot(page, testInfo, '01-plant');
    await page.getByRole('button', { name: 'Create plant' }).click();

    // ── 2. Sensors ───────────────────────────────────────────────────────────────────────────
    await expect(stepHeading(page, 'Step 2 of 6: Sensors')).toBeVisible();
    await expect(stepHeading(page, 'Step 2 of 6: Sensors')).toBeFocused();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Commissioning: ${plantName}`);
    plantUuid = /#\/commission\/([0-9a-f-]{36})\/sensors$/.exec(page.url())?.[1];
    expect(plantUuid).toBeDefined();
    await expect(page.getByText('No sensors yet.')).toBeVisible();

    const addSensor = async (name: string, flow: string, address: string) => {
      await page.getByRole('button', { name: 'Add sensor' }).click();
      const dialog = page.getByRole('dialog', { name: 'New sensor' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await choose(page, 'Sensor type', 'Power meter');
      await expect(dialog.getByRole('checkbox', { name: 'Power (W)' })).toBeChecked();
      await dialog.getByRole('checkbox', { name: 'Voltage (V)' }).uncheck();
      await dialog.getByRole('checkbox', { name: 'Current (A)' }).uncheck();
      await choose(page, 'Flow', flow);
      // Typing a sim:// address picks the simulator as the connection's vendor.
      await dialog.getByLabel('Connection address').fill(address);
      await expect(dialog.getByRole('combobox', { name: 'Connection vendor' })).toContainText(
        'PlantDesk simulator',
      );
      await dialog.getByRole('button', { name: 'Save sensor' }).click();
      await expect(dialog).toBeHidden();
      const row = sensorsTable(page).getByRole('row').filter({ hasText: name });
      await expect(row).toContainText(address);
      // The live connection test's result.
      await expect(row).toContainText('Passed');
      return row;
    };
    const pvRow = await addSensor('PV output', 'Production', `sim://${suffix}/pv`);
    await expect(pvRow).toContainText('Power (W)');
    await expect(pvRow).toContainText('Energy (kWh)');
    await addSensor('Grid connection', 'Grid (+ import, − export)', `sim://${suffix}/grid`);
    // The installer's note and a photo from disk, kept with the commissioning.
    await page.getByLabel('Notes on the Sensors step').fill(NOTE);
    await page.getByLabel('Add photos from disk for the Sensors step').setInputFiles(PHOTO);
    const photos = page.getByRole('list', { name: 'Photos of the Sensors step' });
    await expect(photos.getByRole('img', { name: 'Photo 1 of the Sensors step' })).toBeVisible();
    await screenshot(page, testInfo, '02-sensors');
    await page.getByRole('button', { name: 'Next: Devices' }).click();

    // ── 3. Devices ───────────────────────────────────────────────────────────────────────────
    await expect(stepHeading(page, 'Step 3 of 6: Devices')).toBeFocused();
    await expect(page.getByText('No devices yet.')).toBeVisible();
    const addDevice = async (type: string, serial: string, sensorName: string) => {
      await page.getByRole('button', { name: 'Add device' }).click();
      const dialog = page.getByRole('dialog', { name: 'New device' });
      await expect(dialog).toBeVisible();
      await choose(page, 'Device type', type);
      await dialog.getByLabel('Serial number').fill(serial);
      await dialog.getByRole('checkbox', { name: sensorName }).check();
      await dialog.getByRole('button', { name: 'Save device' }).click();
      await expect(dialog).toBeHidden();
      const row = page.getByRole('row').filter({ hasText: serial });
      await expect(row).toContainText(type);
      await expect(row).toContainText(sensorName);
    };
    await addDevice('PV inverter', `INV-${suffix}`, 'PV output');
    await addDevice('Grid meter', `MTR-${suffix}`, 'Grid connection');
    await screenshot(page, testInfo, '03-devices');
    await page.getByRole('button', { name: 'Next: Vendor integrations' }).click();

    // ── 4. Vendor integrations: the simulator needs none; skipped ──────────────────────────
    await expect(stepHeading(page, 'Step 4 of 6: Vendor integrations')).toBeFocused();
    await screenshot(page, testInfo, '04-vendors');
    // From the keyboard: the focus is on the step's heading; Next is reached and pressed.
    await page.getByRole('button', { name: 'Next: Verification' }).focus();
    await page.keyboard.press('Enter');

    // ── 5. Verification: every check passes (first readings within seconds, bounded) ─────
    await expect(stepHeading(page, 'Step 5 of 6: Verification')).toBeFocused();
    const overall = page.getByText(/^Verification (passed|failed)/);
    await expect(overall).toBeVisible({ timeout: 30_000 });
    const deadline = Date.now() + FIRST_READINGS_MS;
    while (!(await page.getByText(/^Verification passed/).isVisible())) {
      if (Date.now() > deadline) {
        await screenshot(page, testInfo, '05-verification-failed');
        throw new Error(
          `the checks did not pass in time:\n${await page.locator('ol').last().innerText()}`,
        );
      }
      await page.waitForTimeout(5_000);
      await page.getByRole('button', { name: 'Check again' }).click();
      await expect(page.getByRole('button', { name: 'Check again' })).toBeEnabled({
        timeout: 30_000,
      });
    }
    const checks = page.getByRole('list', { name: 'Commissioning checks' }).locator('> li');
    await expect(checks).toHaveCount(5);
    for (const item of await checks.all()) await expect(item).toContainText('PASS');
    await expect(page.getByText('Each of the 2 devices has a sensor.')).toBeVisible();
    await screenshot(page, testInfo, '05-verification');
    await page.getByRole('button', { name: 'Next: Report' }).click();

    // ── 6. Report ────────────────────────────────────────────────────────────────────────────
    await expect(stepHeading(page, 'Step 6 of 6: Report')).toBeFocused();
    const report = page.getByRole('article', { name: `Commissioning report: ${plantName}` });
    await expect(report).toBeVisible({ timeout: 30_000 });
    await expect(report).toContainText('Europe/Rome');
    await expect(report).toContainText('6 kWp');
    await expect(report).toContainText(`INV-${suffix}`);
    await expect(report).toContainText(`MTR-${suffix}`);
    await expect(report).toContainText('PV inverter');
    await expect(report).toContainText('Grid meter');
    const pv = report
      .getByRole('row')
      .filter({ hasText: 'PV output' })
      .filter({ hasText: 'sim://' });
    await expect(pv).toContainText('Power (W)');
    await expect(pv).toContainText('Energy (kWh)');
    await expect(report.getByRole('row').filter({ hasText: `sim://${suffix}/grid` })).toContainText(
      'Power (W)',
    );
    await expect(report).toContainText(`${INSTALLER.name} <${INSTALLER.email}>`);
    await expect(report).toContainText('Local sandbox');
    await expect(report).toContainText('PASSED: all 5 checks passed');
    // The live values as the verification read them, the notes and photo, the signature line.
    await expect(
      report.getByRole('table', { name: 'Live values at the time of verification' }),
    ).toContainText('PV output');
    const notes = report.getByRole('region', { name: "Installer's notes and photos" });
    await expect(notes.getByRole('region', { name: 'Sensors' })).toContainText(NOTE);
    const photo = notes.getByRole('img', { name: 'Photo 1 of the Sensors step' });
    await expect(photo).toBeVisible();
    // Downscaled in the page and kept as a JPEG: not the file as picked.
    await expect(photo).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
    await expect(report.getByRole('region', { name: 'Signature' })).toContainText(INSTALLER.name);
    await screenshot(page, testInfo, '06-report');

    // In the browser, "Save as PDF" is the print dialog (stubbed: a headless browser has none).
    await page.evaluate(() => {
      const browser = globalThis as unknown as { print: () => void; printCalls: number };
      browser.printCalls = 0;
      browser.print = () => {
        browser.printCalls += 1;
      };
    });
    await page.getByRole('button', { name: 'Save as PDF' }).click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { printCalls: number }).printCalls))
      .toBe(1);
    await expect(page.getByText('The print dialog opened')).toBeVisible();

    // Printing shows the report alone.
    await page.emulateMedia({ media: 'print' });
    await expect(report).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save as PDF' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(photo).toBeVisible();
    await screenshot(page, testInfo, '07-report-print');
    await page.emulateMedia({ media: 'screen' });

    // The address is the wizard's state: a reload resumes at the report.
    await page.reload();
    await expect(stepHeading(page, 'Step 6 of 6: Report')).toBeVisible();
    await expect(
      page.getByRole('article', { name: `Commissioning report: ${plantName}` }),
    ).toBeVisible({
      timeout: 30_000,
    });
    await expect(photo).toBeVisible();
    await expect(notes).toContainText(NOTE);
  } finally {
    if (plantUuid) {
      await api(page, 'deletePlant', { params: { plantUuid } }).catch(() => {});
    }
  }
});
