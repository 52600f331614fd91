import type { Locator, Page, TestInfo } from '@playwright/test';
import { axeViolations } from '../support/axe.ts';
import { expect, test, type WebApp } from '../support/webApp.ts';
import { messagesOf, startingWith, type Translate } from '../support/messages.ts';
import { ACCOUNTS, fillSignIn, openSignIn, rpc, screenshot } from '../support/shell.ts';

/**
 * axe-core's WCAG 2.1 A and AA rules over every main screen, in browser mode against the Local
 * sandbox, as the installer on Demo Home: sign-in, fleet, plants, the plant's overview,
 * dashboard, each analytics tab, devices and sensors (each with its form dialog open too),
 * vendors, each catalog, environments, alerts, reports (one made), help and support, the
 * environment comparison, and each commissioning step with its report. A
 * violation of impact serious or critical fails the test, listed with its rule, the elements'
 * selectors and axe's summary of what to fix.
 *
 * Four variants: each theme (PrimeVue and the charts follow the system's colour scheme) in each
 * browser language (`locale`, which the app follows when no language was chosen). One test per
 * language, in its own browser context, visits the screens in one journey and audits each
 * screen in both themes, switching the emulated colour scheme in place (the app follows it
 * live) rather than making the whole journey again per theme. The themes alternate which
 * comes first from screen to screen, so each is also audited as a screen's first render. The
 * journey goes by the app's routes and finds what shows each screen by the names in the
 * language's message files, so longer German words are audited as users see them.
 * Besides axe, every canvas (a chart) must have a name: axe checks one only when it has role img.
 */

type Scheme = 'light' | 'dark';

/** A browser language; `themes` names the variants, by theme, in findings and screenshots. */
interface Language {
  name: string;
  locale?: string;
  themes: Record<Scheme, string>;
}

const LANGUAGES: readonly Language[] = [
  { name: 'English', themes: { light: 'light', dark: 'dark' } },
  { name: 'German', locale: 'de-DE', themes: { light: 'German light', dark: 'German dark' } },
];

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS: readonly (string | null | undefined)[] = ['serious', 'critical'];

/** A weekday noon in the plant's winter: the charts have a full day behind them. */
test.use({ hostClock: '2026-11-18T12:00:00+01:00' });
test.describe.configure({ mode: 'serial' });
/** Some thirty screens, each waited for and audited twice (axe takes seconds on a table-heavy one). */
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
  const findings = (await axeViolations(page, WCAG_TAGS))
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

/**
 * Waits until the screen has stopped loading (no busy region, spinner or skeleton left) and
 * moving: transitions (dialogs, tab ink, toasts, the colours of a theme switch) finish before
 * colours are measured.
 */
async function settled(page: Page, shown: Locator): Promise<void> {
  await expect(shown).toBeVisible({ timeout: 30_000 });
  await expect(
    page.locator('[aria-busy="true"], .p-progressspinner, .p-skeleton, .p-datatable-mask'),
  ).toHaveCount(0, { timeout: 30_000 });
  await transitionsDone(page);
}

/** What `transitionsDone` reads of the page's window (the e2e code has no DOM types). */
interface AnimatedWindow {
  requestAnimationFrame(callback: () => void): void;
  document: {
    getAnimations(): {
      playState: string;
      effect: { getComputedTiming(): { endTime?: number | string } } | null;
    }[];
  };
}

/**
 * Two frames (a Vue transition starts one frame after its element is inserted), then until no
 * finite animation or transition runs; an endless one (a pulse) is left running.
 */
