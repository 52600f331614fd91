import type { Page } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, api, screenshot, signIn, signOut } from '../support/shell.ts';

/**
 * Catalogs and vendor integrations in browser mode against the Local sandbox. As the admin (the
 * catalogs need SENSOR_TYPES, DEVICE_TYPES and LOAD_SIGNATURES CREATE/UPDATE/DELETE, which only
 * the admin holds): create, edit and delete a load signature with the 24-hour profile editor,
 * the day always adding up to 100 %; read the data types. As the installer (vendor
 * configuration needs PLANTS UPDATE): configure a vendor on Demo Home and find it under
 * Configured with its secret masked. Screenshots of each screen are attached.
 */

test.describe.configure({ mode: 'serial' });

/** Types a percentage into an hour of the profile editor and leaves the box. */
async function setHour(page: Page, hour: string, percent: string): Promise<void> {
  const input = page.getByLabel(hour, { exact: true });
  await input.fill(percent);
  await input.press('Tab');
}

interface LoadSignatureBody {
  loadSignatureUuid: string;
  name: string;
  hourlyProfile: number[];
  typicalDailyKwh: number | null;
}

test('the admin creates, edits and deletes a load signature; the day stays 100 %', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.admin);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Catalogs' })
    .click();
  await expect(page.getByRole('heading', { name: 'Sensor types' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'POWER_METER', exact: true })).toBeVisible();
  await screenshot(page, testInfo, '01-sensor-types');

  const catalogNav = page.getByRole('navigation', { name: 'Catalogs' });
  await catalogNav.getByRole('link', { name: 'Device types' }).click();
  await expect(page.getByRole('heading', { name: 'Device types' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'HEAT_PUMP', exact: true })).toBeVisible();
  await screenshot(page, testInfo, '02-device-types');

  await catalogNav.getByRole('link', { name: 'Load signatures' }).click();
  await expect(page.getByRole('heading', { name: 'Load signatures' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'HOUSEHOLD_BASE', exact: true })).toBeVisible();
  await screenshot(page, testInfo, '03-load-signatures');

  // ── Create ────────────────────────────────────────────────────────────────────────────────
  const code = `E2E_${Date.now().toString(36).toUpperCase()}`;
  await page.getByRole('button', { name: 'New load signature' }).click();
  const dialog = page.getByRole('dialog', { name: 'New load signature' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Total: 100.00 %')).toBeVisible();

  // Nothing typed: the code is asked for before anything is sent.
  await dialog.getByRole('button', { name: 'Create load signature' }).click();
  await expect(dialog.getByText('Code is required')).toBeVisible();

  await dialog.getByLabel('Code', { exact: true }).fill(code);
  await dialog.getByLabel('Name', { exact: true }).fill('Evening sauna');
  await dialog.getByRole('combobox', { name: 'Device type' }).click();
  await page.getByRole('option', { name: 'Heat pump (HEAT_PUMP)' }).click();
  await dialog.getByLabel('Typical daily energy (kWh)').fill('6.5');

  await setHour(page, '18:00', '20');
  await expect(dialog.getByLabel('18:00', { exact: true })).toHaveValue('20');
  // The 23 other hours share the remaining 80 % (they were flat: evenly).
  await expect(dialog.getByLabel('00:00', { exact: true })).toHaveValue('3.48');
  await expect(dialog.getByText('Total: 100.00 %')).toBeVisible();
  // Another hour: it keeps what was typed, the others (18:00 too) rescale in proportion.
  await setHour(page, '19:00', '15');
  await expect(dialog.getByLabel('19:00', { exact: true })).toHaveValue('15');
  await expect(dialog.getByLabel('18:00', { exact: true })).toHaveValue(/^17\.6\d$/);
  await expect(dialog.getByText('Total: 100.00 %')).toBeVisible();
  await expect(dialog.getByRole('img', { name: /peak at 18:00/ })).toBeVisible();
  await screenshot(page, testInfo, '04-load-signature-new');

  await dialog.getByRole('button', { name: 'Create load signature' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search load signatures' }).fill(code);
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Heat pump');
  await expect(row).toContainText('6.5 kWh');
  // Demo Energy's own signature; the reference ones are shared and only the platform edits them.
  await expect(row).toContainText('Your organization');
  expect(
    (
      await api<{ content: { shared?: boolean }[] }>(page, 'listLoadSignatures', {
        query: { search: code },
      })
    ).content[0]!.shared,
  ).toBe(false);

  const [created] = (
    await api<{ content: LoadSignatureBody[] }>(page, 'listLoadSignatures', {
      query: { search: code },
    })
  ).content;
  expect(created!.hourlyProfile[19]).toBeCloseTo(0.15, 12);
  expect(created!.hourlyProfile[18]).toBeCloseTo(0.176, 3);
  expect(Math.abs(created!.hourlyProfile.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);

  // ── Edit ──────────────────────────────────────────────────────────────────────────────────
  await row.getByRole('button', { name: `Edit ${code}` }).click();
  const editDialog = page.getByRole('dialog', { name: `Edit load signature ${code}` });
  await expect(editDialog).toBeVisible();
  // Opened once PrimeVue has moved the focus to its close button (after the opening animation):
  // keys typed before that move can land on the button instead of the hour.
  await expect(editDialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await expect(editDialog.getByLabel('19:00', { exact: true })).toHaveValue('15');
  await setHour(page, '03:00', '10');
  await expect(editDialog.getByLabel('03:00', { exact: true })).toHaveValue('10');
  await expect(editDialog.getByText('Total: 100.00 %')).toBeVisible();
  await editDialog.getByLabel('Name', { exact: true }).fill('Evening sauna, winter');
  await screenshot(page, testInfo, '05-load-signature-edit');
  await editDialog.getByRole('button', { name: 'Save' }).click();
  await expect(editDialog).toBeHidden();
  await expect(row).toContainText('Evening sauna, winter');

  const [edited] = (
    await api<{ content: LoadSignatureBody[] }>(page, 'listLoadSignatures', {
      query: { search: code },
    })
  ).content;
  expect(edited!.hourlyProfile[3]).toBeCloseTo(0.1, 12);
  expect(Math.abs(edited!.hourlyProfile.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
  // The other hours kept their proportions: 18:00 is still the peak, in the same ratio to 19:00.
  const ratio = (profile: number[]) => profile[18]! / profile[19]!;
  expect(ratio(edited!.hourlyProfile)).toBeCloseTo(ratio(created!.hourlyProfile), 2);
  expect(Math.max(...edited!.hourlyProfile)).toBe(edited!.hourlyProfile[18]);

  // ── Delete ────────────────────────────────────────────────────────────────────────────────
  await row.getByRole('button', { name: `Delete ${code}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete load signature' });
  await expect(confirm).toContainText(code);
  await confirm.getByRole('button', { name: 'Delete load signature' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`No load signature matches “${code}”.`)).toBeVisible();

  // ── Data types: read-only ─────────────────────────────────────────────────────────────────
  await catalogNav.getByRole('link', { name: 'Data types' }).click();
  await expect(page.getByRole('heading', { name: 'Data types' })).toBeVisible();
  const power = page.getByRole('row').filter({ hasText: 'POWER' }).first();
  await expect(power).toContainText('W');
  await expect(page.getByRole('cell', { name: 'kWh', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /New|Edit|Delete/ })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search data types' }).fill('temp');
  await expect(page.getByRole('cell', { name: '°C', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'kWh', exact: true })).toHaveCount(0);
  await screenshot(page, testInfo, '06-data-types');

  await signOut(page);
});

test('the installer configures a vendor on Demo Home; its secret stays masked', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.installer);
  const plants = await api<{ content: { plantUuid: string; name: string }[] }>(page, 'listPlants', {
    query: { search: 'Demo Home' },
  });
  const demoHome = plants.content.find((plant) => plant.name === 'Demo Home');
  expect(demoHome).toBeDefined();

  await page.goto(`${webApp.origin}/#/plants/${demoHome!.plantUuid}/vendors`);
  await expect(page.getByRole('heading', { name: 'Demo Home' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Vendor integrations' })).toBeVisible();
  const configured = page.getByRole('table', { name: 'Configured vendors' });
  await expect(
    configured.getByRole('cell', { name: 'PlantDesk simulator', exact: true }),
  ).toBeVisible();
  await screenshot(page, testInfo, '07-vendors-configured');

  await page.getByRole('tab', { name: /Available/ }).click();
  const available = page.getByRole('table', { name: 'Available vendors' });
  await expect(
    available.getByRole('cell', { name: 'SolarEdge monitoring', exact: true }),
  ).toBeVisible();
  await screenshot(page, testInfo, '08-vendors-available');

  await available.getByRole('button', { name: 'Configure SolarEdge monitoring' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configure SolarEdge monitoring' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Configure', exact: true }).click();
  await expect(dialog.getByText('Site ID is required')).toBeVisible();
  await expect(dialog.getByText('API key is required')).toBeVisible();

  const secret = `e2e-secret-${Date.now().toString(36)}`;
  await dialog.getByLabel('Site ID').fill('SE-2024-17');
  const apiKey = dialog.getByLabel('API key');
  await expect(apiKey).toHaveAttribute('type', 'password');
  await apiKey.fill(secret);
  await screenshot(page, testInfo, '09-vendor-configure');
  await dialog.getByRole('button', { name: 'Configure', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Back on the Configured tab, with the setting and the secret only as "stored".
  await expect(page.getByRole('tab', { name: /Configured/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const row = configured.getByRole('row').filter({ hasText: 'SolarEdge monitoring' });
  await expect(row).toContainText('SE-2024-17');
  await expect(row).toContainText('API key:•••••• (stored)');
  await expect(page.getByText(secret)).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  await screenshot(page, testInfo, '10-vendor-configured-masked');

  // Editing never shows the secret again: it is stored, and left as it is when left empty.
  await row.getByRole('button', { name: 'Edit SolarEdge monitoring' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit SolarEdge monitoring' });
  await expect(edit.getByLabel('Site ID')).toHaveValue('SE-2024-17');
  await expect(edit.getByLabel('API key')).toHaveValue('');
  await expect(edit.getByLabel('API key')).toHaveAttribute(
    'placeholder',
    'Stored — leave empty to keep',
  );
  await edit.getByLabel('Site ID').fill('SE-2024-18');
  await screenshot(page, testInfo, '11-vendor-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('SE-2024-18');
  await expect(row).toContainText('API key:•••••• (stored)');

  // Remove it again, so Demo Home is as the sandbox made it.
  await row.getByRole('button', { name: 'Remove SolarEdge monitoring' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete vendor configuration' });
  await confirm.getByRole('button', { name: 'Delete vendor configuration' }).click();
  await expect(
    configured.getByRole('cell', { name: 'SolarEdge monitoring', exact: true }),
  ).toHaveCount(0);

  await signOut(page);
});
