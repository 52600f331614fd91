import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { LocalSandboxState } from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import {
  createLocalSandbox,
  localSandboxDatabasePath,
  type ServerProcess,
} from '../../../electron/services/localSandbox.ts';
import { createLocalSandboxChoice } from '../../../electron/services/localSandboxChoice.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import { createMemoryStore } from '../../../electron/services/secrets.ts';

/**
 * Stop, Start and Restart as support staff use them: the service's states along the way, the
 * database kept from one run to the next, and a stop remembered across launches of the app.
 * Server processes are fakes that listen (or fail) on demand.
 */

interface Fake extends ServerProcess {
  args: readonly string[];
  signals: string[];
}

const folders: string[] = [];
const apps: PlantDesk[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.dispose()));
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-sandbox-controls-'));
  folders.push(folder);
  return folder;
}

/** A spawner whose processes listen at once, unless `fail` says the n-th exits with code 1. */
function fakeSpawner(fail: (index: number) => boolean = () => false) {
  const spawned: Fake[] = [];
  const spawn = (args: readonly string[]): ServerProcess => {
    const index = spawned.length;
    const output: ((line: string, stream: 'stdout' | 'stderr') => void)[] = [];
    const exits: ((code: number | null) => void)[] = [];
    let exited = false;
    const exit = (code: number | null) => {
      if (exited) return;
      exited = true;
      exits.splice(0).forEach((listener) => listener(code));
    };
    const fake: Fake = {
      args,
      signals: [],
      onOutput: (listener) => void output.push(listener),
      onExit: (listener) => void exits.push(listener),
      kill: () => {
        fake.signals.push('SIGTERM');
        queueMicrotask(() => exit(0));
      },
      forceKill: () => {
        fake.signals.push('SIGKILL');
        queueMicrotask(() => exit(null));
      },
    };
    spawned.push(fake);
    queueMicrotask(() => {
      if (fail(index)) {
        output.forEach((listener) => listener('Error: port in use', 'stderr'));
        exit(1);
      } else {
        const line = `PlantDesk API listening on http://127.0.0.1:${41000 + index}`;
        output.forEach((listener) => listener(line, 'stdout'));
      }
    });
    return fake;
  };
  return { spawn, spawned };
}

const dbArg = (process: Fake) => process.args[process.args.indexOf('--db') + 1];

describe('the service across stop and start', () => {
  test('start after stop runs the same database again, and leaves its file as it was', async () => {
    const dataDir = dataFolder();
    const { spawn, spawned } = fakeSpawner();
    const states: string[] = [];
    const sandbox = createLocalSandbox({
      spawn,
      dataDir,
      emit: (_event, state) => void states.push((state as LocalSandboxState).status),
    });
    expect(await sandbox.start()).toMatchObject({
      status: 'running',
      url: 'http://127.0.0.1:41000',
    });
    const database = localSandboxDatabasePath(dataDir);
    fs.writeFileSync(database, 'the plants of the day before');

    await sandbox.stop();
    expect(sandbox.state()).toEqual({ status: 'stopped', restarts: 0 });
    expect(spawned[0]!.signals).toEqual(['SIGTERM']);
    expect(await sandbox.start()).toMatchObject({
      status: 'running',
      url: 'http://127.0.0.1:41001',
    });

    expect(dbArg(spawned[1]!)).toBe(database);
    expect(spawned[1]!.args).toEqual(spawned[0]!.args);
    expect(fs.readFileSync(database, 'utf8')).toBe('the plants of the day before');
    expect(states).toEqual(['starting', 'running', 'stopped', 'starting', 'running']);
    await sandbox.stop();
  });

  test('start while running and stop while stopped change nothing', async () => {
    const { spawn, spawned } = fakeSpawner();
    const states: string[] = [];
    const sandbox = createLocalSandbox({
      spawn,
      dataDir: dataFolder(),
      emit: (_event, state) => void states.push((state as LocalSandboxState).status),
    });
    await sandbox.start();
    expect((await sandbox.start()).status).toBe('running');
    await sandbox.stop();
    await sandbox.stop();
    expect(spawned).toHaveLength(1);
    expect(states).toEqual(['starting', 'running', 'stopped']);
  });

  test('failed, with the reason, until started again', async () => {
    const { spawn, spawned } = fakeSpawner((index) => index === 0);
    const sandbox = createLocalSandbox({
      spawn,
      dataDir: dataFolder(),
      emit: () => {},
      maxRestarts: 0,
    });
    const failed = await sandbox.start();
    expect(failed.status).toBe('failed');
    expect(failed.message).toContain('exited with code 1');
    expect(failed.message).toContain('Error: port in use');
    // Stopping a failed sandbox keeps the reason; starting it tries afresh.
    await sandbox.stop();
    expect(sandbox.state().status).toBe('failed');
    expect((await sandbox.start()).status).toBe('running');
    expect(dbArg(spawned[1]!)).toBe(dbArg(spawned[0]!));
    await sandbox.stop();
  });
});

