import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, api, screenshot, signIn } from '../support/shell.ts';

/**
 * Wiring checks against the Local sandbox, in browser mode: a plant whose grid meter reads
 * import while the plant exports (a current transformer mounted backwards) fails the grid-sign
 * check in the verification step, with the numbers it compared; "Record as inverted" sets the
 * sensor's `signInverted`, the server negates its readings, and the check passes.
 *
 * The readings of the last 15 minutes are posted through the readings route at the host's
 * clock (a vendor other than the simulator, so nothing else writes them): the checks have their
 * minutes at once instead of waiting for a simulator that starts at the sensors' creation.
 */

/** Summer noon in Turin: the PV exports, so the grid meter's sign is plain to judge. */
test.use({ hostClock: '2026-06-21T12:00:00+02:00' });

/** A clear June noon near Turin: 4 kW of PV, 0.9 kW of house load, 3.1 kW exported. */
const PV_W = 4000;
const HOUSE_W = 900;
const MINUTE_MS = 60_000;

interface Page<T> {
  content: T[];
}

test('a reversed grid meter fails the grid-sign check; recorded as inverted, it passes', async ({
  page,
  webApp,
}, testInfo) => {
  test.setTimeout(240_000);
  await signIn(page, webApp, ACCOUNTS.installer);
  const suffix = Date.now().toString(36);
  const list = <T>(route: string) =>
    api<Page<T>>(page, route, { query: { size: 100 } }).then((answer) => answer.content);

  const [sensorTypes, dataTypes, deviceTypes, vendors] = await Promise.all([
    list<{ sensorTypeUuid: string; code: string }>('listSensorTypes'),
    list<{ dataTypesCollectUuid: string; code: string }>('listDataTypesCollects'),
    list<{ deviceTypeUuid: string; code: string }>('listDeviceTypes'),
    list<{ vendorUuid: string; code: string }>('listVendors'),
  ]);
  const powerMeter = sensorTypes.find((type) => type.code === 'POWER_METER')!;
  const power = dataTypes.find((type) => type.code === 'POWER')!;
  const inverterType = deviceTypes.find((type) => type.code === 'INVERTER')!;
  const meterType = deviceTypes.find((type) => type.code === 'METER')!;
  const shelly = vendors.find((vendor) => vendor.code === 'SHELLY')!;

  const plant = await api<{ plantUuid: string }>(page, 'createPlant', {
    body: {
      name: `E2E reversed grid ${suffix}`,
      externalIds: [],
      location: { latitude: 45.0703, longitude: 7.6869, timezone: 'Europe/Rome', altitudeM: 240 },
      pv: { peakPowerKw: 6, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
      metadata: {},
    },
  });
  const params = { plantUuid: plant.plantUuid };
  try {
    const device = (name: string, deviceTypeUuid: string) =>
      api<{ deviceUuid: string }>(page, 'createDevice', {
        params,
        body: { name, deviceTypeUuid, serialNumber: `${name}-${suffix}` },
      });
    const inverter = await device('Inverter', inverterType.deviceTypeUuid);
    const meter = await device('Grid meter', meterType.deviceTypeUuid);
    const sensor = (
      name: string,
      flow: string,
      path: string,
      deviceUuid: string | null,
      metadata: Record<string, unknown> = {},
    ) =>
      api<{ sensorUuid: string }>(page, 'createSensor', {
        params,
        body: {
          name,
          sensorTypeUuid: powerMeter.sensorTypeUuid,
          dataTypesCollectUuids: [power.dataTypesCollectUuid],
          flow,
          deviceUuid,
          samplingIntervalSeconds: 60,
          connection: { vendorUuid: shelly.vendorUuid, address: `192.0.2.10/${path}` },
          metadata,
        },
        query: { ignoreConnectionsTest: true },
      });
    const pv = await sensor('PV output', 'PRODUCTION', 'pv', inverter.deviceUuid);
    const house = await sensor('House', 'CONSUMPTION', 'consumption', null);
    const grid = await sensor('Grid connection', 'GRID', 'grid', meter.deviceUuid);

    // Fifteen minutes of readings up to the host's clock, the grid meter's the wrong way round
    // (import +: the plant exports, so it should read about −3.1 kW).
    const statuses = await api<{ evaluatedAt: string }>(page, 'listSensorStatuses', { params });
    const lastMinute = Math.floor(Date.parse(statuses.evaluatedAt) / MINUTE_MS) * MINUTE_MS;
    const post = (sensorUuid: string, valueAt: (minute: number) => number) =>
      api(page, 'ingestReadings', {
        params: { ...params, sensorUuid },
        body: {
          readings: Array.from({ length: 15 }, (_, index) => ({
            timestamp: new Date(lastMinute - (14 - index) * MINUTE_MS).toISOString(),
            value: valueAt(index),
          })),
        },
      });
    const wobble = (minute: number) => 40 * Math.sin(minute);
    await post(pv.sensorUuid, (minute) => PV_W + wobble(minute));
    await post(house.sensorUuid, (minute) => HOUSE_W - wobble(minute));
    await post(grid.sensorUuid, (minute) => PV_W - HOUSE_W + 2 * wobble(minute));

    await page.goto(`${webApp.url}#/commission/${plant.plantUuid}/verification`);
    await expect(
      page.getByRole('heading', { level: 2, name: 'Step 5 of 6: Verification' }),
    ).toBeVisible();
    const live = page.locator('[data-live-readings]');
    await expect(live.getByRole('row', { name: /Grid connection/ })).toBeVisible({
      timeout: 60_000,
    });

    // The live readings are read again every 10 s, and the checks with them.
    const gridSign = page.locator('[data-wiring-check="gridSign"]');
    await expect(gridSign).toHaveAttribute('data-status', 'fail', { timeout: 30_000 });
    await expect(gridSign).toContainText('FAIL');
    await expect(gridSign).toContainText('mounted backwards');
    const figures = gridSign.getByRole('definition');
    await expect(gridSign).toContainText('grid meter, mean (import +)');
    await expect(gridSign).toContainText('consumption − production − battery, mean');
    await expect(gridSign).toContainText('minutes contradicting');
    // The grid meter and what production and consumption say have opposite signs.
    const [gridMean, implied] = await Promise.all([
      figures.nth(0).innerText(),
      figures.nth(1).innerText(),
    ]);
    const number = (text: string) => Number(text.replace(/[^\d.-]/g, ''));
    expect(Math.sign(number(gridMean))).toBe(-Math.sign(number(implied)));
    await expect(page.getByText(/5 % of the largest flow, and at least 100 W/)).toBeVisible();
    await screenshot(page, testInfo, 'wiring-grid-reversed');

    await page.getByRole('button', { name: 'Record Grid connection as inverted' }).click();
    await expect(page.getByText('Grid connection recorded as inverted')).toBeVisible();
    // The server negated its stored readings: the check passes on the next live load.
    await expect(gridSign).toHaveAttribute('data-status', 'pass', { timeout: 60_000 });
    await expect(gridSign).toContainText('PASS');
    const saved = await api<{ signInverted?: boolean }>(page, 'getSensor', {
      params: { ...params, sensorUuid: grid.sensorUuid },
    });
    expect(saved.signInverted).toBe(true);
    await screenshot(page, testInfo, 'wiring-grid-inverted');
  } finally {
    await api(page, 'deletePlant', { params }).catch(() => {});
  }
});
