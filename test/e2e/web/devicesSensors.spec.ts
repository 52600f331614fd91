import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, api, choose, screenshot, sensorsTable, signIn } from '../support/shell.ts';

/**
 * Devices and sensors of a plant, in browser mode against the Local sandbox, as the installer:
 * on a new plant (created through the bridge), a sensor at a sim:// address after a failed
 * connection test, a device linking it, the relationship columns on both pages, unlinking, and
 * deleting both. Screenshots of each screen are attached.
 */

test.describe.configure({ mode: 'serial' });

test('creates, links, unlinks and deletes a sensor and a device on a new plant', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.installer);
  const plantName = `E2E devices ${Date.now().toString(36)}`;
  const plant = await api<{ plantUuid: string }>(page, 'createPlant', {
    body: {
      name: plantName,
      location: { latitude: 47.37, longitude: 8.54, timezone: 'Europe/Zurich' },
    },
  });

  try {
    // ── Sensors: empty, then a sensor whose connection test fails, then passes ──────────────
    await page.goto(`${webApp.origin}/#/plants/${plant.plantUuid}/sensors`);
    await expect(page.getByRole('heading', { name: plantName })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sensors', exact: true })).toBeVisible();
    await expect(page.getByText('This plant has no sensors yet.')).toBeVisible();
    await screenshot(page, testInfo, '01-sensors-empty');

    await page.getByRole('button', { name: 'Create sensor' }).click();
    const sensorDialog = page.getByRole('dialog', { name: 'New sensor' });
    await expect(sensorDialog).toBeVisible();
    await sensorDialog.getByLabel('Name', { exact: true }).fill('PV production');
    await choose(page, 'Sensor type', 'Power meter');
    // The data types are the ones a power meter allows, each with its unit.
    await expect(sensorDialog.getByRole('checkbox', { name: 'Power (W)' })).toBeChecked();
    await expect(sensorDialog.getByRole('checkbox', { name: 'Energy (kWh)' })).toBeChecked();
    await expect(sensorDialog.getByRole('checkbox', { name: 'Temperature (°C)' })).toHaveCount(0);
    await sensorDialog.getByRole('checkbox', { name: 'Voltage (V)' }).uncheck();
    await sensorDialog.getByRole('checkbox', { name: 'Current (A)' }).uncheck();
    await choose(page, 'Flow', 'Production');

    // A connection the simulator refuses: the server's 422 lands on the connection.
    await choose(page, 'Connection vendor', 'PlantDesk simulator');
    await sensorDialog.getByLabel('Connection address').fill('modbus://127.0.0.1:1');
    await sensorDialog.getByRole('button', { name: 'Save sensor' }).click();
    await expect(
      sensorDialog.getByRole('alert').filter({ hasText: 'Connection test of' }),
    ).toBeVisible();
    await expect(sensorDialog.getByLabel('Connection address')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(sensorDialog.getByText('Connection test failed.')).toBeVisible();
    await screenshot(page, testInfo, '02-sensor-connection-failed');

    await sensorDialog.getByLabel('Connection address').fill('sim://e2e-plant/pv');
    await sensorDialog.getByRole('button', { name: 'Save sensor' }).click();
    await expect(sensorDialog).toBeHidden();

    const sensorRow = sensorsTable(page).getByRole('row').filter({ hasText: 'PV production' });
    await expect(sensorRow).toContainText('Power meter');
    await expect(sensorRow).toContainText('Power (W)');
    await expect(sensorRow).toContainText('Energy (kWh)');
    await expect(sensorRow).toContainText('Production');
    await expect(sensorRow).toContainText('sim://e2e-plant/pv');
    await expect(sensorRow).toContainText('Plant level');
    await screenshot(page, testInfo, '03-sensors-list');

    // ── Devices: a PV inverter linking the sensor ────────────────────────────────────────────
    await page
      .getByRole('navigation', { name: 'Plant sections' })
      .getByRole('link', { name: 'Devices' })
      .click();
    await expect(page.getByRole('heading', { name: 'Devices', exact: true })).toBeVisible();
    await expect(page.getByText('This plant has no devices yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Create device' }).click();
    const deviceDialog = page.getByRole('dialog', { name: 'New device' });
    await choose(page, 'Device type', 'PV inverter');
    await choose(page, 'Vendor', 'PlantDesk simulator');
    await deviceDialog.getByLabel('Model', { exact: true }).fill('Sim 8K');
    await deviceDialog.getByLabel('Serial number').fill('E2E-INV-1');
    await deviceDialog.getByLabel('Rated power (W)').fill('8000');
    await deviceDialog.getByRole('checkbox', { name: 'PV production' }).check();
    await screenshot(page, testInfo, '04-device-form');
    await deviceDialog.getByRole('button', { name: 'Save device' }).click();
    await expect(deviceDialog).toBeHidden();

    const deviceRow = page.getByRole('row').filter({ hasText: 'E2E-INV-1' });
    await expect(deviceRow).toContainText('PV inverter');
    await expect(deviceRow).toContainText('PlantDesk simulator');
    await expect(deviceRow).toContainText('PV production · Production');
    await screenshot(page, testInfo, '05-devices-list');

    // ── Back on the sensors: the device column, then unlink ──────────────────────────────────
    await page
      .getByRole('navigation', { name: 'Plant sections' })
      .getByRole('link', { name: 'Sensors' })
      .click();
    await expect(sensorRow).toContainText('PV inverter');
    await page.getByRole('button', { name: 'Unlink PV production' }).click();
    await expect(sensorRow).toContainText('Plant level');
    await screenshot(page, testInfo, '06-sensor-unlinked');

    // Link again from the sensor row, through its "Link…" button and dialog.
    await page.getByRole('button', { name: 'Link PV production to a device' }).click();
    const linkDialog = page.getByRole('dialog', { name: 'Link PV production to a device' });
    await choose(page, 'Device', 'PV inverter');
    await linkDialog.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(linkDialog).toBeHidden();
    await expect(sensorRow).toContainText('PV inverter');

    // ── Delete the sensor, then the device ───────────────────────────────────────────────────
    await page.getByRole('button', { name: 'Delete PV production' }).click();
    await page
      .getByRole('dialog', { name: 'Delete sensor' })
      .getByRole('button', { name: 'Delete sensor' })
      .click();
    await expect(page.getByText('This plant has no sensors yet.')).toBeVisible();

    await page
      .getByRole('navigation', { name: 'Plant sections' })
      .getByRole('link', { name: 'Devices' })
      .click();
    await expect(deviceRow).toContainText('No sensor');
    await page.getByRole('button', { name: 'Delete PV inverter' }).click();
    await page
      .getByRole('dialog', { name: 'Delete device' })
      .getByRole('button', { name: 'Delete device' })
      .click();
    await expect(page.getByText('This plant has no devices yet.')).toBeVisible();
    await screenshot(page, testInfo, '07-devices-empty');
  } finally {
    await api(page, 'deletePlant', { params: { plantUuid: plant.plantUuid } }).catch(() => {});
  }
});
