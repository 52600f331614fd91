import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { KeychainStatus } from '../../../electron/ipc/contract.ts';
import type { ServerProcess } from '../../../electron/services/localSandbox.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import {
  KEYCHAIN_UNAVAILABLE_MESSAGE,
  openSecretStore,
  type SecretStore,
} from '../../../electron/services/secrets.ts';

/**
 * Start-up. The keychain is off the start path: the services start, the Local sandbox is launched and the
 * channels answer while the keychain has not answered at all; it is asked only after the host's
 * start-up turn, by reading an entry that does not exist, never by writing one.
 */

const folders: string[] = [];
const apps: PlantDesk[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.dispose()));
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A server process that never says where it listens, and exits when stopped. */
function silentServer(spawned: string[][]): (args: readonly string[]) => ServerProcess {
  return (args) => {
    spawned.push([...args]);
    let onExit: ((code: number | null) => void) | undefined;
    return {
      onOutput() {},
      onExit: (listener) => void (onExit = listener),
      kill: () => queueMicrotask(() => onExit?.(0)),
      forceKill: () => queueMicrotask(() => onExit?.(null)),
    };
  };
}

test('start-up waits for no keychain; a silent one is given up and said once', async () => {
  const calls: string[] = [];
  const silent = () => new Promise<never>(() => {});
  const keychain: SecretStore = {
    available: true,
    get: (key) => (calls.push(`get ${key.split('/')[0]}`), silent()),
    set: (key) => (calls.push(`set ${key}`), silent()),
    delete: (key) => (calls.push(`delete ${key}`), silent()),
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-keychain-start-'));
  folders.push(dataDir);
  const spawned: string[][] = [];
  const starting = startPlantDesk({
    host: 'web',
    version: 'test',
    dataDir,
    spawnServer: silentServer(spawned),
    secrets: openSecretStore({ keychain, probeTimeoutMs: 50 }),
    log: { info() {}, warn() {}, error() {} },
    openExternal: async () => {},
  });
  // Electron registers the IPC handlers right after this call: the keychain is not touched yet.
  expect(calls).toEqual([]);
  const app = await starting;
  apps.push(app);
  const heard: KeychainStatus[] = [];
  app.events.on('keychain.unavailable', (status: KeychainStatus) => heard.push(status));
  // Started although the keychain never answers: the sandbox is launched, the channels answer.
  expect((await app.handlers['environments.list']()).environments).not.toHaveLength(0);
  for (let waited = 0; spawned.length === 0 && waited < 2000; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(spawned).toHaveLength(1);

  // Then asked by reading, never by writing; silent past the timeout means no keychain.
  const unavailable = { available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE };
  expect((await app.handlers['app.info']()).keychain).toEqual(unavailable);
  expect(heard).toEqual([unavailable]);
  expect(calls.every((call) => call.startsWith('get '))).toBe(true);
  expect(calls).toContain('get probe');
});

test('start-up removes what a writer killed mid-way left in the data folder, and logs it', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-start-sweep-'));
  folders.push(dataDir);
  // A temporary name with this process's id: an earlier process's, since writes are synchronous.
  const leftover = `environments.json.${process.pid}.0123abcd.tmp`;
  fs.writeFileSync(path.join(dataDir, leftover), '{"half":');
  fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'kept');
  const logged: unknown[] = [];
  const app = await startPlantDesk({
    host: 'web',
    version: 'test',
    dataDir,
    spawnServer: silentServer([]),
    log: { info: (...entry: unknown[]) => logged.push(entry), warn() {}, error() {} },
    openExternal: async () => {},
  });
  apps.push(app);
  expect(fs.existsSync(path.join(dataDir, leftover))).toBe(false);
  expect(fs.readFileSync(path.join(dataDir, 'notes.txt'), 'utf8')).toBe('kept');
  expect(logged).toContainEqual([
    'Removed temporary files of an interrupted write',
    { leftovers: [leftover] },
  ]);
});
