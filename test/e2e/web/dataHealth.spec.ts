import type { Page } from '@playwright/test';
import { ACCOUNTS, api, screenshot, signIn } from '../support/shell.ts';
import { expect, test } from '../support/webApp.ts';

/**
 * The data-health section in browser mode, the host and its Local sandbox pinned to noon in
 * Bolzano (Europe/Rome) the day after the clocks went forward: a meter fed through the API with
 * a two-hour hole on the 23-hour day shows that day's cell below full coverage, named with
 * sensor, date and coverage, and the gap with its start, end and length in the plant's zone.
 */

const CLOCK = '2026-03-30T12:00:00+02:00';
/** 2026-03-28 00:00 in Rome. */
const FROM = Date.parse('2026-03-27T23:00:00Z');
const NOW = Date.parse(CLOCK);
/** 04:00 to 06:00 CEST on 2026-03-29. */
const HOLE = [Date.parse('2026-03-29T02:00:00Z'), Date.parse('2026-03-29T04:00:00Z')] as const;
const METER = 'Crafted meter';

test.use({ hostClock: CLOCK });

interface Page_<T> {
  content: T[];
}

async function feedCraftedMeter(page: Page): Promise<string> {
  const plants = await api<Page_<{ plantUuid: string; name: string }>>(page, 'listPlants', {});
  const plantUuid = plants.content.find((plant) => plant.name === 'Demo Home')!.plantUuid;
  const sensorTypes = await api<Page_<{ sensorTypeUuid: string; code: string }>>(
    page,
    'listSensorTypes',
    { query: { size: 200 } },
  );
  const dataTypes = await api<Page_<{ dataTypesCollectUuid: string; code: string }>>(
    page,
    'listDataTypesCollects',
    { query: { size: 200 } },
  );
  const sensor = await api<{ sensorUuid: string }>(page, 'createSensor', {
    params: { plantUuid },
    body: {
      name: METER,
      sensorTypeUuid: sensorTypes.content.find((type) => type.code === 'POWER_METER')!
        .sensorTypeUuid,
      dataTypesCollectUuids: [
        dataTypes.content.find((type) => type.code === 'POWER')!.dataTypesCollectUuid,
      ],
      flow: 'CONSUMPTION',
      samplingIntervalSeconds: 60,
    },
  });
  const readings: { timestamp: string; value: number }[] = [];
  for (let at = FROM; at <= NOW - 60_000; at += 60_000) {
    if (at >= HOLE[0] && at < HOLE[1]) continue;
    readings.push({ timestamp: new Date(at).toISOString(), value: 300 + ((at / 60_000) % 17) });
  }
  for (let index = 0; index < readings.length; index += 10_000) {
    await api(page, 'ingestReadings', {
      params: { plantUuid, sensorUuid: sensor.sensorUuid },
      body: { readings: readings.slice(index, index + 10_000) },
    });
  }
  return plantUuid;
}

test('a crafted gap shows on the heat map and in the gaps list, in the plant’s zone', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp, ACCOUNTS.installer);
  const plantUuid = await feedCraftedMeter(page);

  // The plant's page, then its Data health section.
  await page.goto(`${webApp.origin}/#/plants/${plantUuid}`);
  await page
    .getByRole('navigation', { name: 'Plant sections' })
    .getByRole('link', { name: 'Data health' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/plants/${plantUuid}/data-health`));

  const grid = page.getByRole('grid', { name: 'Coverage per sensor and day' });
  await expect(grid).toBeVisible({ timeout: 30_000 });
  // 2 hours of 23 are missing on the spring day; the day before is whole.
  await expect(
    grid.getByRole('gridcell', { name: `${METER}, Mar 29, 2026: 91.3% with data` }),
  ).toBeVisible();
  await expect(
    grid.getByRole('gridcell', { name: `${METER}, Mar 28, 2026: 100% with data` }),
  ).toBeVisible();

  // The keyboard reaches every cell: one tab stop, then the arrow keys.
  const today = grid.getByRole('gridcell', { name: /^Battery power, Mar 30, 2026/ });
  await today.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(grid.getByRole('gridcell', { name: /^Battery power, Mar 29, 2026/ })).toBeFocused();

  const findings = page.getByRole('region', { name: METER });
  const gaps = findings.getByRole('table', { name: /^Gaps/ });
  // The meter reports from 28 March on: its only gap is the hole.
  await expect(gaps.getByRole('row')).toHaveCount(2);
  await expect(gaps.getByRole('row').nth(1)).toHaveText(
    /Mar 29, 2026, 3:59\s?AM.*Mar 29, 2026, 6:00\s?AM.*2 hr, 1 min/,
  );
  await screenshot(page, testInfo, 'data-health');
});
