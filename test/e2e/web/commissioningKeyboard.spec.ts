import type { ElementHandle, Locator, Page } from '@playwright/test';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, api, screenshot, sensorsTable, signIn } from '../support/shell.ts';

/**
 * The commissioning wizard from the keyboard alone, in browser mode against the Local sandbox,
 * as the installer: after signing in, no click and no fill. Tab and Shift+Tab move the focus,
 * text is typed, Space and Enter activate, arrow keys pick options in selects, Escape closes
 * overlays and dialogs. A new plant goes from the Commissioning entry of the navigation to a
 * passing verification and the report. On every step, each button, link, text box, combobox,
 * checkbox and switch shown (in the page and in an open dialog) has an accessible name. Every
 * step is kept as a screenshot.
 */

const INSTALLER = ACCOUNTS.installer;
/** New sim:// sensors get their first reading within seconds; a minute tick at the latest. */
const FIRST_READINGS_MS = 100_000;
/** How many Tab presses may separate two controls before the helper gives up. */
const MAX_TABS = 60;
/** The roles a person operates; each needs an accessible name. */
const CONTROL_ROLES = [
  'button',
  'link',
  'textbox',
  'searchbox',
  'spinbutton',
  'combobox',
  'checkbox',
  'switch',
  'radio',
  'tab',
] as const;

test.describe.configure({ mode: 'serial' });

/**
 * Two minutes before the clocks in Rome jump from 02:00 to 03:00: the verification's "last 15
 * minutes" cross the missing hour.
 */
test.use({ hostClock: '2026-03-29T01:58:00+01:00' });

const stepHeading = (page: Page, text: string) =>
  page.getByRole('heading', { level: 2, name: text });

/** The DOM the page-side callbacks use (the tests' TypeScript project has no DOM library). */
interface PageElement {
  id: string;
  tagName: string;
  textContent: string | null;
  outerHTML: string;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  contains(other: PageElement | null): boolean;
}
interface PageWindow {
  document: {
    activeElement: PageElement | null;
    body: PageElement;
    getElementById(id: string): PageElement | null;
    querySelector(selector: string): PageElement | null;
  };
  CSS: { escape(text: string): string };
}

/**
 * Where the focus is, in one round trip to the page: `focused` is null when `target` has it,
 * else the focused element in words (role or tag, id, name) for the failure message; `inside`
 * says whether it is within `root` (true without one).
 */
function focusUnlessOn(
  target: Locator,
  root: ElementHandle | null,
): Promise<{ focused: string | null; inside: boolean }> {
  return target.evaluate((wanted, within) => {
    const { document, CSS } = globalThis as unknown as PageWindow;
    const element = document.activeElement;
    const inside = within === null || (within as unknown as PageElement).contains(element);
    if ((wanted as unknown) === element) return { focused: null, inside };
    if (!element || element === document.body) {
      return { focused: '(nothing: the page body)', inside };
    }
    const labelled = element.getAttribute('aria-labelledby');
    const byLabelFor =
      element.id !== '' ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`) : null;
    const name =
      element.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled.split(' ')[0]!)?.textContent : null) ??
      byLabelFor?.textContent ??
      element.textContent ??
      '';
    const role = element.getAttribute('role') ?? element.tagName.toLowerCase();
    const id = element.id ? `#${element.id}` : '';
    const inDialog = element.closest('[role="dialog"]') ? ' (in a dialog)' : '';
    const words = `${role}${id} "${name.replace(/\s+/g, ' ').trim().slice(0, 60)}"${inDialog}`;
    return { focused: words, inside };
  }, root);
}

/**
 * Presses Tab (Shift+Tab when `backwards`) until `target` has the focus, at most `max` times.
 * With `within`, the focus must never leave that element (a modal dialog keeps it). Fails with
 * the focused elements it passed.
 */
