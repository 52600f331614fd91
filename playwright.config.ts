import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests. `web`: the app in browser mode (`electron/web/cli.ts`, started by the
 * fixture in test/e2e/support) driven in the system Chromium. `electron`: the desktop app. `npm run test:e2e` builds the
 * renderer first. Screenshots of each screen are kept under test-artifacts/e2e.
 */

/** Chromium flags that work on the CI machines (../shared/spec/machine-notes.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  // Without these, Chromium keeps trying to reach Google's services from an offline machine.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const CHROMIUM_PATH = process.env.PLANTDESK_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-artifacts/e2e',
  // Each worker starts a web host and a Local sandbox server; two cores do not take more.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The first start of the Local sandbox writes 90 days of simulated history (seconds).
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [
    ['list'],
    [
      'html',
      {
        outputFolder: process.env.PLANTDESK_E2E_HTML ?? 'test-artifacts/e2e-report',
        open: 'never',
      },
    ],
    // .ci/run counts passed and failed tests from it.
    ['json', { outputFile: process.env.PLANTDESK_E2E_JSON ?? 'test-artifacts/e2e-results.json' }],
  ],
  use: {
    // Every spec keeps its screens itself (support/shell.ts screenshot()); another shot at each
    // test's end only cost CI time.
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'web',
      testDir: 'test/e2e/web',
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    // Launches Electron itself (Playwright's _electron); skips with a reason when no binary.
    { name: 'electron', testDir: 'test/e2e/electron' },
  ],
});
