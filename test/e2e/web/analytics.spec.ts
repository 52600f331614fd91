import fs from 'node:fs';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { DateTime } from 'luxon';
import { formatEnergy } from '../../../renderer/src/charts/units.ts';
import { expect, hostNow, rpc, test, type WebApp } from '../support/webApp.ts';

/**
 * Analytics of Demo Home in browser mode against the Local sandbox, as the manager (read-only):
 * changing the range, the granularity and `consumerOnly` changes the requests and the charts
 * (their accessible names and text summaries), the point cap's suggestion switches granularity,
 * and the CSV exports hold the API's own numbers and timestamps (compared with the same routes
 * called through the host). Screenshots of each screen are attached.
 */

const MANAGER = { email: 'manager@plantdesk.test', password: 'manager-pass-1' };
/** The first start writes the sandbox's simulated history before it listens. */
const SANDBOX_START_MS = 90_000;

test.describe.configure({ mode: 'serial' });

/**
 * "Today" and the quick ranges are the plant's local days: the app runs on New Year's Day, so
 * the last 7 days, the previous period and the history window all cross the turn of the year.
 */
test.use({ hostClock: '2027-01-01T09:00:00+01:00' });

interface SeriesAnswer {
  timezone: string;
  unit: string;
  points: { timestamp: string; value: number | null; coverage: number }[];
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Sign in to PlantDesk' })).toBeVisible();
  await expect(page.getByText('Local sandbox: Running')).toBeVisible({ timeout: SANDBOX_START_MS });
  await page.getByLabel('Email', { exact: true }).fill(MANAGER.email);
  await page.getByLabel('Password', { exact: true }).fill(MANAGER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The first screen after signing in: the fleet's chunks and first page on a cold host.
  await expect(page.getByRole('heading', { name: 'Fleet' })).toBeVisible({ timeout: 60_000 });
}

/** A route of the API through the host's own channel, as the signed-in user. */
async function api<T>(webApp: WebApp, route: string, input: unknown): Promise<T> {
  const envelope = (await rpc(webApp, 'api.call', [route, input])) as {
    ok: boolean;
    value?: unknown;
    error?: unknown;
  };
  if (!envelope.ok) throw new Error(`${route} failed: ${JSON.stringify(envelope.error)}`);
  return envelope.value as T;
}

/** Every `api.call` the page makes: its route and query. */
function recordCalls(page: Page): { route: string; query: Record<string, unknown> }[] {
  const calls: { route: string; query: Record<string, unknown> }[] = [];
  page.on('request', (request) => {
    if (!request.url().endsWith('/rpc/api.call')) return;
    const [route, input] = request.postDataJSON() as [string, { query?: Record<string, unknown> }];
    calls.push({ route, query: input?.query ?? {} });
  });
  return calls;
}

/** RFC 4180, enough for the exports: quoted fields with doubled quotes, CRLF lines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r') continue;
    else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** Clicks the card's "Export CSV" and reads the downloaded file. */
async function exportCsv(page: Page, card: Locator): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), rows: parseCsv(fs.readFileSync(file, 'utf8')) };
}