async function transitionsDone(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const window = globalThis as unknown as AnimatedWindow;
        window.requestAnimationFrame(() => window.requestAnimationFrame(resolve));
      }),
  );
  await page.waitForFunction(() =>
    (globalThis as unknown as AnimatedWindow).document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
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

type Shown = (page: Page, t: Translate) => Locator;

const stepHeading =
  (number: number, step: string): Shown =>
  (page, t) =>
    page.getByRole('heading', {
      level: 2,
      name: t('commissioning.stepper.heading', {
        number,
        total: 6,
        step: t(`commissioning.steps.${step}`),
      }),
      exact: true,
    });

/** Each step of Demo Home's commissioning (its route), and what shows it is there. */
const COMMISSIONING: readonly { step: string; shown: Shown }[] = [
  { step: 'plant', shown: stepHeading(1, 'plant') },
  { step: 'sensors', shown: stepHeading(2, 'sensors') },
  { step: 'devices', shown: stepHeading(3, 'devices') },
  { step: 'vendors', shown: stepHeading(4, 'vendors') },
  {
    step: 'verification',
    shown: (page, t) =>
      page.getByText(
        startingWith(
          t('commissioning.verification.passed'),
          t('commissioning.verification.failed'),
        ),
      ),
  },
  {
    step: 'report',
    shown: (page, t) =>
      page.getByRole('article', { name: t('report.title', { plant: 'Demo Home' }), exact: true }),
  },
];

/** Each catalog's route and the message key of its heading. */
const CATALOGS = [
  { path: 'sensor-types', heading: 'catalogs.kinds.sensorType.title' },
  { path: 'device-types', heading: 'catalogs.kinds.deviceType.title' },
  { path: 'load-signatures', heading: 'catalogs.kinds.loadSignature.title' },
  { path: 'data-types', heading: 'catalogs.kinds.dataType.title' },
] as const;

for (const language of LANGUAGES) {
  test.describe(language.name, () => {
    // English starts light and German dark: each theme is the one a journey starts in.
    const first: Scheme = language.locale === undefined ? 'light' : 'dark';
    test.use({ colorScheme: first, locale: language.locale });

    test(`every main screen passes axe's WCAG 2.1 AA rules, light and dark (${language.name})`, async ({
      page,
      webApp,
    }, testInfo: TestInfo) => {
      const t = messagesOf(language.locale);
      const findings: Finding[] = [];
      let scheme: Scheme = first;
      /** Audits the screen in the theme shown, then switches the theme in place and again. */
      const check = async (screen: string, shown: Locator) => {
        for (const pass of [0, 1]) {
          if (pass === 1) {
            scheme = scheme === 'light' ? 'dark' : 'light';
            await page.emulateMedia({ colorScheme: scheme });
          }
          const variant = language.themes[scheme];
          await settled(page, shown);
          findings.push(...(await audit(page, `${variant}: ${screen}`)));
          await screenshot(page, testInfo, `${variant}-${screen}`.replace(/\W+/g, '-'));
        }
      };
      const heading = (key: string) => page.getByRole('heading', { name: t(key), exact: true });
      const visit = async (path: string) => page.goto(`${webApp.origin}/#/${path}`);
      /** Opens a form dialog with its button, audits it, and closes it with Escape. */
      const checkDialog = async (area: 'devices' | 'sensors', screen: string) => {
        const dialog = page.getByRole('dialog', {
          name: t('common.itemsTable.newHeader', { thing: t(`${area}.list.what`) }),
        });
        await page.getByRole('button', { name: t(`${area}.list.create`) }).click();
        await check(screen, dialog);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      };

      await rpc(webApp, 'session.signOut');
      // No language chosen: the app follows the browser's, as on a first start.
      await rpc(webApp, 'app.setLanguage', [null]);
      await openSignIn(page, webApp, t);
      await check('sign-in', heading('signIn.title'));

      await fillSignIn(page, ACCOUNTS.installer, t);
      const plantUuid = await demoHomeUuid(webApp);
      await visit('fleet');
      await check('fleet', heading('fleet.title'));
      await visit('plants');
      await check('plants', page.getByRole('cell', { name: 'Demo Home', exact: true }));

      const plant = `plants/${plantUuid}`;
      await visit(plant);
      await check('plant overview', heading('plants.overview.location'));
      await visit(`${plant}/dashboard`);
      await check('dashboard', page.getByRole('region', { name: t('dashboard.title') }));
      for (const tab of ['summary', 'history', 'forecasts']) {
        await visit(`${plant}/analytics/${tab}`);
        await check(`analytics ${tab}`, heading('analytics.title'));
      }
      await visit(`${plant}/data-health`);
      await check('data health', page.getByRole('grid', { name: t('dataHealth.map.label') }));
      await visit(`${plant}/devices`);
      await check('devices', heading('devices.list.title'));
      await checkDialog('devices', 'device dialog');
      await visit(`${plant}/sensors`);
      await check('sensors', heading('sensors.list.title'));
      await checkDialog('sensors', 'sensor dialog');
      await visit(`${plant}/vendors`);
      await check(
        'vendors',
        page.getByRole('tab', { name: startingWith(t('vendors.panel.configured')) }),
      );

      for (const catalog of CATALOGS) {
        await visit(`catalogs/${catalog.path}`);
        await check(`catalog ${catalog.path}`, heading(catalog.heading));
      }
      await visit('environments');
      await check('environments', heading('environments.title'));
      await visit('alerts');
      await check('alerts', heading('alerts.title'));
      // The fleet's report of last month, made: its figures, coverage and schedule.
      await visit('reports');
      await page.getByRole('button', { name: t('reports.make') }).click();
      await check('reports', page.getByRole('button', { name: t('reports.print') }));
      await visit('support');
      await check('support', heading('support.title'));
      await visit(`${plant}/compare`);
      await check('comparison', heading('comparison.title'));

      for (const { step, shown } of COMMISSIONING) {
        await visit(`commission/${plantUuid}/${step}`);
        await check(`commissioning ${step}`, shown(page, t));
      }

      const report = describeFindings(findings);
      if (report !== '') await testInfo.attach('axe-violations', { body: report });
      expect(report, 'serious or critical violations').toBe('');
    });
  });
}
