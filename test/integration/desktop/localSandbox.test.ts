import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LocalSandboxState } from '../../../electron/ipc/contract.ts';
import { spawnNodeServer } from '../../../electron/services/childProcessServer.ts';
import {
  createLocalSandbox,
  localSandboxDatabasePath,
  type LocalSandbox,
  type ServerProcess,
  type SpawnServer,
} from '../../../electron/services/localSandbox.ts';
import { DEMO_ACCOUNTS } from '../../support/testServer.ts';
import { isAlive } from '../../support/processAlive.ts';

/**
 * The supervisor with the repository's real server in a real child process: the URL it reports
 * answers, the database lives in the data folder, a killed server comes back with its data, and
 * a server that cannot start ends as 'failed' with the reason.
 */

const FAST_ARGS = ['--no-simulation', '--quiet'];

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the Local sandbox with the real server', () => {
  let dataDir: string;
  let sandbox: LocalSandbox;
  const states: LocalSandboxState[] = [];
  const processes: ServerProcess[] = [];
  const admin = DEMO_ACCOUNTS[0];
  let accessToken = '';
  let demoPlantUuid = '';
  let firstUrl = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plantdesk-local-sandbox-'));
    const spawnServer = spawnNodeServer();
    const spawn: SpawnServer = (args) => {
      const server = spawnServer(args);
      processes.push(server);
      return server;
    };
    sandbox = createLocalSandbox({
      dataDir,
      spawn,
      emit: (_event, payload) => void states.push(payload as LocalSandboxState),
      extraArgs: FAST_ARGS,
      restartDelayMs: () => 100,
    });
  });

  afterAll(async () => {
    await sandbox?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('starts on a loopback URL that answers, with its database in the data folder', async () => {
    const state = await sandbox.start();
    expect(state).toMatchObject({ status: 'running', restarts: 0 });
    expect(state.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    firstUrl = state.url!;

    const anonymous = await fetch(`${firstUrl}/plants`);
    expect(anonymous.status).toBe(401);
    expect(existsSync(localSandboxDatabasePath(dataDir))).toBe(true);

    const login = await fetch(`${firstUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    expect(login.status).toBe(200);
    accessToken = ((await login.json()) as { accessToken: string }).accessToken;
    const plants = await fetch(`${firstUrl}/plants?search=Demo%20Home`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const page = (await plants.json()) as { content: { plantUuid: string; name: string }[] };
    expect(page.content.map((plant) => plant.name)).toEqual(['Demo Home']);
    demoPlantUuid = page.content[0]!.plantUuid;
  });

  test('comes back on a new port with the same data after being killed from outside', async () => {
    const killed = processes.at(-1)!;
    expect(killed.pid).toBeTypeOf('number');
    process.kill(killed.pid!, 'SIGKILL');

    await waitFor(() => sandbox.state().status === 'restarting');
    expect(sandbox.state().message).toMatch(/was killed by SIGKILL; restarting/);
    await waitFor(() => sandbox.state().status === 'running');
    const state = sandbox.state();
    expect(state.restarts).toBe(1);
    expect(state.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(state.url).not.toBe(firstUrl);

    // Same database: the token signed before the kill still works and the demo plant is there.
    const plant = await fetch(`${state.url}/plants/${demoPlantUuid}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(plant.status).toBe(200);
    expect(((await plant.json()) as { name: string }).name).toBe('Demo Home');
    // --demo seeds only an empty database: still one Demo Home.
    const plants = await fetch(`${state.url}/plants?search=Demo%20Home`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(((await plants.json()) as { content: unknown[] }).content).toHaveLength(1);
  });

  test('stop ends the process and says so', async () => {
    const pid = processes.at(-1)!.pid!;
    expect(isAlive(pid)).toBe(true);
    await sandbox.stop();
    expect(isAlive(pid)).toBe(false);
    expect(sandbox.state()).toEqual({ status: 'stopped', restarts: 1 });
  });

  test('announced every state change, in order', () => {
    expect(states.map((state) => state.status)).toEqual([
      'starting',
      'running',
      'restarting',
      'running',
      'stopped',
    ]);
    expect(states[1]!.url).toBe(firstUrl);
    expect(states[3]!.url).not.toBe(firstUrl);
  });
});

test('a server that exits at once ends as failed, naming the exit code and the error', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'plantdesk-local-sandbox-bad-'));
  const states: string[] = [];
  try {
    const sandbox = createLocalSandbox({
      dataDir,
      spawn: spawnNodeServer({ entry: join(dataDir, 'no-such-server.ts') }),
      emit: (_event, payload) => void states.push((payload as LocalSandboxState).status),
      maxRestarts: 2,
      restartDelayMs: () => 10,
    });
    const state = await sandbox.start();
    expect(state.status).toBe('failed');
    expect(state.restarts).toBe(2);
    expect(state.message).toMatch(
      /^The Local sandbox server exited with code 1; gave up after 2 restarts:\n/,
    );
    expect(state.message).toContain('Error: Cannot find module');
    expect(states).toEqual(['starting', 'restarting', 'restarting', 'failed']);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a sandbox run at a chosen instant has that clock and a database of its own', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'plantdesk-local-sandbox-clock-'));
  const clock = '2026-10-25T02:30:00+01:00';
  const sandbox = createLocalSandbox({
    dataDir,
    spawn: spawnNodeServer(),
    emit: () => {},
    extraArgs: FAST_ARGS,
    clock,
  });
  try {
    const state = await sandbox.start();
    expect(state.status).toBe('running');
    const database = localSandboxDatabasePath(dataDir, clock);
    expect(database).toBe(
      join(dataDir, 'local-sandbox', 'plantdesk-at-2026-10-25T01-30-00-000Z.db'),
    );
    expect(existsSync(database)).toBe(true);
    expect(existsSync(localSandboxDatabasePath(dataDir))).toBe(false);
    // The server's time: an error body's timestamp is read off its clock.
    const body = (await (await fetch(`${state.url}/plants`)).json()) as { timestamp: string };
    const at = Date.parse(body.timestamp) - Date.parse(clock);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(60_000);
  } finally {
    await sandbox.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