async function tabTo(
  page: Page,
  target: Locator,
  options: { backwards?: boolean; max?: number; within?: Locator } = {},
): Promise<void> {
  const { backwards = false, max = MAX_TABS, within } = options;
  await expect(target).toBeVisible();
  await expect(target).toBeEnabled();
  const key = backwards ? 'Shift+Tab' : 'Tab';
  const passed: string[] = [];
  // The dialog as it is now: the focus is checked against it with each look, not a second call.
  const root = within ? await within.elementHandle() : null;
  try {
    for (let presses = 0; ; presses += 1) {
      const { focused, inside } = await focusUnlessOn(target, root);
      if (focused === null) return;
      passed.push(focused);
      if (!inside) {
        throw new Error(
          `the focus left ${within} while tabbing to ${target}; it passed:\n  ${passed.join('\n  ')}`,
        );
      }
      if (presses === max) break;
      await page.keyboard.press(key);
    }
  } finally {
    await root?.dispose();
  }
  throw new Error(
    `${target} not reached with ${max} × ${key}; the focus passed:\n  ${passed.join('\n  ')}`,
  );
}

/** Tabs to `target` and presses `key` (Enter by default) on it. */
async function pressOn(
  page: Page,
  target: Locator,
  key = 'Enter',
  options: Parameters<typeof tabTo>[2] = {},
): Promise<void> {
  await tabTo(page, target, options);
  await page.keyboard.press(key);
}

/** Tabs to the text box `target` and types `text` into it (empty before). */
async function typeInto(
  page: Page,
  target: Locator,
  text: string,
  options: Parameters<typeof tabTo>[2] = {},
): Promise<void> {
  await tabTo(page, target, options);
  await expect(target).toHaveValue('');
  await page.keyboard.type(text);
  await expect(target).toHaveValue(text);
}

/** Tabs to the checkbox `target` and toggles it with Space to `checked`. */
async function setCheckbox(
  page: Page,
  target: Locator,
  checked: boolean,
  options: Parameters<typeof tabTo>[2] = {},
): Promise<void> {
  await tabTo(page, target, options);
  await expect(target).toBeChecked({ checked: !checked });
  await page.keyboard.press('Space');
  await expect(target).toBeChecked({ checked });
}

/**
 * Picks `option` in the PrimeVue select `combobox` from the keyboard: Tab to it, Enter opens the
 * list, typing `search` (when given) filters it, ArrowDown moves to the option, Enter picks it
 * and closes the list; the focus is back on the combobox.
 */
async function chooseByKeyboard(
  page: Page,
  combobox: Locator,
  option: string | RegExp,
  options: Parameters<typeof tabTo>[2] & { search?: string } = {},
): Promise<void> {
  const { search, ...tabbing } = options;
  await tabTo(page, combobox, tabbing);
  await page.keyboard.press('Enter');
  await expect(combobox).toHaveAttribute('aria-expanded', 'true');
  const listId = await combobox.getAttribute('aria-controls');
  expect(listId, `${combobox} names the list it opens`).toBeTruthy();
  // The list's overlay (appended to the body): the filter box and the list.
  const overlay = page.locator('.p-select-overlay', { has: page.locator(`[id="${listId}"]`) });
  await expect(overlay).toBeVisible();
  if (search !== undefined) {
    // Typing on the combobox goes to the filter box of its list.
    await page.keyboard.type(search);
    const filter = overlay.getByRole('searchbox');
    await expect(filter).toBeFocused();
    await expect(filter).toHaveValue(search);
    await expect(filter).toHaveAccessibleName(/.+/);
  }
  const wanted = overlay.getByRole('option', {
    name: option,
    exact: typeof option === 'string',
  });
  await expect(wanted).toBeVisible();
  const seen: string[] = [];
  // Down the list; at its end (the focus stays put), up.
  let key: 'ArrowDown' | 'ArrowUp' = 'ArrowDown';
  for (let presses = 0; presses <= MAX_TABS; presses += 1) {
    if ((await wanted.getAttribute('data-p-focused')) === 'true') {
      await page.keyboard.press('Enter');
      await expect(combobox).toHaveAttribute('aria-expanded', 'false');
      await expect(combobox).toBeFocused();
      await expect(combobox).toContainText(option);
      return;
    }
    const focused = overlay.locator('[role="option"][data-p-focused="true"]');
    const now = (await focused.count()) > 0 ? await focused.innerText() : '(none)';
    if (seen.length > 0 && seen.at(-1) === now) {
      if (key === 'ArrowUp') break;
      key = 'ArrowUp';
    }
    seen.push(now);
    await page.keyboard.press(key);
  }
  throw new Error(`the arrow keys never reached “${option}” in ${combobox}; they went:\n  ${seen}`);
}

