import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test, type WebApp } from '../support/webApp.ts';
import { ACCOUNTS, fillSignIn, openSignIn, rpc, screenshot } from '../support/shell.ts';

/**
 * axe-core's WCAG 2.1 A and AA rules over every main screen, in browser mode against the Local
 * sandbox, as the installer on Demo Home: sign-in, fleet, plants, the plant's overview,
 * dashboard, each analytics tab, devices and sensors (each with its form dialog open too),
 * vendors, each catalog, environments, alerts, and each commissioning step with its report. A
 * violation of impact serious or critical fails the test, listed with its rule, the elements'
 * selectors and axe's summary of what to fix.
 *
 * One test per variant, each in its own browser context, visiting the screens in one journey.
 * A variant is the context's options: the theme now (PrimeVue and the charts follow the
 * system's colour scheme), a language later by one more entry (`locale`). Besides axe, every
 * canvas (a chart) must have a name: axe checks one only when it has role img.
 */

/** A variant is the browser context's options; the test's name carries `name`. */
interface Variant {
  name: string;
  use: { colorScheme: 'light' | 'dark'; locale?: string };
}

const VARIANTS: readonly Variant[] = [
  { name: 'light', use: { colorScheme: 'light' } },
  { name: 'dark', use: { colorScheme: 'dark' } },
];

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS: readonly (string | null | undefined)[] = ['serious', 'critical'];

/** A weekday noon in the plant's winter: the charts have a full day behind them. */
test.use({ hostClock: '2026-11-18T12:00:00+01:00' });
test.describe.configure({ mode: 'serial' });
/** Some thirty screens, each waited for and audited (axe takes seconds on a table-heavy one). */
test.setTimeout(360_000);

