import { expect, test } from '../support/webApp.ts';
import { ACCOUNTS, fillSignIn, openSignIn, screenshot } from '../support/shell.ts';

/**
 * The report print route in a real Chromium (the desktop app's hidden print window loads it; the
 * stand-in Electron runs no page): the fleet's May report alone, without the app's shell, and
 * printable to PDF. The host pinned to 21 June 2026, on the Local sandbox's simulated history.
 */

test.use({ hostClock: '2026-06-21T12:00:00+02:00' });

const TOKEN = '0f0e0d0c-0b0a-4909-8807-060504030201';

test('the print route draws the report alone, and Chromium prints it to PDF', async ({
  page,
  webApp,
}, testInfo) => {
  await openSignIn(page, webApp);
  await fillSignIn(page, ACCOUNTS.installer);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // In the same document, as the hidden window's address names it (the browser's key stays).
  await page.evaluate((token) => {
    // The page's own location (the e2e tests compile without the DOM's types).
    const { location } = globalThis as unknown as { location: { hash: string } };
    location.hash = `/reports/print?period=2026-05&scope=fleet&token=${token}`;
  }, TOKEN);
  const report = page.getByRole('article', { name: 'All plants (fleet): report for May 2026' });
  await expect(report).toBeVisible({ timeout: 60_000 });
  await expect(report.getByRole('row', { name: /^Production / }).first()).toContainText(
    /coverage \d/,
  );
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.getByRole('button')).toHaveCount(0);
  await screenshot(page, testInfo, '01-report-print-route');

  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(10_000);
});
