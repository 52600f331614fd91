import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, fillSignIn, openSignIn, rpc, screenshot } from '../support/shell.ts';

/**
 * The support bundle in browser mode, as the installer on Demo Home with a vendor secret set:
 * "Support bundle…" on the plant's page lists the files and sizes before anything is saved;
 * Download then gives the zip, which holds the plant's vendors (whether the secret is set, never
 * its value) and no e-mail address anywhere.
 */

const SECRET = 'SE-KEY-e2e-5d1c9b7a';
test.use({ hostClock: '2026-06-21T12:00:00+02:00' });

test('lists the bundle’s files before saving, then downloads it redacted', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp);
  await fillSignIn(page, ACCOUNTS.installer);
  const api = <T>(route: string, input: unknown) => rpc<T>(webApp, 'api.call', [route, input]);
  const plants = await api<{ content: { plantUuid: string; name: string }[] }>('listPlants', {
    query: { search: 'Demo Home' },
  });
  const plantUuid = plants.content.find((plant) => plant.name === 'Demo Home')!.plantUuid;
  const vendors = await api<{ content: { vendorUuid: string; code: string }[] }>(
    'listPlantVendors',
    { params: { plantUuid }, query: { size: 200 } },
  );
  const solarEdge = vendors.content.find((vendor) => vendor.code === 'SOLAREDGE')!;
  const vendorPath = { plantUuid, vendorUuid: solarEdge.vendorUuid };
  await api('configurePlantVendor', {
    params: vendorPath,
    body: { settings: { siteId: 'S-4711', apiKey: SECRET } },
  });
  try {
    await downloadsTheBundle(page, webApp.origin, plantUuid, testInfo);
  } finally {
    // Other specs on this host's Local sandbox find Demo Home's vendors as the demo has them.
    await api('unconfigurePlantVendor', { params: vendorPath });
  }
});

async function downloadsTheBundle(
  page: Page,
  origin: string,
  plantUuid: string,
  testInfo: TestInfo,
) {
  await page.goto(`${origin}/#/plants/${plantUuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Demo Home' })).toBeVisible();
  await page.getByRole('button', { name: 'Support bundle…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Support bundle' });
  const files = dialog.getByRole('table', { name: /^plantdesk-support-demo-home-.*\.zip/ });
  await expect(files.getByRole('row', { name: /plant\/vendors\.json/ })).toBeVisible({
    timeout: 30_000,
  });
  await expect(files.getByRole('row', { name: /logs\/recent\.log/ })).toContainText(/byte|kB/);
  await screenshot(page, testInfo, '01-support-bundle-files');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^plantdesk-support-demo-home-\d{8}-\d{6}Z\.zip$/);
  await expect(dialog.getByRole('status')).toContainText('downloaded');
  const zip = fs.readFileSync(await download.path());
  const entries = unzipSync(new Uint8Array(zip));
  const vendorsFile = JSON.parse(strFromU8(entries['plant/vendors.json']!)) as {
    code: string;
    secretSettingsSet: Record<string, boolean>;
  }[];
  expect(vendorsFile.find((vendor) => vendor.code === 'SOLAREDGE')?.secretSettingsSet).toEqual({
    apiKey: true,
  });
  for (const [name, bytes] of Object.entries(entries)) {
    const text = strFromU8(bytes);
    expect(text, name).not.toContain(SECRET);
    expect(text, name).not.toContain(ACCOUNTS.installer.password);
    expect(text, name).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.-]+/);
  }
}