/** One failing rule on one screen, in words for the failure message. */
interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** Runs axe on the page as shown and keeps what is serious or critical. */
async function audit(page: Page, screen: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const findings = results.violations
    .filter((violation) => FAILING_IMPACTS.includes(violation.impact))
    .map((violation) => ({
      screen,
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String).join(' '),
        summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
  return [...findings, ...(await unnamedCanvases(page, screen))];
}

/**
 * axe names a canvas only when it has role img; a chart drawn without one would pass unseen.
 * Every canvas is a chart here, and each needs a name.
 */
async function unnamedCanvases(page: Page, screen: string): Promise<Finding[]> {
  const canvases = page.locator('canvas:not([aria-label]):not([aria-labelledby])');
  const count = await canvases.count();
  if (count === 0) return [];
  return [
    {
      screen,
      rule: 'canvas-name',
      impact: 'serious',
      help: 'Charts (canvas) must have an accessible name',
      nodes: Array.from({ length: count }, (_, index) => ({
        target: `canvas (${index + 1} of ${count} without aria-label)`,
        summary: 'Fix: give the chart an aria-label that says what it shows',
      })),
    },
  ];
}

function describeFindings(findings: readonly Finding[]): string {
  return findings
    .map(
      (finding) =>
        `${finding.screen}: ${finding.rule} (${finding.impact}, ${finding.nodes.length}) ${finding.help}\n` +
        finding.nodes.map((node) => `    ${node.target}\n      ${node.summary}`).join('\n'),
    )
    .join('\n');
}

/** Waits until the screen has stopped loading: no busy region, spinner or skeleton left. */
async function settled(page: Page, shown: Locator): Promise<void> {
  await expect(shown).toBeVisible({ timeout: 30_000 });
  await expect(
    page.locator('[aria-busy="true"], .p-progressspinner, .p-skeleton, .p-datatable-mask'),
  ).toHaveCount(0, { timeout: 30_000 });
  // Transitions (dialogs, tab ink, toasts) finish before colours are measured.
  await page.waitForTimeout(300);
}

async function demoHomeUuid(webApp: WebApp): Promise<string> {
  const plants = await rpc<{ content: { plantUuid: string; name: string }[] }>(webApp, 'api.call', [
    'listPlants',
    { query: { search: 'Demo Home' } },
  ]);
  const plant = plants.content.find((each) => each.name === 'Demo Home');
  expect(plant, 'Demo Home is listed').toBeDefined();
  return plant!.plantUuid;
}

const stepHeading = (name: string) => (page: Page) =>
  page.getByRole('heading', { level: 2, name, exact: true });

/** Each step of Demo Home's commissioning, and what shows it is there. */
const COMMISSIONING = [
  { step: 'plant', shown: stepHeading('Step 1 of 6: Plant') },
  { step: 'sensors', shown: stepHeading('Step 2 of 6: Sensors') },
  { step: 'devices', shown: stepHeading('Step 3 of 6: Devices') },
  { step: 'vendors', shown: stepHeading('Step 4 of 6: Vendor integrations') },
  { step: 'verification', shown: (page: Page) => page.getByText(/^Verification (passed|failed)/) },
  {
    step: 'report',
    shown: (page: Page) => page.getByRole('article', { name: 'Commissioning report: Demo Home' }),
  },
] as const;

const CATALOGS = [
  { path: 'sensor-types', heading: 'Sensor types' },
  { path: 'device-types', heading: 'Device types' },
  { path: 'load-signatures', heading: 'Load signatures' },
  { path: 'data-types', heading: 'Data types' },
] as const;

for (const variant of VARIANTS) {
  test.describe(variant.name, () => {
    test.use(variant.use);

    test(`every main screen passes axe's WCAG 2.1 AA rules (${variant.name})`, async ({
      page,
      webApp,
    }, testInfo: TestInfo) => {
      const findings: Finding[] = [];
      const check = async (screen: string, shown: Locator) => {
        await settled(page, shown);
        findings.push(...(await audit(page, screen)));
        await screenshot(page, testInfo, `${variant.name}-${screen.replace(/\W+/g, '-')}`);
      };
      const heading = (name: string, level?: number) =>
        page.getByRole('heading', { name, exact: true, level });
      const visit = async (path: string) => page.goto(`${webApp.origin}/#/${path}`);
      /** Opens a form dialog with its button, audits it, and closes it with Escape. */
      const checkDialog = async (button: string, dialog: string, screen: string) => {
        await page.getByRole('button', { name: button }).click();
        await check(screen, page.getByRole('dialog', { name: dialog }));
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog', { name: dialog })).toBeHidden();
      };

      await rpc(webApp, 'session.signOut');
      await openSignIn(page, webApp);
      await check('sign-in', heading('Sign in to PlantDesk'));

      await fillSignIn(page, ACCOUNTS.installer);
      const plantUuid = await demoHomeUuid(webApp);
      await visit('fleet');
      await check('fleet', heading('Fleet'));
      await visit('plants');
      await check('plants', page.getByRole('cell', { name: 'Demo Home', exact: true }));

      const plant = `plants/${plantUuid}`;
      await visit(plant);
      await check('plant overview', heading('Location'));
      await visit(`${plant}/dashboard`);
      await check('dashboard', page.getByRole('region', { name: 'Dashboard' }));
      for (const tab of ['summary', 'history', 'forecasts']) {
        await visit(`${plant}/analytics/${tab}`);
        await check(`analytics ${tab}`, heading('Analytics'));
      }
      await visit(`${plant}/devices`);
      await check('devices', heading('Devices'));
      await checkDialog('Create device', 'New device', 'device dialog');
      await visit(`${plant}/sensors`);
      await check('sensors', heading('Sensors'));
      await checkDialog('Create sensor', 'New sensor', 'sensor dialog');
      await visit(`${plant}/vendors`);
      await check('vendors', page.getByRole('tab', { name: /^Configured/ }));

      for (const catalog of CATALOGS) {
        await visit(`catalogs/${catalog.path}`);
        await check(`catalog ${catalog.path}`, heading(catalog.heading));
      }
      await visit('environments');
      await check('environments', heading('Environments'));
      await visit('alerts');
      await check('alerts', heading('Alerts'));

      for (const { step, shown } of COMMISSIONING) {
        await visit(`commission/${plantUuid}/${step}`);
        await check(`commissioning ${step}`, shown(page));
      }

      const report = describeFindings(findings);
      if (report !== '') await testInfo.attach('axe-violations', { body: report });
      expect(report, 'serious or critical violations').toBe('');
    });
  });
}
