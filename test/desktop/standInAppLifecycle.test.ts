import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { STOP_MESSAGE } from '../../electron/main/parentPortStop.ts';
import { DEV_PROFILE_NAME } from '../../electron/main/profile.ts';
import { WINDOW_STATE_FILE } from '../../electron/main/windowState.ts';
import * as harness from './standInElectron/harness.ts';

/**
 * The built app's life in the stand-in Electron beyond the first start (standInApp.test.ts):
 * packaged, and closed by its window while the Local sandbox is still starting.
 */

const appRoot = harness.appUnderTest();
const clock = harness.TEST_CLOCK;

let app: harness.StandInApp | undefined;
let second: harness.StandInApp | undefined;
afterEach(async () => {
  await second?.close();
  await app?.close();
  app = second = undefined;
});

test('a second instance on the same data folder ends at once, without a window or a sandbox', async () => {
  app = await harness.startStandInApp({ appRoot, clock });
  await app.waitFor((s) => s.windows.length === 1, 'first window');
  second = await harness.startStandInApp({ appRoot, clock, home: app.home });
  const exit = await second.ended();
  expect(exit.code).toBe(0);
  expect(exit.events).not.toContain('ready');
  expect(exit.utilityProcesses).toEqual([]);
  // The first goes on.
  expect((await app.state()).windows[0]!.destroyed).toBe(false);
}, 60_000);

test.skipIf(process.platform === 'darwin')(
  'packaged: no DevTools, its own data folder; closing the window while the Local sandbox starts quits and stops it',
  async () => {
    app = await harness.startStandInApp({ appRoot, clock, packaged: true });
    const state = await app.waitFor(
      (s) => s.windows[0]?.visible === true && s.utilityProcesses[0]?.spawned === true,
      'window and Local sandbox',
    );
    expect(state.windows[0]!.webPreferences.devTools).toBe(false);
    expect(path.basename(state.userData)).toBe('PlantDesk');
    const { logs } = state;

    const exit = await app.closeWindow(40_000);
    expect(exit.errors).toEqual([]);
    expect(exit.code).toBe(0);
    expect(exit.events).toContain('window-all-closed');
    const [sandbox] = exit.utilityProcesses;
    expect(sandbox!.running).toBe(false);
    expect(sandbox!.messages).toEqual([STOP_MESSAGE]);
    const log = readFileSync(path.join(logs, 'main.log'), 'utf8');
    expect(log).toContain('PlantDesk stopped');
  },
  90_000,
);

test('a window kept maximized opens maximized, but only once its page has painted', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-standin-'));
  try {
    const userData = path.join(home, '.config', DEV_PROFILE_NAME);
    mkdirSync(userData, { recursive: true });
    writeFileSync(
      path.join(userData, WINDOW_STATE_FILE),
      JSON.stringify({ bounds: { x: 40, y: 30, width: 1200, height: 800 }, maximized: true }),
    );
    app = await harness.startStandInApp({ appRoot, clock, home });
    const state = await app.waitFor((s) => s.windows[0]?.visible === true, 'visible window');
    expect(state.windows[0]!.maximized).toBe(true);
    // maximize() shows a hidden window on Windows and Linux: before the paint, a white one.
    expect(state.windows[0]!.shownBeforeReady).toBe(false);
  } finally {
    await app?.close();
    app = undefined;
    rmSync(home, { recursive: true, force: true });
  }
}, 60_000);