/** The CSV's data rows equal the API's points: same ISO timestamps, same numbers, '' for null. */
function expectCsvEqualsSeries(rows: string[][], header: string, series: SeriesAnswer): void {
  expect(rows[0]).toEqual(['timestamp', header]);
  const data = rows.slice(1);
  expect(data).toHaveLength(series.points.length);
  data.forEach(([timestamp, value], index) => {
    const point = series.points[index]!;
    expect(timestamp).toBe(point.timestamp);
    if (point.value === null) expect(value).toBe('');
    else expect(Number(value)).toBe(point.value);
  });
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function demoHome(webApp: WebApp): Promise<{ plantUuid: string; zone: string }> {
  const plants = await api<{
    content: { plantUuid: string; name: string; location: { timezone: string } }[];
  }>(webApp, 'listPlants', { query: { search: 'Demo Home' } });
  const plant = plants.content.find((each) => each.name === 'Demo Home');
  expect(plant).toBeDefined();
  return { plantUuid: plant!.plantUuid, zone: plant!.location.timezone };
}

test('range summary: the range and the comparison change the charts; CSV equals the API', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp.url);
  const { plantUuid, zone } = await demoHome(webApp);
  const today = DateTime.fromMillis(await hostNow(webApp), { zone });
  const from = today.minus({ days: 14 }).toISODate()!;
  const to = today.minus({ days: 1 }).toISODate()!;
  const calls = recordCalls(page);

  await page.goto(`${webApp.origin}/#/plants/${plantUuid}/analytics/summary?from=${from}&to=${to}`);
  await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
  await expect(page.getByText(`Times in ${zone}`).first()).toBeVisible();
  const consumptionCard = page.getByRole('region', { name: 'Consumption per day' });
  const productionCard = page.getByRole('region', { name: 'Production per day' });
  await expect(consumptionCard).toHaveAttribute('data-state', 'ready');
  await expect(productionCard).toHaveAttribute('data-state', 'ready');
  expect(calls.filter((call) => call.route === 'summaryConsumption')).toContainEqual({
    route: 'summaryConsumption',
    query: { startDate: from, endDate: to },
  });

  // The chart's text alternative and the totals hold the API's numbers.
  const consumption = await api<SeriesAnswer>(webApp, 'summaryConsumption', {
    params: { plantUuid },
    query: { startDate: from, endDate: to },
  });
  expect(consumption.points).toHaveLength(14);
  const consumptionChart = consumptionCard.getByRole('img', { name: /^Consumption per day/ });
  await expect(consumptionChart).toHaveAccessibleDescription(/Consumption: 14 points from/);
  const total = consumption.points.reduce((sum, point) => sum + (point.value ?? 0), 0);
  const totalsRow = page.getByRole('row', { name: /^Consumption/ });
  await expect(totalsRow).toContainText(formatEnergy(total));
  await screenshot(page, testInfo, '01-summary-14-days');

  // CSV: exactly the API's days and kWh, with their offsets.
  const csv = await exportCsv(page, consumptionCard);
  expect(csv.name).toBe(`consumption-per-day-${from}-to-${to}.csv`);
  expectCsvEqualsSeries(csv.rows, 'Consumption (kWh)', consumption);

  // A quick range: 7 days ending today, one request for it, a 7-point chart.
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  const weekStart = today.minus({ days: 6 }).toISODate()!;
  await expect(page).toHaveURL(new RegExp(`from=${weekStart}&to=${today.toISODate()}`));
  await expect(consumptionChart).toHaveAccessibleDescription(/Consumption: 7 points from/);
  expect(calls).toContainEqual({
    route: 'summaryConsumption',
    query: { startDate: weekStart, endDate: today.toISODate() },
  });
  expect(calls).toContainEqual({
    route: 'summaryProduction',
    query: { startDate: weekStart, endDate: today.toISODate() },
  });

  // Compare with the previous week: its range is asked for and drawn as a second dataset.
  await choose(page, 'Compare with', 'Previous week');
  const previousStart = today.minus({ days: 13 }).toISODate()!;
  const previousEnd = today.minus({ days: 7 }).toISODate()!;
  await expect(consumptionChart).toHaveAccessibleDescription(/Consumption, previous week/);
  expect(calls).toContainEqual({
    route: 'summaryConsumption',
    query: { startDate: previousStart, endDate: previousEnd },
  });
  await expect(page.getByRole('columnheader', { name: 'Change' })).toBeVisible();
  await screenshot(page, testInfo, '02-summary-compare-previous-week');

  // The production CSV now has the previous week's column too, its days moved onto this week's.
  const production = await api<SeriesAnswer>(webApp, 'summaryProduction', {
    params: { plantUuid },
    query: { startDate: weekStart, endDate: today.toISODate() },
  });
  const previousProduction = await api<SeriesAnswer>(webApp, 'summaryProduction', {
    params: { plantUuid },
    query: { startDate: previousStart, endDate: previousEnd },
  });
  const productionCsv = await exportCsv(page, productionCard);
  expect(productionCsv.rows[0]![1]).toBe('Production (kWh)');
  expect(productionCsv.rows[0]![2]).toMatch(/^Production, previous week \(.+\) \(kWh\)$/);
  productionCsv.rows.slice(1).forEach(([timestamp, value, previous], index) => {
    expect(timestamp).toBe(production.points[index]!.timestamp);
    expect(value === '' ? null : Number(value)).toBe(production.points[index]!.value);
    expect(previous === '' ? null : Number(previous)).toBe(previousProduction.points[index]!.value);
  });

  // The link keeps the choices: a reload shows the same.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Compare with' })).toHaveText('Previous week');
  await expect(consumptionChart).toHaveAccessibleDescription(/Consumption: 7 points from/);
});

