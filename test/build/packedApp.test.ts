import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo/accounts.ts';
import { ROOT } from './support/builtOut.ts';
import {
  asarFiles,
  devDependencyProblems,
  integrityProblems,
  nativeModuleProblems,
  packedPackages,
} from './support/packageChecks.ts';
import { fuseWire, packApp, type PackedApp } from './support/packedApp.ts';
import { CHANNEL_NAMES } from '../../electron/ipc/contract.ts';
import {
  startStandInApp,
  TEST_CLOCK,
  type StandInApp,
} from '../desktop/standInElectron/harness.ts';

/**
 * The app as electron-builder packs it for Linux with a stand-in Electron (issue 16, "Package
 * inspection"): native modules unpacked, integrity in the asar header, no devDependency
 * shipped, the fuses flipped, and the packed Local sandbox server starting from the extracted
 * files alone, which proves the production dependency closure complete.
 */

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let packed: PackedApp;
beforeAll(async () => {
  packed = await packApp();
  // About 12 s on a 2-core CI machine: say so when packing starts to weigh on npm test.
  if (packed.packSeconds > 60)
    console.warn(`electron-builder --linux --dir took ${packed.packSeconds.toFixed(0)} s`);
}, 180_000);
afterAll(() => packed?.remove());

describe('app.asar', () => {
  test('holds out/ without source maps, package.json and node_modules, nothing else', () => {
    const files = [...asarFiles(packed.asarPath).keys()];
    expect(new Set(files.map((file) => file.split('/')[0]))).toEqual(
      new Set(['out', 'package.json', 'node_modules']),
    );
    expect(files).toContain('out/main/index.js');
    expect(files).toContain('out/main/localServer.js');
    expect(files).toContain('out/preload/index.cjs');
    expect(files).toContain('out/renderer/index.html');
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  test('its package.json starts out/main/index.js as a module, named for the desktop entry', () => {
    const packedManifest = JSON.parse(
      readFileSync(path.join(packed.extractedDir, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(packedManifest).toMatchObject({
      main: 'out/main/index.js',
      type: 'module',
      version: manifest.version,
      desktopName: 'plantdesk.desktop',
    });
    expect(packedManifest).not.toHaveProperty('devDependencies');
    expect(packedManifest).not.toHaveProperty('scripts');
  });

  test('every dependency but Swagger UI is packed and no devDependency is', () => {
    const packages = packedPackages(packed.asarPath);
    // The interactive API reference stays out of the installer (electron-builder.yml).
    expect(packages).not.toContain('@fastify/swagger-ui');
    expect(packages).not.toContain('@fastify/static');
    for (const name of Object.keys(manifest.dependencies))
      if (name !== '@fastify/swagger-ui') expect(packages).toContain(name);
    expect(devDependencyProblems(packed.asarPath, Object.keys(manifest.devDependencies))).toEqual(
      [],
    );
  });

  test('native modules are unpacked, the keychain module among them', () => {
    expect(nativeModuleProblems(packed.asarPath)).toEqual([]);
    const native = [...asarFiles(packed.asarPath).keys()].filter((file) => file.endsWith('.node'));
    expect(native.some((file) => file.startsWith('node_modules/@napi-rs/keyring'))).toBe(true);
  });

  test('every file has its integrity in the header, matching its content', () => {
    expect(integrityProblems(packed.asarPath)).toEqual([]);
  });
});

test('the executable has the fuses of electron-builder.yml', () => {
  // FuseV1Options order: RunAsNode, EnableCookieEncryption, EnableNodeOptionsEnvironmentVariable,
  // EnableNodeCliInspectArguments, EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar,
  // LoadBrowserProcessSpecificV8Snapshot (not set: as shipped), GrantFileProtocolExtraPrivileges.
  const binary = readFileSync(path.join(packed.appOutDir, 'plantdesk'));
  expect(fuseWire(binary)).toBe('01001100');
});

/** Starts the packed server with Node, from the extracted files only. */
async function startPackedServer(): Promise<{ child: ChildProcess; url: string }> {
  const entry = path.join(packed.extractedDir, 'out', 'main', 'localServer.js');
  const child = spawn(
    process.execPath,
    [entry, '--demo', '--port', '0', '--db', ':memory:', '--quiet']
      .concat(['--demo-fleet', '0', '--history-days', '1', '--no-simulation'])
      .concat(['--clock', '2026-06-21T12:00:00+02:00']),
    // Nothing but the extracted folder to resolve packages from.
    { cwd: packed.extractedDir, env: { ...process.env, NODE_PATH: '' }, stdio: 'pipe' },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /^PlantDesk API listening on (http:\S+)$/.exec(line);
      if (listening) resolve(listening[1]!);
    });
    child.once('exit', (code) => reject(new Error(`packed server exited (${code}):\n${stderr}`)));
  });
  return { child, url };
}

describe('the packed Local sandbox server, run by Node from the extracted files', () => {
  let server: { child: ChildProcess; url: string } | undefined;
  beforeAll(async () => {
    server = await startPackedServer();
  }, 60_000);
  afterAll(() => server?.child.kill());

  test('signs a demo account in', async () => {
    const { email, password } = DEMO_ACCOUNTS[0]!;
    const response = await fetch(`${server!.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ accessToken: expect.any(String) });
  });

  test('finds package.json from the app root; /docs is a 404 that points to /openapi.json', async () => {
    const document = (await (await fetch(`${server!.url}/openapi.json`)).json()) as {
      info: { version: string };
    };
    expect(document.info.version).toBe(manifest.version);
    for (const docsPath of ['/docs', '/docs/', '/docs/static/index.html']) {
      const page = await fetch(`${server!.url}${docsPath}`);
      expect(page.status, docsPath).toBe(404);
      expect(await page.json(), docsPath).toMatchObject({
        status: 404,
        error: 'Not Found',
        message: expect.stringContaining('/openapi.json'),
        path: docsPath,
      });
    }
  });
});

describe('the packed app in the stand-in Electron (test/desktop/standInElectron)', () => {
  let app: StandInApp | undefined;
  afterAll(() => app?.close());

  test('starts from the extracted files: window, app://, the Local sandbox, quit', async () => {
    app = await startStandInApp({
      appRoot: packed.extractedDir,
      packaged: true,
      clock: TEST_CLOCK,
    });
    const state = await app.waitFor(
      (s) => s.windows[0]?.exposed.includes('plantdesk') === true,
      'window with its preload',
    );
    expect(state.schemeRegistrations).toEqual([expect.objectContaining({ afterReady: false })]);
    expect([...state.ipcChannels].sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(state.windows[0]!.webPreferences).toMatchObject({
      preload: path.join(packed.extractedDir, 'out/preload/index.cjs'),
      devTools: false,
    });
    const [index] = await app.fetch(['app://plantdesk/index.html']);
    expect(index).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const sandbox = await app.untilSandboxRunning();
    expect(sandbox).toMatchObject({ ok: true, value: { status: 'running' } });
    const exit = await app.quit();
    expect(exit).toMatchObject({ code: 0, errors: [] });
    expect(exit.utilityProcesses[0]).toMatchObject({
      modulePath: path.join(packed.extractedDir, 'out/main/localServer.js'),
      running: false,
      signals: [],
      exit: { code: 0 },
    });
  }, 150_000);
});
