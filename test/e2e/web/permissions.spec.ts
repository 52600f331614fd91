import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, openSignIn, rpc, screenshot, signIn } from '../support/shell.ts';

/**
 * What a user may not do is not offered, in browser mode against the Local sandbox:
 * - the manager (every READ permission, nothing else) finds no enabled create, edit, delete,
 *   link or configure action on the plants list, a plant's pages and the catalogs, and each
 *   disabled action names the permission it lacks;
 * - the outsider (another organization) opening Demo Home's deep link reads "Plant not found".
 */

/** The names of actions that change something. */
const CHANGING_ACTION =
  /^(New|Create|Add|Edit|Delete|Remove|Link|Unlink|Configure|Unconfigure|Save)\b/i;

test.describe.configure({ mode: 'serial' });

/**
 * Every button on the page whose name says it changes something is disabled, and its
 * description names the permission it lacks. Answers how many there were.
 */
async function expectNoEnabledChanges(page: Page, where: string): Promise<number> {
  const buttons = page.getByRole('button', { name: CHANGING_ACTION });
  // Counted once the screen has settled: a list still rendering adds or drops row buttons.
  let count = await buttons.count();
  for (let previous = -1; count !== previous;) {
    previous = count;
    await page.waitForTimeout(300);
    count = await buttons.count();
  }
  for (let index = 0; index < count; index += 1) {
    const button: Locator = buttons.nth(index);
    const label = `${where}: “${(await button.textContent())?.trim() || (await button.getAttribute('aria-label'))}”`;
    await expect(button, `${label} is disabled`).toBeDisabled();
    await expect(button, `${label} names the permission`).toHaveAccessibleDescription(
      /Requires the permission [A-Z_]+ (CREATE|UPDATE|DELETE)/,
    );
  }
  return count;
}

/** Waits for the page's first changing action (its "New …" button) to be shown. */
async function waitForActions(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: CHANGING_ACTION }).first()).toBeVisible();
}

test('the manager sees no enabled create, edit, delete or link action', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.manager);
  const plantsTable = page.getByRole('table', { name: 'Plants' });
  await expect(plantsTable.getByRole('cell', { name: 'Demo Home', exact: true })).toBeVisible();

  // Plants list.
  await waitForActions(page);
  expect(await expectNoEnabledChanges(page, 'plants')).toBeGreaterThan(0);
  const newPlant = page.getByRole('button', { name: 'New plant' });
  await expect(newPlant).toHaveAccessibleDescription('Requires the permission PLANTS CREATE');
  // The tooltip shows on hover (over the focusable wrapper of the disabled button).
  await newPlant.hover({ force: true });
  await expect(
    page.getByRole('tooltip', { name: 'Requires the permission PLANTS CREATE' }),
  ).toBeVisible();
  await screenshot(page, testInfo, '01-manager-plants');

  // Demo Home's overview.
  await plantsTable.getByRole('cell', { name: 'Demo Home', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Demo Home' })).toBeVisible();
  await waitForActions(page);
  expect(await expectNoEnabledChanges(page, 'plant')).toBeGreaterThanOrEqual(2);
  await expect(
    page.getByRole('button', { name: 'Delete', exact: true }),
  ).toHaveAccessibleDescription('Requires the permission PLANTS DELETE');
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveAccessibleDescription(
    'Requires the permission PLANTS UPDATE',
  );
  await screenshot(page, testInfo, '02-manager-plant');

  const sections = page.getByRole('navigation', { name: 'Plant sections' });
  for (const section of ['Devices', 'Sensors', 'Vendors'] as const) {
    await sections.getByRole('link', { name: section }).click();
    await expect(sections.getByRole('link', { name: section })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // The section's list has loaded when one of its rows shows.
    await expect(page.getByRole('main').getByRole('row').nth(1)).toBeVisible();
    await waitForActions(page);
    expect(await expectNoEnabledChanges(page, section.toLowerCase())).toBeGreaterThan(0);
    await screenshot(page, testInfo, `03-manager-${section.toLowerCase()}`);
  }
  // The vendors not configured yet: "Configure…" is not offered either.
  await page.getByRole('tab', { name: /^Available/ }).click();
  await expect(
    page
      .getByRole('tabpanel', { name: /^Available/ })
      .getByRole('row')
      .nth(1),
  ).toBeVisible();
  expect(await expectNoEnabledChanges(page, 'available vendors')).toBeGreaterThan(0);
  await screenshot(page, testInfo, '03-manager-vendors-available');

  // Catalogs.
  for (const [path, name] of [
    ['sensor-types', 'sensor types'],
    ['device-types', 'device types'],
    ['load-signatures', 'load signatures'],
  ] as const) {
    await page.goto(`${webApp.origin}/#/catalogs/${path}`);
    await expect(page.getByRole('heading', { name: new RegExp(`^${name}$`, 'i') })).toBeVisible();
    await expect(page.getByRole('main').getByRole('row').nth(1)).toBeVisible();
    await waitForActions(page);
    expect(await expectNoEnabledChanges(page, name)).toBeGreaterThan(0);
    await screenshot(page, testInfo, `04-manager-${path}`);
  }
  await rpc(webApp, 'session.signOut', []);
});

test('the outsider cannot open another organization’s plant', async ({
  page,
  webApp,
}, testInfo) => {
  // Demo Home's id, as the installer of its organization sees it.
  await rpc(webApp, 'session.signOut', []);
  await openSignIn(page, webApp);
  await rpc(webApp, 'session.signIn', [
    { email: ACCOUNTS.installer.email, password: ACCOUNTS.installer.password, remember: false },
  ]);
  const plants = await rpc<{ content: { plantUuid: string; name: string }[] }>(webApp, 'api.call', [
    'listPlants',
    { query: { search: 'Demo Home' } },
  ]);
  const demoHome = plants.content.find((plant) => plant.name === 'Demo Home');
  expect(demoHome, 'the installer lists Demo Home').toBeTruthy();

  await signIn(page, webApp, ACCOUNTS.outsider);
  await expect(
    page
      .getByRole('table', { name: 'Plants' })
      .getByRole('cell', { name: 'Demo Home', exact: true }),
  ).toHaveCount(0);
  await page.goto(`${webApp.origin}/#/plants/${demoHome!.plantUuid}`);
  await expect(page.getByRole('heading', { name: 'Plant not found' })).toBeVisible();
  await expect(page.getByText('Demo Home')).toHaveCount(0);
  await screenshot(page, testInfo, '05-outsider-plant-not-found');

  // Its sections too.
  await page.goto(`${webApp.origin}/#/plants/${demoHome!.plantUuid}/devices`);
  await expect(page.getByRole('heading', { name: 'Plant not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to plants' }).click();
  await expect(page.getByRole('heading', { name: 'Plants' })).toBeVisible();

  await rpc(webApp, 'session.signOut', []);
});
