import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { CHANNEL_NAMES, type PreloadApi } from '../../../electron/ipc/contract.ts';
import { APP_ENTRY_URL } from '../../../electron/main/security.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/services/contentSecurityPolicy.ts';

/**
 * The desktop app end to end: the built app (npm run build) in a real Electron, signing in to
 * the Local sandbox through the UI. Skipped, with the reason, where there is no Electron binary
 * (installs with ELECTRON_SKIP_BINARY_DOWNLOAD) or no display. Without a binary the wiring is
 * checked by the stand-in Electron harness instead (test/desktop/standInApp.test.ts).
 *
 * PLANTDESK_E2E_PACKED_APP=<executable> runs it against a packed app instead (its app.asar, its
 * fuses). Playwright drives Electron through --inspect, which the shipped fuses refuse, so pack
 * a test build with that one fuse on:
 *   npx electron-vite build && npx electron-builder --dir \
 *     -c.electronFuses.enableNodeCliInspectArguments=true
 *   PLANTDESK_E2E_PACKED_APP=release/linux-unpacked/plantdesk npx playwright test --project electron
 */

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The binary `require('electron')` would run, found the same way but without requiring it:
 * node_modules/electron/index.js downloads the binary when it is missing.
 */
function electronBinary(): string | undefined {
  const moduleDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(moduleDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override
    ? path.join(override, relative ?? 'electron')
    : relative && path.join(moduleDir, 'dist', relative);
  return candidate && existsSync(candidate) ? candidate : undefined;
}

/** A packed app's executable: it loads its own app.asar, so it is given no app folder. */
const packedApp = process.env.PLANTDESK_E2E_PACKED_APP
  ? path.resolve(root, process.env.PLANTDESK_E2E_PACKED_APP)
  : undefined;
const binary = packedApp ?? electronBinary();
const headlessLinux =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const skipReason =
  packedApp !== undefined && !existsSync(packedApp)
    ? `no packed app at ${packedApp} (PLANTDESK_E2E_PACKED_APP)`
    : binary === undefined
      ? 'no Electron binary in node_modules/electron/dist (installed with ELECTRON_SKIP_BINARY_DOWNLOAD); the stand-in harness (test/desktop) checks the wiring without one'
      : headlessLinux
        ? 'no display for Electron (run under xvfb-run)'
        : undefined;

/** The page's global object, as the preload leaves it (this file is typechecked without DOM). */
type PageGlobal = { plantdesk: PreloadApi; require?: unknown; process?: unknown };

test('signs in to the Local sandbox and shows the demo plant', async () => {
  if (skipReason) {
    // Playwright's list reporter shows a skip without its reason; this one line says why.
    console.warn(`Electron smoke test skipped: ${skipReason}`);
    test.skip(true, skipReason);
  }
  test.setTimeout(180_000);
  if (!packedApp) {
    expect(existsSync(path.join(root, 'out/main/index.js')), 'run `npm run build` first').toBe(
      true,
    );
  }
  const userData = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-e2e-electron-'));
  const app = await electron.launch({
    executablePath: binary,
    args: packedApp ? [] : [root],
    cwd: packedApp ? path.dirname(packedApp) : root,
    env: { ...(process.env as Record<string, string>), PLANTDESK_USER_DATA_DIR: userData },
    timeout: 60_000,
  });
  try {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    expect(page.url().startsWith(APP_ENTRY_URL)).toBe(true);

    // The preload exposes exactly the contract, and nothing of Node or Electron.
    const surface = await page.evaluate(() => {
      const page = globalThis as unknown as PageGlobal;
      return {
        keys: Object.keys(page.plantdesk).sort(),
        require: typeof page.require,
        process: typeof page.process,
      };
    });
    expect(surface).toEqual({
      keys: [...CHANNEL_NAMES, 'on'].sort(),
      require: 'undefined',
      process: 'undefined',
    });

    // app:// answers with the strict CSP; the page cannot reach the network.
    const policy = await page.evaluate(async () =>
      (await fetch('/index.html')).headers.get('content-security-policy'),
    );
    expect(policy).toBe(CONTENT_SECURITY_POLICY);
    const remote = await page.evaluate(() =>
      fetch('https://example.com/').then(
        () => 'loaded',
        () => 'refused',
      ),
    );
    expect(remote).toBe('refused');

    // Signing in through the UI: the button waits for the Local sandbox to be running.
    await page.getByLabel('Email').fill('admin@plantdesk.test');
    await page.getByLabel('Password').fill('admin-pass-1');
    await page.getByRole('button', { name: 'Sign in' }).click({ timeout: 120_000 });
    await expect(page.getByRole('heading', { name: 'Plants' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Demo Home')).toBeVisible({ timeout: 30_000 });

    const session = await page.evaluate(() =>
      (globalThis as unknown as PageGlobal).plantdesk['session.state'](),
    );
    expect(session).toMatchObject({
      ok: true,
      value: { status: 'signedIn', user: { email: 'admin@plantdesk.test' } },
    });
  } finally {
    await app.close();
  }
  // Quitting waited for the services: the Local sandbox server was stopped, and logged as such.
  const log = readFileSync(path.join(userData, 'logs', 'main.log'), 'utf8');
  expect(log).toContain('PlantDesk stopped');
  rmSync(userData, { recursive: true, force: true });
});
