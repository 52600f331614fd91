import fs from 'node:fs';
import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, fillSignIn, openSignIn, screenshot } from '../support/shell.ts';

/**
 * A period report in browser mode on the Local sandbox's simulated history, the host pinned to
 * 21 June 2026: last month (May) is offered, the fleet's report shows each energy with its
 * coverage and the data-health map's (the sandbox has the extension), consumption against its
 * expectation from the weeks before, availability by the hour of daylight; only the report prints, the summary CSV downloads machine-readable, and the schedule
 * says it needs the desktop app.
 */

test.use({ hostClock: '2026-06-21T12:00:00+02:00' });

test('makes May’s fleet report, prints only the report, downloads its CSV', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp);
  // Signed out, Help and support is a link away (there is no Help menu in a browser).
  await expect(page.getByRole('link', { name: 'Help and support' })).toBeVisible();
  await fillSignIn(page, ACCOUNTS.installer);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Reports' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByLabel('Month of the report')).toHaveValue('May 2026');
  await expect(page.getByText('Scheduled reports need the desktop app.')).toBeVisible();

  await page.getByRole('button', { name: 'Make report' }).click();
  const report = page.getByRole('article', { name: 'All plants (fleet): report for May 2026' });
  await expect(report).toBeVisible({ timeout: 60_000 });
  const production = report.getByRole('row', { name: /^Production / }).first();
  await expect(production).toContainText(/\d [kM]?Wh/);
  await expect(production).toContainText(/coverage \d/);
  await expect(production).toContainText(/data health \d/);
  const figure = (name: RegExp) => report.getByRole('row', { name }).first();
  await expect(figure(/^Expected consumption /)).toContainText(
    /\d [kM]?Wh\s*from the same weekdays of the 4 weeks before/,
  );
  await expect(figure(/^Consumption against expectation /)).toContainText(/[+-]?\d+(\.\d)?%/);
  await expect(figure(/^Availability /)).toContainText(/\d+(\.\d)?% of daylight/);
  await expect(figure(/^Data findings /)).toContainText(/gaps: \d+/);
  await screenshot(page, testInfo, '01-report');

  await page.emulateMedia({ media: 'print' });
  await expect(report).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Make report' })).toBeHidden();
  await screenshot(page, testInfo, '02-report-print');
  await page.emulateMedia({ media: 'screen' });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download summary (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(
    'plantdesk-report-all-plants-fleet-2026-05-summary.csv',
  );
  const csv = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
  expect(csv[0]).toMatch(/^rank,plant,period,production kWh,production coverage,/);
  expect(csv[0]).toContain(
    ',expected consumption kWh,consumption against expected %,expected consumption basis,',
  );
  expect(csv[1]).toMatch(/^1,Demo Home,2026-05,\d+(\.\d+)?,(0|1|0\.\d+),/);
});