test('sensor history: granularity and the point cap change the request; CSV equals the API', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp.url);
  const { plantUuid, zone } = await demoHome(webApp);
  const today = DateTime.fromMillis(await hostNow(webApp), { zone }).startOf('day');
  const start = today.minus({ days: 2 }).toFormat("yyyy-MM-dd'T'HH:mm");
  const end = today.toFormat("yyyy-MM-dd'T'HH:mm");
  const calls = recordCalls(page);

  await page.goto(
    `${webApp.origin}/#/plants/${plantUuid}/analytics/history?start=${start}&end=${end}&granularity=hours`,
  );
  const consumptionCard = page.getByRole('region', { name: 'Consumption power' });
  await expect(consumptionCard).toHaveAttribute('data-state', 'ready');
  const hourly = await api<SeriesAnswer>(webApp, 'historyConsumption', {
    params: { plantUuid },
    query: { startDate: start, endDate: end, granularity: 'hours' },
  });
  const chart = consumptionCard.getByRole('img', { name: /^Consumption power at hours/ });
  await expect(chart).toHaveAccessibleDescription(
    new RegExp(`Consumption: ${hourly.points.length} points from`),
  );
  const csv = await exportCsv(page, consumptionCard);
  expectCsvEqualsSeries(csv.rows, 'Consumption (W)', hourly);
  await screenshot(page, testInfo, '03-history-hours');

  // A typed range, applied with "Show range".
  const threeDays = today.minus({ days: 3 });
  await page.getByLabel('From', { exact: true }).fill(threeDays.toFormat("yyyy-MM-dd'T'HH:mm"));
  await page.getByRole('button', { name: 'Show range' }).click();
  const threeDayStart = threeDays.toFormat("yyyy-MM-dd'T'HH:mm");
  await expect(page).toHaveURL(new RegExp(`start=${threeDayStart}`));
  const threeDayHourly = await api<SeriesAnswer>(webApp, 'historyConsumption', {
    params: { plantUuid },
    query: { startDate: threeDayStart, endDate: end, granularity: 'hours' },
  });
  await expect(chart).toHaveAccessibleDescription(
    new RegExp(`Consumption: ${threeDayHourly.points.length} points from`),
  );
  expect(calls).toContainEqual({
    route: 'historyConsumption',
    query: { startDate: threeDayStart, endDate: end, granularity: 'hours' },
  });

  // Minutes: a new request, and 60 times the points.
  await page.goto(
    `${webApp.origin}/#/plants/${plantUuid}/analytics/history?start=${start}&end=${end}&granularity=hours`,
  );
  await expect(consumptionCard).toHaveAttribute('data-state', 'ready');
  await choose(page, 'Granularity', 'Minutes');
  await expect(page).toHaveURL(/granularity=minutes/);
  await expect(
    consumptionCard.getByRole('img', { name: /^Consumption power at minutes/ }),
  ).toHaveAccessibleDescription(/Consumption: 2,?880 points from|Consumption: \d+ points from/);
  expect(calls).toContainEqual({
    route: 'historyConsumption',
    query: { startDate: start, endDate: end, granularity: 'minutes' },
  });
  const minutes = await api<SeriesAnswer>(webApp, 'historyConsumption', {
    params: { plantUuid },
    query: { startDate: start, endDate: end, granularity: 'minutes' },
  });
  await expect(
    consumptionCard.getByRole('img', { name: /^Consumption power at minutes/ }),
  ).toHaveAccessibleDescription(new RegExp(`Consumption: ${minutes.points.length} points from`));
  await screenshot(page, testInfo, '04-history-minutes');

  // 89 days at minutes exceed the cap: the server's message, and a switch to what it suggests.
  const longStart = today.minus({ days: 89 }).toFormat("yyyy-MM-dd'T'HH:mm");
  await page.goto(
    `${webApp.origin}/#/plants/${plantUuid}/analytics/history?start=${longStart}&end=${end}&granularity=minutes`,
  );
  const notice = page.getByTestId('point-cap');
  await expect(notice).toContainText('more than the maximum of 100000');
  await expect(notice).toContainText('use a coarser granularity: hours');
  await expect(consumptionCard).toHaveAttribute('data-state', 'error');
  await screenshot(page, testInfo, '05-history-point-cap');
  await notice.getByRole('button', { name: 'Use hours' }).click();
  await expect(page).toHaveURL(/granularity=hours/);
  await expect(consumptionCard).toHaveAttribute('data-state', 'ready');
  await expect(notice).toBeHidden();
  expect(calls).toContainEqual({
    route: 'historyConsumption',
    query: { startDate: longStart, endDate: end, granularity: 'hours' },
  });
  await screenshot(page, testInfo, '06-history-89-days-hours');
});

