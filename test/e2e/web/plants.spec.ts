import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, rpc, screenshot, signIn } from '../support/shell.ts';

/**
 * Plant modelling in browser mode against the Local sandbox, as the installer: create a plant
 * with the form (range errors first), find it by search and by external id, open it, edit it,
 * delete it through the confirmation dialog. Screenshots of each screen are attached.
 */

test.describe.configure({ mode: 'serial' });

test('creates, finds, edits and deletes a plant', async ({ page, webApp }, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.installer);
  const suffix = Date.now().toString(36).toUpperCase();
  const name = `E2E Plant ${suffix}`;
  const externalId = `E2E-POD-${suffix}`;
  const plantsTable = page.getByRole('table', { name: 'Plants' });

  // ── Create ────────────────────────────────────────────────────────────────────────────────
  await page.getByRole('button', { name: 'New plant' }).click();
  await expect(page.getByRole('heading', { name: 'New plant' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('External id', { exact: true }).fill(externalId);
  await page.getByLabel('External id', { exact: true }).press('Enter');
  await expect(page.getByRole('list', { name: 'External ids' })).toContainText(externalId);
  await page.getByLabel('Latitude').fill('95');
  await page.getByLabel('Longitude').fill('7.6869');

  await page.getByRole('combobox', { name: 'Time zone' }).click();
  await page.getByRole('searchbox', { name: 'Search time zones' }).fill('Kathmandu');
  await page.getByRole('option', { name: /^Asia\/Kathmandu/ }).click();
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toContainText('Asia/Kathmandu');

  await page.getByLabel('The plant has photovoltaic panels').check();
  await page.getByLabel('Peak power (kWp)').fill('6.5');
  await page.getByRole('button', { name: 'Add entry (metadata)' }).click();
  await page.getByRole('textbox', { name: 'Key of metadata entry 1' }).fill('roof');
  await page.getByRole('textbox', { name: 'Value of metadata “roof”' }).fill('south-facing tiles');

  // Latitude out of range: refused on the field, nothing sent.
  await page.getByRole('button', { name: 'Create plant' }).click();
  await expect(page.getByText('Latitude must be between -90 and 90 degrees')).toBeVisible();
  await expect(page.getByLabel('Latitude')).toBeFocused();
  await screenshot(page, testInfo, '01-plant-form-invalid');

  await page.getByLabel('Latitude').fill('45.0703');
  // Enter submits the form.
  await page.getByLabel('Latitude').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const overview = page.getByRole('main');
  await expect(overview).toContainText('Asia/Kathmandu');
  await expect(overview).toContainText('6.5 kWp');
  await expect(overview).toContainText(externalId);
  await expect(overview).toContainText('south-facing tiles');
  await expect(overview).toContainText('0 devices');
  await expect(
    page
      .getByRole('navigation', { name: 'Plant sections' })
      .getByRole('link', { name: 'Overview' }),
  ).toHaveAttribute('aria-current', 'page');
  await screenshot(page, testInfo, '02-plant-overview');
  const plantUrl = page.url();

  // ── Find: by search, then by exact external id ────────────────────────────────────────────
  await page.goto(`${webApp.origin}/#/plants`);
  await expect(plantsTable.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();
  await page
    .getByRole('searchbox', { name: 'Search plants' })
    .fill(`plant ${suffix}`.toLowerCase());
  await expect(plantsTable.getByRole('cell', { name, exact: true })).toBeVisible();
  await expect(plantsTable.getByRole('cell', { name: 'Demo Home', exact: true })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search plants' }).fill('');
  await expect(plantsTable.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();

  await page.getByRole('searchbox', { name: 'External id' }).fill(externalId);
  await expect(plantsTable.getByRole('cell', { name: 'Demo Home', exact: true })).toHaveCount(0);
  await expect(plantsTable.getByRole('cell', { name, exact: true })).toBeVisible();
  await screenshot(page, testInfo, '03-plants-filtered');
  // A part of the id is not an external id: that filter is exact.
  await page.getByRole('searchbox', { name: 'External id' }).fill(externalId.slice(0, -1));
  await expect(
    page.getByText(`No plant has the external id ${externalId.slice(0, -1)}.`),
  ).toBeVisible();
  await page.getByRole('searchbox', { name: 'External id' }).fill(externalId);

  // ── Open from the list, edit ─────────────────────────────────────────────────────────────
  await plantsTable.getByRole('cell', { name, exact: true }).click();
  await expect(page).toHaveURL(plantUrl);
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit plant' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  await expect(page.getByLabel('Latitude')).toHaveValue('45.0703');
  const renamed = `${name} (renamed)`;
  await page.getByLabel('Name', { exact: true }).fill(renamed);
  await page.getByLabel('Tilt (°)').fill('35');
  await screenshot(page, testInfo, '04-plant-edit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(page).toHaveURL(plantUrl);
  await expect(page.getByRole('main')).toContainText('35°');

  // ── Delete ───────────────────────────────────────────────────────────────────────────────
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete plant' });
  await expect(dialog).toContainText(renamed);
  await screenshot(page, testInfo, '05-plant-delete');
  await dialog.getByRole('button', { name: 'Delete plant' }).click();
  await expect(page.getByRole('heading', { name: 'Plants' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search plants' }).fill(renamed);
  await expect(page.getByText(`No plant matches “${renamed}”.`)).toBeVisible();

  // Its old address now says so instead of showing a blank page.
  await page.goto(plantUrl);
  await expect(page.getByRole('heading', { name: 'Plant not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to plants' }).click();
  await expect(page.getByRole('heading', { name: 'Plants' })).toBeVisible();

  await rpc(webApp, 'session.signOut');
});