describe('the user’s choice', () => {
  test('is remembered in the data folder; anything unreadable means started', () => {
    const dataDir = dataFolder();
    const choice = createLocalSandboxChoice(dataDir);
    expect(choice.stoppedByUser()).toBe(false);
    choice.remember(true);
    expect(createLocalSandboxChoice(dataDir).stoppedByUser()).toBe(true);
    choice.remember(false);
    expect(choice.stoppedByUser()).toBe(false);
    fs.writeFileSync(path.join(dataDir, 'local-sandbox-choice.json'), '{ not json');
    const warnings: string[] = [];
    const log = { info() {}, warn: (message: string) => void warnings.push(message), error() {} };
    expect(createLocalSandboxChoice(dataDir, log).stoppedByUser()).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});

describe('the channels', () => {
  async function launch(dataDir: string, spawn: ReturnType<typeof fakeSpawner>['spawn']) {
    const app = await startPlantDesk({
      host: 'web',
      version: 'test',
      dataDir,
      spawnServer: spawn,
      secrets: { store: { ...createMemoryStore(), available: true }, status: { available: true } },
      log: { info() {}, warn() {}, error() {} },
      openExternal: async () => {},
    });
    apps.push(app);
    return app;
  }
  async function settled(app: PlantDesk): Promise<LocalSandboxState> {
    for (let waited = 0; waited < 2000; waited += 5) {
      const state = await app.handlers['localSandbox.state']();
      if (state.status !== 'starting') return state;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('the Local sandbox did not settle');
  }

  test('a stop lasts across launches until Start; the environment follows the address', async () => {
    const dataDir = dataFolder();
    const first = fakeSpawner();
    const app = await launch(dataDir, first.spawn);
    expect((await settled(app)).status).toBe('running');

    expect(await app.handlers['localSandbox.stop']()).toEqual({ status: 'stopped', restarts: 0 });
    const local = async (desk: PlantDesk) =>
      (await desk.handlers['environments.list']()).environments.find((env) => env.kind === 'local');
    expect((await local(app))?.baseUrl).toBe('');
    await app.dispose();

    // The next launch leaves it stopped.
    const second = fakeSpawner();
    const relaunched = await launch(dataDir, second.spawn);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second.spawned).toHaveLength(0);
    expect((await relaunched.handlers['localSandbox.state']()).status).toBe('stopped');

    const started = await relaunched.handlers['localSandbox.start']();
    expect(started).toMatchObject({ status: 'running', url: 'http://127.0.0.1:41000' });
    expect(dbArg(second.spawned[0]!)).toBe(dbArg(first.spawned[0]!));
    expect((await local(relaunched))?.baseUrl).toBe('http://127.0.0.1:41000');
    await relaunched.dispose();

    // Started again, it starts with the app again.
    const third = fakeSpawner();
    const again = await launch(dataDir, third.spawn);
    expect((await settled(again)).status).toBe('running');
    expect(third.spawned).toHaveLength(1);
  });

  test('restart runs a new process on the same database, and undoes a stop', async () => {
    const dataDir = dataFolder();
    const { spawn, spawned } = fakeSpawner();
    const app = await launch(dataDir, spawn);
    await settled(app);
    await app.handlers['localSandbox.stop']();
    expect((await app.handlers['localSandbox.restart']()).status).toBe('running');
    expect(spawned).toHaveLength(2);
    expect(createLocalSandboxChoice(dataDir).stoppedByUser()).toBe(false);
  });

  test('through the contract: arguments are refused before the service is touched', async () => {
    const { spawn, spawned } = fakeSpawner();
    const app = await launch(dataFolder(), spawn);
    await settled(app);
    const dispatch = createDispatcher(app.handlers);
    for (const channel of ['localSandbox.start', 'localSandbox.stop', 'localSandbox.restart']) {
      expect(await dispatch(channel, ['now'])).toMatchObject({
        ok: false,
        error: { kind: 'invalidArguments' },
      });
    }
    expect(spawned[0]!.signals).toEqual([]);
    expect(await dispatch('localSandbox.stop', [])).toEqual({
      ok: true,
      value: { status: 'stopped', restarts: 0 },
    });
  });
});
