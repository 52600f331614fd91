import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHANNEL_NAMES } from '../../electron/ipc/contract.ts';
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import {
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  createSecureWindow,
} from '../../electron/main/security.ts';
import { STOP_MESSAGE } from '../../electron/main/parentPortStop.ts';
import { CONTENT_SECURITY_POLICY } from '../../electron/services/contentSecurityPolicy.ts';
import {
  appUnderTest,
  startStandInApp,
  TEST_CLOCK as CLOCK,
  type StandInApp,
} from './standInElectron/harness.ts';
import type { ExitReport } from './standInElectron/protocol.ts';

/**
 * The built desktop app (out/main/index.js, as packaged) started in the stand-in Electron
 * (standInElectron/): its wiring checked without an Electron binary. The tests run in order
 * against one app: start, window, protocol, Local sandbox, IPC, quit.
 */

const appRoot = appUnderTest();
/** A packed app's files run as the installed app does (no DevTools, its own data folder). */
const packaged = process.env.PLANTDESK_STANDIN_APP_ROOT !== undefined;

/** The MIME type every file of the renderer must be served with, by extension. */
const EXPECTED_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** What createSecureWindow gives the window. */
function policyPreferences(preload: string, devTools: boolean): unknown {
  let received: BrowserWindowConstructorOptions | undefined;
  createSecureWindow(
    function Recording(options: BrowserWindowConstructorOptions) {
      received = options;
    } as unknown as new (options: BrowserWindowConstructorOptions) => BrowserWindow,
    {},
    preload,
    devTools,
  );
  return received?.webPreferences;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let app: StandInApp;
let exit: ExitReport | undefined;

beforeAll(async () => {
  app = await startStandInApp({ appRoot, clock: CLOCK, packaged });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('the built desktop app in the stand-in Electron', () => {
  test('registers app:// as privileged and enables the sandbox before ready', async () => {
    const state = await app.waitFor((s) => s.ready, 'ready');
    expect(state.schemeRegistrations).toEqual([
      { schemes: [APP_SCHEME_PRIVILEGES], afterReady: false },
    ]);
    expect(state.sandboxEnabled).toBe(true);
    const { events } = state;
    expect(events.indexOf('registerSchemesAsPrivileged')).toBeLessThan(events.indexOf('ready'));
    expect(events.indexOf('requestSingleInstanceLock')).toBeLessThan(events.indexOf('ready'));
    expect(state.protocolSchemes).toEqual(['app']);
  });

  test('gives handlers to exactly the channels of the IPC contract', async () => {
    const state = await app.waitFor((s) => s.ipcChannels.length > 0, 'IPC handlers');
    expect([...state.ipcChannels].sort()).toEqual([...CHANNEL_NAMES].sort());
  });

  test('opens one window with the secure web preferences, shown once painted', async () => {
    const state = await app.waitFor((s) => s.windows[0]?.visible === true, 'visible window');
    expect(state.windows).toHaveLength(1);
    const [window] = state.windows;
    // Exactly the policy's preferences (securityPolicy.test.ts checks the policy itself).
    expect(window!.webPreferences).toEqual(
      policyPreferences(path.join(appRoot, 'out/preload/index.cjs'), !packaged),
    );
    expect(window!.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(window!.options.show).toBe(false);
    expect(window!.shownBeforeReady).toBe(false);
    expect(window!.url).toBe(`${APP_ORIGIN}/index.html`);
    // The sandboxed preload required only 'electron' and exposed only window.plantdesk.
    expect(window!.preloadRequired).toEqual(['electron']);
    expect(window!.exposed).toEqual(['plantdesk']);
  });

  test('keeps the page on its origin: navigation away and new windows are refused', async () => {
    expect(await app.navigate('https://example.com/')).toBe(true);
    expect(await app.navigate('file:///etc/passwd')).toBe(true);
    expect(await app.navigate(`${APP_ORIGIN}/index.html#/plants`)).toBe(false);
    expect(await app.openWindow('https://example.com/')).toEqual({ action: 'deny' });
    expect(await app.openWindow(`${APP_ORIGIN}/index.html`)).toEqual({ action: 'deny' });
  });

  test('serves every file of out/renderer at app:// with its type and the CSP', async () => {
    const rendererDir = path.join(appRoot, 'out/renderer');
    const files = filesUnder(rendererDir);
    expect(files).toContain('index.html');
    const urls = files.map(
      (file) => `${APP_ORIGIN}/${file.split(path.sep).map(encodeURIComponent).join('/')}`,
    );
    const answers = await app.fetch(urls);
    const wrong = answers.flatMap((answer, i) => {
      const file = files[i]!;
      const expectedType = EXPECTED_TYPES[path.extname(file).toLowerCase()];
      const body = readFileSync(path.join(rendererDir, file));
      const problems = [
        answer.status !== 200 && `status ${answer.status}`,
        answer.headers['content-type'] !== expectedType &&
          `type ${answer.headers['content-type']}, expected ${expectedType ?? '(no type known for this extension)'}`,
        answer.sha256 !== sha256(body) && 'a different body',
        answer.headers['content-security-policy'] !== CONTENT_SECURITY_POLICY && 'no CSP',
        answer.headers['x-content-type-options'] !== 'nosniff' && 'no nosniff',
      ].filter(Boolean);
      return problems.length ? [`${file}: ${problems.join(', ')}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  test('refuses addresses that climb out of the renderer folder or name another host', async () => {
    const secret = sha256(readFileSync(path.join(appRoot, 'package.json')));
    const urls = [
      `${APP_ORIGIN}/../package.json`,
      `${APP_ORIGIN}/%2e%2e/package.json`,
      `${APP_ORIGIN}/%2E%2E/%2E%2E/package.json`,
      `${APP_ORIGIN}/..%2fpackage.json`,
      `${APP_ORIGIN}/..%2f..%2fpackage.json`,
      `${APP_ORIGIN}/assets/..%2f..%2f..%2fpackage.json`,
      `${APP_ORIGIN}/%2e%2e%2f%2e%2e%2fpackage.json`,
      `${APP_ORIGIN}/..%5c..%5cpackage.json`,
      `${APP_ORIGIN}/%252e%252e/package.json`,
      `${APP_ORIGIN}/index.html%00.png`,
      `${APP_ORIGIN}/%E0%A4%A`,
      `${APP_ORIGIN}/${encodeURIComponent(path.join(appRoot, 'package.json'))}`,
      'app://other/index.html',
    ];
    const answers = await app.fetch(urls);
    for (const answer of answers) {
      expect({ url: answer.url, status: answer.status }).toEqual({ url: answer.url, status: 404 });
      expect(answer.sha256).not.toBe(secret);
    }
    const [post] = await app.fetch([`${APP_ORIGIN}/index.html`], 'POST');
    expect(post!.status).toBe(405);
  });

  test('forks the Local sandbox as a utility process that reaches running', async () => {
    const state = await app.waitFor(
      (s) => s.utilityProcesses[0]?.spawned === true,
      'Local sandbox',
    );
    expect(state.utilityProcesses).toHaveLength(1);
    const [sandbox] = state.utilityProcesses;
    expect(sandbox!.modulePath).toBe(path.join(appRoot, 'out/main/localServer.js'));
    expect(sandbox!.serviceName).toBe('PlantDesk Local sandbox');
    expect(sandbox!.args).toEqual(
      expect.arrayContaining(['--demo', '--exit-with-parent', '--clock', CLOCK]),
    );
    const sandboxState = await app.untilSandboxRunning();
    expect(sandboxState).toMatchObject({ ok: true, value: { status: 'running', restarts: 0 } });
  }, 120_000);

  test('signs in and lists the plants through IPC, as the page does', async () => {
    const signedIn = await app.call('session.signIn', {
      email: 'admin@plantdesk.test',
      password: 'admin-pass-1',
      remember: false,
    });
    expect(signedIn).toMatchObject({
      ok: true,
      value: { status: 'signedIn', user: { email: 'admin@plantdesk.test' } },
    });
    const plants = (await app.call('api.call', 'listPlants', { query: { size: 100 } })) as {
      ok: boolean;
      value: { content: Array<{ name: string }> };
    };
    expect(plants.ok).toBe(true);
    expect(plants.value.content.map((plant) => plant.name)).toContain('Demo Home');
    // The session's change reached the page as an event.
    const state = await app.state();
    expect(state.windows[0]!.eventsSent).toContain('event:session.changed');
    // The calls went through Chromium's stack, in the API's own in-memory session, to the sandbox.
    expect(state.sessionFetches.length).toBeGreaterThan(0);
    for (const call of state.sessionFetches) {
      expect(call).toMatchObject({ partition: 'plantdesk-api', cache: false });
      expect(call.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    }
  }, 60_000);

  test('refuses a sender that is not the main frame of its own window', async () => {
    const forbidden = { ok: false, error: { kind: 'forbidden' } };
    expect(await app.callAs('foreignContents', 'session.state')).toMatchObject(forbidden);
    expect(await app.callAs('subframe', 'session.state')).toMatchObject(forbidden);
    expect(await app.callAs('foreignContents', 'api.call', 'listPlants', {})).toMatchObject(
      forbidden,
    );
  });

  test('refuses arguments the contract does not allow, before any service sees them', async () => {
    expect(await app.call('session.signIn', { email: 'a@b.c' })).toMatchObject({
      ok: false,
      error: { kind: 'invalidArguments' },
    });
  });

  test('quitting stops the Local sandbox through its parent port before the app ends', async () => {
    const { logs } = await app.state();
    exit = await app.quit();
    expect(exit.code).toBe(0);
    expect(exit.errors).toEqual([]);
    expect(exit.events.filter((event) => event === 'quit()').length).toBeGreaterThanOrEqual(1);
    const [sandbox] = exit.utilityProcesses;
    // Stopped by the app, gracefully: asked over the parent port, not signalled.
    expect(sandbox!.running).toBe(false);
    expect(sandbox!.messages).toEqual([STOP_MESSAGE]);
    expect(sandbox!.signals).toEqual([]);
    expect(sandbox!.exit).toMatchObject({ code: 0, signal: null });
    const log = readFileSync(path.join(logs, 'main.log'), 'utf8');
    expect(log).toContain('PlantDesk stopped');
    expect(log).not.toContain('did not stop cleanly');
    // No traffic in main.log: no line per answered or cancelled call (the monitor's polls in
    // flight are cancelled at every quit).
    expect(log).not.toMatch(/^\S+ \w+ (GET|POST|PUT|PATCH|DELETE) \/\S* (\d{3}|cancelled)/m);
  }, 60_000);
});