/**
 * Every control of the page (`#app`) and of each open dialog has an accessible name; fails
 * with the unnamed ones. The controls are looked up and checked all at once rather than one
 * round trip after another (some hundred controls a step).
 */
async function expectNamedControls(page: Page, where: string): Promise<void> {
  const scopes = [page.locator('#app'), ...(await page.getByRole('dialog').all())];
  const controls = (
    await Promise.all(
      scopes.flatMap((scope) =>
        CONTROL_ROLES.map(async (role) =>
          (await scope.getByRole(role).all()).map((control) => ({ role, control })),
        ),
      ),
    )
  ).flat();
  const unnamed = (
    await Promise.all(
      controls.map(async ({ role, control }) => {
        try {
          await expect(control).toHaveAccessibleName(/\S/, { timeout: 2_000 });
          return null;
        } catch {
          const html = await control
            .evaluate((element) => element.outerHTML.replace(/\s+/g, ' ').slice(0, 200))
            .catch(() => '(gone)');
          return `${role}: ${html}`;
        }
      }),
    )
  ).filter((found): found is string => found !== null);
  expect(controls.length, `${where}: controls found`).toBeGreaterThan(0);
  expect(unnamed, `${where}: controls without an accessible name`).toEqual([]);
}

test('commissions a new plant from the keyboard alone, every control named', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(300_000);
  await signIn(page, webApp, INSTALLER);
  const suffix = Date.now().toString(36);
  const plantName = `E2E keyboard ${suffix}`;
  let plantUuid: string | undefined;

  try {
    // ── 1. Plant ─────────────────────────────────────────────────────────────────────────────
    await expectNamedControls(page, 'Plants');
    await pressOn(
      page,
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Commissioning' }),
    );
    await expect(stepHeading(page, 'Step 1 of 6: Plant')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Step 2: Sensors' })).toBeDisabled();

    await typeInto(page, page.getByLabel('Name', { exact: true }), plantName);
    // External ids: Enter in the box adds one, so does "Add"; a chip's remove button takes one
    // away and gives the focus back to the box.
    const externalId = page.getByLabel('External id', { exact: true });
    const externalIds = page.getByRole('list', { name: 'External ids' });
    await typeInto(page, externalId, `KB-${suffix}`);
    await page.keyboard.press('Enter');
    await expect(externalIds).toContainText(`KB-${suffix}`);
    await expect(externalId).toBeFocused();
    await expect(externalId).toHaveValue('');
    await page.keyboard.type('KB-spare');
    await pressOn(page, page.getByRole('button', { name: 'Add external id' }), 'Space');
    await expect(externalIds).toContainText('KB-spare');
    await pressOn(page, page.getByRole('button', { name: 'Remove external id KB-spare' }));
    await expect(externalIds).not.toContainText('KB-spare');
    await expect(externalId).toBeFocused();
    await typeInto(page, page.getByLabel('Latitude'), '45.0703');
    await typeInto(page, page.getByLabel('Longitude'), '7.6869');
    const timeZone = page.getByRole('combobox', { name: 'Time zone' });
    // Escape closes the list and keeps what was chosen.
    await tabTo(page, timeZone);
    const zoneBefore = await timeZone.innerText();
    await page.keyboard.press('ArrowDown');
    await expect(timeZone).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(timeZone).toHaveAttribute('aria-expanded', 'false');
    await expect(timeZone).toBeFocused();
    await expect(timeZone).toHaveText(zoneBefore);
    await chooseByKeyboard(page, timeZone, /^Europe\/Rome/, { search: 'Rome' });
    await setCheckbox(page, page.getByLabel('The plant has photovoltaic panels'), true);
    await typeInto(page, page.getByLabel('Peak power (kWp)'), '6');
    // A metadata entry: "Add entry" puts the focus in the new key; its type and value are selects.
    await pressOn(page, page.getByRole('button', { name: 'Add entry (metadata)' }));
    await expect(page.getByRole('textbox', { name: 'Key of metadata entry 1' })).toBeFocused();
    await page.keyboard.type('keyboard only');
    await chooseByKeyboard(
      page,
      page.getByRole('combobox', { name: 'Type of metadata “keyboard only”' }),
      'Yes/no',
    );
    await chooseByKeyboard(
      page,
      page.getByRole('combobox', { name: 'Value of metadata “keyboard only”' }),
      'Yes',
    );
    await expectNamedControls(page, 'Step 1: Plant');
    await screenshot(page, testInfo, '01-plant');
    await pressOn(page, page.getByRole('button', { name: 'Create plant' }));

    // ── 2. Sensors ───────────────────────────────────────────────────────────────────────────
    await expect(stepHeading(page, 'Step 2 of 6: Sensors')).toBeFocused();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Commissioning: ${plantName}`);
    plantUuid = /#\/commission\/([0-9a-f-]{36})\/sensors$/.exec(page.url())?.[1];
    expect(plantUuid).toBeDefined();
    const created = await api<{ externalIds: string[]; metadata: Record<string, unknown> }>(
      page,
      'getPlant',
      { params: { plantUuid } },
    );
    expect(created.externalIds).toEqual([`KB-${suffix}`]);
    expect(created.metadata).toEqual({ 'keyboard only': true });
    await expect(page.getByText('No sensors yet.')).toBeVisible();
    await expectNamedControls(page, 'Step 2: Sensors');

    const addSensorButton = page.getByRole('button', { name: 'Add sensor' });
    const sensorDialog = page.getByRole('dialog', { name: 'New sensor' });

    // Escape closes the dialog, from a closed select too; the focus goes back to the button
    // that opened it.
    await pressOn(page, addSensorButton);
    await expect(sensorDialog).toBeVisible();
    await expect(sensorDialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await tabTo(page, sensorDialog.getByRole('combobox', { name: 'Sensor type', exact: true }), {
      within: sensorDialog,
    });
    await page.keyboard.press('Escape');
    await expect(sensorDialog).toBeHidden();
    await expect(addSensorButton).toBeFocused();

    const addSensor = async (name: string, flow: string, address: string, first: boolean) => {
      await pressOn(page, addSensorButton);
      const dialog = sensorDialog;
      await expect(dialog).toBeVisible();
      // The opened dialog takes the focus (on its Close button).
      await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
      const inDialog = { within: dialog };
      await typeInto(page, dialog.getByLabel('Name', { exact: true }), name, inDialog);
      const sensorType = dialog.getByRole('combobox', { name: 'Sensor type', exact: true });
      if (first) {
        // Escape on an open select closes its list, not the dialog around it.
        await tabTo(page, sensorType, inDialog);
        await page.keyboard.press('Enter');
        await expect(sensorType).toHaveAttribute('aria-expanded', 'true');
        await page.keyboard.press('Escape');
        await expect(sensorType).toHaveAttribute('aria-expanded', 'false');
        await expect(dialog).toBeVisible();
        await expect(sensorType).toBeFocused();
      }
      await chooseByKeyboard(page, sensorType, 'Power meter', inDialog);
      await expect(dialog.getByRole('checkbox', { name: 'Power (W)' })).toBeChecked();
      await setCheckbox(
        page,
        dialog.getByRole('checkbox', { name: 'Voltage (V)' }),
        false,
        inDialog,
      );
      await setCheckbox(
        page,
        dialog.getByRole('checkbox', { name: 'Current (A)' }),
        false,
        inDialog,
      );
      await chooseByKeyboard(
        page,
        dialog.getByRole('combobox', { name: 'Flow', exact: true }),
        flow,
        inDialog,
      );
      // Typing a sim:// address picks the simulator as the connection's vendor.
      await typeInto(page, dialog.getByLabel('Connection address'), address, inDialog);
      await expect(dialog.getByRole('combobox', { name: 'Connection vendor' })).toContainText(
        'PlantDesk simulator',
      );
      if (first) {
        await expectNamedControls(page, 'Step 2: the New sensor dialog');
        await screenshot(page, testInfo, '02a-sensor-dialog');
      }
      await pressOn(page, dialog.getByRole('button', { name: 'Save sensor' }), 'Enter', inDialog);
      await expect(dialog).toBeHidden();
      await expect(addSensorButton).toBeFocused();
      const row = sensorsTable(page).getByRole('row').filter({ hasText: name });
      await expect(row).toContainText(address);
      await expect(row).toContainText('Passed');
      return row;
    };
    const pvRow = await addSensor('PV output', 'Production', `sim://${suffix}/pv`, true);
    await expect(pvRow).toContainText('Power (W)');
    await expect(pvRow).toContainText('Energy (kWh)');
    await addSensor('Grid connection', 'Grid (+ import, − export)', `sim://${suffix}/grid`, false);

    // A sensor added by mistake (no connection yet, test skipped), deleted from its row: the
    // confirmation opens on Cancel; Tab reaches Delete.
    await pressOn(page, addSensorButton);
    await expect(sensorDialog.getByRole('button', { name: 'Close' })).toBeFocused();
    const inSensorDialog = { within: sensorDialog };
    await typeInto(page, sensorDialog.getByLabel('Name', { exact: true }), 'Spare', inSensorDialog);
    await chooseByKeyboard(
      page,
      sensorDialog.getByRole('combobox', { name: 'Sensor type', exact: true }),
      'Power meter',
      inSensorDialog,
    );
    await setCheckbox(
      page,
      sensorDialog.getByRole('checkbox', { name: 'Skip connection test' }),
      true,
      inSensorDialog,
    );
    await pressOn(page, sensorDialog.getByRole('button', { name: 'Save sensor' }), 'Enter', {
      within: sensorDialog,
    });
    await expect(sensorDialog).toBeHidden();
    const spareRow = sensorsTable(page).getByRole('row').filter({ hasText: 'Spare' });
    await expect(spareRow).toContainText('No connection');
    await pressOn(page, spareRow.getByRole('button', { name: 'Delete Spare' }));
    const confirm = page.getByRole('dialog', { name: 'Delete sensor' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNamedControls(page, 'Step 2: the delete confirmation');
    await pressOn(page, confirm.getByRole('button', { name: 'Delete sensor' }), 'Enter', {
      within: confirm,
    });
    await expect(confirm).toBeHidden();
    await expect(spareRow).toHaveCount(0);
    // The deleted row's button is gone: the focus goes to the list's heading.
    await expect(page.getByRole('heading', { name: 'Sensors of this plant' })).toBeFocused();
    await expectNamedControls(page, 'Step 2: Sensors, two sensors');
    await screenshot(page, testInfo, '02-sensors');
    await pressOn(page, page.getByRole('button', { name: 'Next: Devices' }));

    // ── 3. Devices ───────────────────────────────────────────────────────────────────────────
    await expect(stepHeading(page, 'Step 3 of 6: Devices')).toBeFocused();
    await expect(page.getByText('No devices yet.')).toBeVisible();
    await expectNamedControls(page, 'Step 3: Devices');
    const addDeviceButton = page.getByRole('button', { name: 'Add device' });
    const addDevice = async (type: string, serial: string, sensorName: string, first: boolean) => {
      await pressOn(page, addDeviceButton);
      const dialog = page.getByRole('dialog', { name: 'New device' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
      const inDialog = { within: dialog };
      await chooseByKeyboard(
        page,
        dialog.getByRole('combobox', { name: 'Device type', exact: true }),
        type,
        inDialog,
      );
      if (first) {
        // A vendor chosen by mistake is cleared from the keyboard.
        const vendor = dialog.getByRole('combobox', { name: 'Vendor', exact: true });
        await chooseByKeyboard(page, vendor, 'Fronius Solar API', inDialog);
        await pressOn(
          page,
          dialog.getByRole('button', { name: 'Clear Vendor' }),
          'Enter',
          inDialog,
        );
        await expect(vendor).toHaveText('No vendor');
        await expect(vendor).toBeFocused();
      }
      await typeInto(page, dialog.getByLabel('Serial number'), serial, inDialog);
      await setCheckbox(page, dialog.getByRole('checkbox', { name: sensorName }), true, inDialog);
      if (first) {
        await expectNamedControls(page, 'Step 3: the New device dialog');
        await screenshot(page, testInfo, '03a-device-dialog');
      }
      await pressOn(page, dialog.getByRole('button', { name: 'Save device' }), 'Enter', inDialog);
      await expect(dialog).toBeHidden();
      await expect(addDeviceButton).toBeFocused();
      const row = page.getByRole('row').filter({ hasText: serial });
      await expect(row).toContainText(type);
      await expect(row).toContainText(sensorName);
    };
    await addDevice('PV inverter', `INV-${suffix}`, 'PV output', true);
    await addDevice('Grid meter', `MTR-${suffix}`, 'Grid connection', false);
    await expectNamedControls(page, 'Step 3: Devices, two devices');
    await screenshot(page, testInfo, '03-devices');
    await pressOn(page, page.getByRole('button', { name: 'Next: Vendor integrations' }));

    // ── 4. Vendor integrations: the simulator needs none; the Available tab is looked at ──────
    await expect(stepHeading(page, 'Step 4 of 6: Vendor integrations')).toBeFocused();
    // Arrow keys move between the tabs; Enter opens one.
    await tabTo(page, page.getByRole('tab', { name: /^Configured/ }));
    await page.keyboard.press('ArrowRight');
    const availableTab = page.getByRole('tab', { name: /^Available/ });
    await expect(availableTab).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(availableTab).toHaveAttribute('aria-selected', 'true');
    const availableVendors = page.getByRole('table', { name: 'Available vendors' });
    await expect(availableVendors).toBeVisible();
    await expectNamedControls(page, 'Step 4: Vendor integrations');
    await screenshot(page, testInfo, '04-vendors');
    // A vendor with a switch and a secret, configured from the keyboard.
    await pressOn(page, availableVendors.getByRole('button', { name: 'Configure Shelly' }));
    const vendorDialog = page.getByRole('dialog', { name: 'Configure Shelly' });
    await expect(vendorDialog.getByRole('button', { name: 'Close' })).toBeFocused();
    const inVendorDialog = { within: vendorDialog };
    const authSwitch = vendorDialog.getByRole('switch', { name: 'Authentication enabled' });
    await setCheckbox(page, authSwitch, true, inVendorDialog);
    await typeInto(page, vendorDialog.getByLabel('Device password'), 'kb-secret', inVendorDialog);
    await expectNamedControls(page, 'Step 4: the vendor configuration dialog');
    await screenshot(page, testInfo, '04a-vendor-dialog');
    await pressOn(
      page,
      vendorDialog.getByRole('button', { name: 'Configure', exact: true }),
      'Enter',
      inVendorDialog,
    );
    await expect(vendorDialog).toBeHidden();
    const configuredVendors = page.getByRole('table', { name: 'Configured vendors' });
    await expect(configuredVendors.getByRole('row').filter({ hasText: 'Shelly' })).toContainText(
      '(stored)',
    );
    // The Configure button went with the Available tab: the focus is on the Configured tab.
    await expect(page.getByRole('tab', { name: /^Configured/ })).toBeFocused();
    await pressOn(page, page.getByRole('button', { name: 'Next: Verification' }));

    // ── 5. Verification: every check passes (first readings within seconds, bounded) ─────
    await expect(stepHeading(page, 'Step 5 of 6: Verification')).toBeFocused();
    await expect(page.getByText(/^Verification (passed|failed)/)).toBeVisible({ timeout: 30_000 });
    const checkAgain = page.getByRole('button', { name: 'Check again' });
    const deadline = Date.now() + FIRST_READINGS_MS;
    for (
      let round = 0;
      round === 0 || !(await page.getByText(/^Verification passed/).isVisible());
      round += 1
    ) {
      if (Date.now() > deadline) {
        await screenshot(page, testInfo, '05-verification-failed');
        throw new Error(
          `the checks did not pass in time:\n${await page.locator('ol').last().innerText()}`,
        );
      }
      if (round > 0) await page.waitForTimeout(5_000);
      await pressOn(page, checkAgain);
      await expect(checkAgain).toBeEnabled({ timeout: 30_000 });
      // The button keeps the focus through the check: pressing again needs no search.
      await expect(checkAgain).toBeFocused();
    }
    const checks = page.getByRole('list', { name: 'Commissioning checks' }).locator('> li');
    await expect(checks).toHaveCount(5);
    for (const item of await checks.all()) await expect(item).toContainText('PASS');
    await expectNamedControls(page, 'Step 5: Verification');
    await screenshot(page, testInfo, '05-verification');
    await pressOn(page, page.getByRole('button', { name: 'Next: Report' }));

    // ── 6. Report ────────────────────────────────────────────────────────────────────────────
    await expect(stepHeading(page, 'Step 6 of 6: Report')).toBeFocused();
    const report = page.getByRole('article', { name: `Commissioning report: ${plantName}` });
    await expect(report).toBeVisible({ timeout: 30_000 });
    await expect(report).toContainText('Europe/Rome');
    await expect(report).toContainText('6 kWp');
    await expect(report).toContainText(`INV-${suffix}`);
    await expect(report).toContainText(`MTR-${suffix}`);
    await expect(report).toContainText(`${INSTALLER.name} <${INSTALLER.email}>`);
    await expect(report).toContainText('PASSED: all 5 checks passed');
    await expectNamedControls(page, 'Step 6: Report');
    await screenshot(page, testInfo, '06-report');

    // In the browser, "Save as PDF" is the print dialog (stubbed: a headless browser has none).
    await page.evaluate(() => {
      const browser = globalThis as unknown as { print: () => void; printCalls: number };
      browser.printCalls = 0;
      browser.print = () => {
        browser.printCalls += 1;
      };
    });
    // Space activates a button as Enter does.
    await pressOn(page, page.getByRole('button', { name: 'Save as PDF' }), 'Space');
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { printCalls: number }).printCalls))
      .toBe(1);
    await expect(page.getByText('The print dialog opened')).toBeVisible();

    // Back, from the keyboard: Shift+Tab reaches the step list's Verification step.
    await pressOn(page, page.getByRole('tab', { name: 'Step 5: Verification' }), 'Enter', {
      backwards: true,
    });
    await expect(stepHeading(page, 'Step 5 of 6: Verification')).toBeFocused();
    await pressOn(page, page.getByRole('button', { name: 'Next: Report' }));
    await expect(stepHeading(page, 'Step 6 of 6: Report')).toBeFocused();

    // The wizard ends on the plant's own page.
    await pressOn(page, page.getByRole('link', { name: 'Open the plant' }));
    await expect(page).toHaveURL(new RegExp(`#/plants/${plantUuid}`));
    await screenshot(page, testInfo, '07-plant');

    // A later visit resumes the commissioning: the existing plant is found by typing.
    await pressOn(
      page,
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Commissioning' }),
    );
    await expect(stepHeading(page, 'Step 1 of 6: Plant')).toBeVisible();
    await chooseByKeyboard(
      page,
      page.getByRole('combobox', { name: 'Existing plant', exact: true }),
      plantName,
      { search: suffix },
    );
    await pressOn(page, page.getByRole('button', { name: 'Continue commissioning' }));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Commissioning: ${plantName}`);
    await expect(stepHeading(page, 'Step 1 of 6: Plant')).toBeFocused();
    await pressOn(page, page.getByRole('tab', { name: 'Step 6: Report' }), 'Enter', {
      backwards: true,
    });
    await expect(stepHeading(page, 'Step 6 of 6: Report')).toBeFocused();
    await expect(
      page.getByRole('article', { name: `Commissioning report: ${plantName}` }),
    ).toBeVisible({ timeout: 30_000 });
    await screenshot(page, testInfo, '08-resumed-report');
  } finally {
    if (plantUuid) {
      await api(page, 'deletePlant', { params: { plantUuid } }).catch(() => {});
    }
  }
});