test('forecasts: consumerOnly changes the stacked device types', async ({
  page,
  webApp,
}, testInfo) => {
  await signIn(page, webApp.url);
  const { plantUuid } = await demoHome(webApp);
  const calls = recordCalls(page);

  await page.goto(`${webApp.origin}/#/plants/${plantUuid}/analytics/forecasts`);
  const consumptionCard = page.getByRole('region', { name: 'Consumption forecast' });
  const productionCard = page.getByRole('region', { name: 'Production forecast' });
  const typesCard = page.getByRole('region', { name: 'Next day by device type' });
  await expect(consumptionCard).toHaveAttribute('data-state', 'ready');
  await expect(productionCard).toHaveAttribute('data-state', 'ready');
  await expect(typesCard).toHaveAttribute('data-state', 'ready');
  expect(calls).toContainEqual({ route: 'predictConsumption', query: { hours: 48 } });
  expect(calls).toContainEqual({ route: 'predictByDeviceType', query: { consumerOnly: false } });

  // The forecast's CSV: value and its 80 % band, as the API answers them.
  const forecast = await api<{
    points: { timestamp: string; value: number; lower: number; upper: number }[];
  }>(webApp, 'predictConsumption', { params: { plantUuid }, query: { hours: 48 } });
  const forecastCsv = await exportCsv(page, consumptionCard);
  expect(forecastCsv.rows[0]).toEqual([
    'timestamp',
    'Consumption forecast (kWh)',
    'Consumption forecast lower 80 % (kWh)',
    'Consumption forecast upper 80 % (kWh)',
  ]);
  expect(forecastCsv.rows.slice(1).map((row) => [row[0], ...row.slice(1).map(Number)])).toEqual(
    forecast.points.map((point) => [point.timestamp, point.value, point.lower, point.upper]),
  );

  const types = await api<{ content: { code: string; name: string }[] }>(
    webApp,
    'listDeviceTypes',
    { query: { size: 100 } },
  );
  const nameOf = (code: string) => types.content.find((type) => type.code === code)?.name ?? code;
  const all = await api<{ series: Record<string, unknown[]> }>(webApp, 'predictByDeviceType', {
    params: { plantUuid },
    query: { consumerOnly: false },
  });
  const consumers = await api<{ series: Record<string, unknown[]> }>(
    webApp,
    'predictByDeviceType',
    { params: { plantUuid }, query: { consumerOnly: true } },
  );
  const allNames = Object.keys(all.series).map(nameOf);
  const consumerNames = Object.keys(consumers.series).map(nameOf);
  const dropped = allNames.filter((name) => !consumerNames.includes(name));
  expect(dropped.length).toBeGreaterThan(0);

  const stacked = typesCard.getByRole('img', { name: /per device type/ });
  for (const name of allNames) {
    await expect(stacked).toHaveAccessibleDescription(new RegExp(`${name}: \\d+ points`));
  }
  await screenshot(page, testInfo, '07-forecasts-all-device-types');

  await typesCard.getByText('Consumers only').click();
  await expect(page).toHaveURL(/consumerOnly=true/);
  await expect(typesCard.getByRole('switch', { name: 'Consumers only' })).toBeChecked();
  const consumerChart = typesCard.getByRole('img', { name: /consumers only/ });
  for (const name of consumerNames) {
    await expect(consumerChart).toHaveAccessibleDescription(new RegExp(`${name}: \\d+ points`));
  }
  for (const name of dropped) {
    await expect(consumerChart).not.toHaveAccessibleDescription(new RegExp(`${name}: `));
  }
  expect(calls).toContainEqual({ route: 'predictByDeviceType', query: { consumerOnly: true } });
  await screenshot(page, testInfo, '08-forecasts-consumers-only');
});
