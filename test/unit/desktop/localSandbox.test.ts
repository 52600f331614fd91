import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { LocalSandboxState } from '../../../electron/ipc/contract.ts';
import {
  createLocalSandbox,
  defaultRestartDelayMs,
  type LocalSandbox,
  type LocalSandboxDeps,
  type ServerProcess,
} from '../../../electron/services/localSandbox.ts';

/** The supervisor against scripted fake processes: every exit, timeout and refusal on demand. */

class FakeProcess implements ServerProcess {
  readonly args: readonly string[];
  readonly signals: string[] = [];
  /** What the process does on SIGTERM: exit (0) or ignore it. */
  onTerm: 'exit' | 'ignore' = 'exit';
  #output: ((line: string, stream: 'stdout' | 'stderr') => void)[] = [];
  #exit: ((code: number | null, signal?: string | null) => void)[] = [];
  exited = false;

  constructor(args: readonly string[]) {
    this.args = args;
  }
  onOutput(listener: (line: string, stream: 'stdout' | 'stderr') => void): void {
    this.#output.push(listener);
  }
  onExit(listener: (code: number | null, signal?: string | null) => void): void {
    this.#exit.push(listener);
  }
  kill(): void {
    this.signals.push('SIGTERM');
    if (this.onTerm === 'exit') queueMicrotask(() => this.exit(0));
  }
  forceKill(): void {
    this.signals.push('SIGKILL');
    queueMicrotask(() => this.exit(null, 'SIGKILL'));
  }
  say(line: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    for (const listener of this.#output) listener(line, stream);
  }
  listen(port: number): void {
    this.say(`PlantDesk API listening on http://127.0.0.1:${port}`);
  }
  exit(code: number | null, signal: string | null = null): void {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.#exit) listener(code, signal);
  }
}

let dataDir: string;
let spawned: FakeProcess[];
let states: LocalSandboxState[];
let delays: number[];
let sandbox: LocalSandbox | undefined;
/** What each new process does right after it is spawned. */
let script: (process: FakeProcess, index: number) => void;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'plantdesk-supervisor-'));
  spawned = [];
  states = [];
  delays = [];
  script = (process, index) => queueMicrotask(() => process.listen(40000 + index));
});
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

function supervisor(overrides: Partial<LocalSandboxDeps> = {}): LocalSandbox {
  sandbox = createLocalSandbox({
    dataDir,
    spawn: (args) => {
      const process = new FakeProcess(args);
      spawned.push(process);
      script(process, spawned.length - 1);
      return process;
    },
    emit: (event, payload) => {
      expect(event).toBe('localSandbox.changed');
      states.push(payload as LocalSandboxState);
    },
    restartDelayMs: (attempt) => {
      delays.push(attempt);
      return 1;
    },
    maxRestarts: 3,
    ...overrides,
  });
  return sandbox;
}

function statuses(): string[] {
  return states.map((state) => state.status);
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 2000) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('start', () => {
  test('spawns the server on a free loopback port with its database in the data folder', async () => {
    const state = await supervisor({ extraArgs: ['--quiet'] }).start();
    expect(state).toEqual({ status: 'running', url: 'http://127.0.0.1:40000', restarts: 0 });
    expect(spawned[0]!.args).toEqual([
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--db',
      join(dataDir, 'local-sandbox', 'plantdesk.db'),
      '--demo',
      '--exit-with-parent',
      '--only-own-host',
      '--allow-private-networks',
      '--quiet',
    ]);
    expect((await stat(join(dataDir, 'local-sandbox'))).isDirectory()).toBe(true);
    expect(statuses()).toEqual(['starting', 'running']);
    expect(sandbox!.state()).toEqual(state);
  });

  test('output before the address line does not make it running', async () => {
    script = (process) =>
      queueMicrotask(() => {
        process.say('{"level":30,"msg":"Simulator: 10 readings written"}', 'stderr');
        process.say('something else');
        process.listen(41000);
      });
    expect((await supervisor().start()).url).toBe('http://127.0.0.1:41000');
  });

  test('calling start twice starts one process; start while running answers the state', async () => {
    const sandbox = supervisor();
    const [first, second] = await Promise.all([sandbox.start(), sandbox.start()]);
    expect(first).toEqual(second);
    expect(await sandbox.start()).toEqual(first);
    expect(spawned).toHaveLength(1);
  });

  test('a server that never reports its address is killed and counts as a failed attempt', async () => {
    script = (process, index) => {
      if (index > 0) queueMicrotask(() => process.listen(42000));
    };
    const state = await supervisor({ startTimeoutMs: 20 }).start();
    expect(state.status).toBe('running');
    expect(spawned[0]!.signals).toEqual(['SIGKILL']);
    expect(states[1]).toMatchObject({
      status: 'restarting',
      message: expect.stringMatching(/did not report its address within 0 s; restarting/),
      restarts: 1,
    });
  });
});

describe('unexpected exits', () => {
  test('restart with backoff, and the state says why', async () => {
    const sandbox = supervisor();
    await sandbox.start();
    spawned[0]!.say('Error: disk I/O error', 'stderr');
    spawned[0]!.exit(null, 'SIGKILL');
    expect(sandbox.state()).toMatchObject({
      status: 'restarting',
      message: expect.stringMatching(
        /^The Local sandbox server was killed by SIGKILL; restarting in 1 ms:\nError: disk I\/O error$/,
      ),
      restarts: 1,
    });
    await until(() => sandbox.state().status === 'running');
    expect(sandbox.state()).toEqual({
      status: 'running',
      url: 'http://127.0.0.1:40001',
      restarts: 1,
    });
    expect(statuses()).toEqual(['starting', 'running', 'restarting', 'running']);
    expect(delays).toEqual([1]);
  });

  test('too many exits within the window: failed, naming the exit code and the last error lines', async () => {
    script = (process) =>
      queueMicrotask(() => {
        process.say('node:internal/modules/cjs/loader:1568', 'stderr');
        process.say("Error: Cannot find module '/nowhere.ts'", 'stderr');
        process.say(
          '    at Module._resolveFilename (node:internal/modules/cjs/loader:1564:15)',
          'stderr',
        );
        process.say('', 'stderr');
        process.say('Node.js v24.21.0', 'stderr');
        process.exit(1);
      });
    const state = await supervisor().start();
    expect(state.status).toBe('failed');
    expect(state.restarts).toBe(3);
    expect(state.message).toBe(
      'The Local sandbox server exited with code 1; gave up after 3 restarts:\n' +
        "Error: Cannot find module '/nowhere.ts'\n" +
        'at Module._resolveFilename (node:internal/modules/cjs/loader:1564:15)\n' +
        'Node.js v24.21.0',
    );
    expect(spawned).toHaveLength(4);
    expect(delays).toEqual([1, 2, 3]);
    expect(statuses()).toEqual(['starting', 'restarting', 'restarting', 'restarting', 'failed']);
  });

  test('exits spread out beyond the window do not add up', async () => {
    const sandbox = supervisor({ maxRestarts: 1, restartWindowMs: 30 });
    await sandbox.start();
    for (let crash = 0; crash < 3; crash += 1) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      spawned.at(-1)!.exit(2);
      await until(() => sandbox.state().status === 'running');
    }
    expect(sandbox.state().restarts).toBe(3);
    expect(delays).toEqual([1, 1, 1]);
  });

  test('a spawn that throws counts as an exit', async () => {
    let calls = 0;
    sandbox = createLocalSandbox({
      dataDir,
      emit: (_event, payload) => void states.push(payload as LocalSandboxState),
      restartDelayMs: () => 1,
      maxRestarts: 1,
      spawn: () => {
        calls += 1;
        throw new Error('spawn EACCES');
      },
    });
    const state = await sandbox.start();
    expect(calls).toBe(2);
    expect(state).toMatchObject({
      status: 'failed',
      message:
        'The Local sandbox server could not be started: spawn EACCES; gave up after 1 restart',
    });
  });
});

describe("the app's log", () => {
  test("gets the server's events and problems, not a line per request", async () => {
    const lines: string[] = [];
    const record = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
    const request =
      '{"level":30,"time":1,"pid":2,"hostname":"vm","reqId":"req-1","method":"GET","path":"/plants","status":200,"durationMs":1.5,"msg":"request"}';
    script = (process) =>
      queueMicrotask(() => {
        process.say(
          '{"level":30,"time":1,"msg":"Server listening at http://127.0.0.1:40000"}',
          'stderr',
        );
        process.say(request, 'stderr');
        process.say(request.replace('"status":200', '"status":404'), 'stderr');
        process.say('{"level":50,"time":1,"msg":"database is locked"}', 'stderr');
        process.exit(1);
      });
    const state = await supervisor({
      log: { info: record('info'), warn: record('warn'), error: record('error') },
      maxRestarts: 0,
    }).start();
    const fromServer = lines.filter((line) => line.includes('Local sandbox: {'));
    expect(fromServer).toEqual([
      'info Local sandbox: {"level":30,"time":1,"msg":"Server listening at http://127.0.0.1:40000"}',
      'error Local sandbox: {"level":50,"time":1,"msg":"database is locked"}',
    ]);
    // Nor do requests crowd the lines that explain a crash.
    expect(state.message).not.toContain('"msg":"request"');
    expect(state.message).toContain('database is locked');
  });
});

describe('stop and restart', () => {
  test('stop sends SIGTERM, and the exit is not taken for a crash', async () => {
    const sandbox = supervisor();
    await sandbox.start();
    await sandbox.stop();
    expect(spawned[0]!.signals).toEqual(['SIGTERM']);
    expect(sandbox.state()).toEqual({ status: 'stopped', restarts: 0 });
    expect(statuses()).toEqual(['starting', 'running', 'stopped']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(spawned).toHaveLength(1);
  });

  test('a process that ignores SIGTERM is forced after the grace period', async () => {
    script = (process) => {
      process.onTerm = 'ignore';
      queueMicrotask(() => process.listen(43000));
    };
    const sandbox = supervisor({ stopGraceMs: 20 });
    await sandbox.start();
    await sandbox.stop();
    expect(spawned[0]!.signals).toEqual(['SIGTERM', 'SIGKILL']);
    expect(sandbox.state().status).toBe('stopped');
  });

  test('stop while a restart is pending cancels it', async () => {
    const sandbox = supervisor({ restartDelayMs: () => 30 });
    await sandbox.start();
    spawned[0]!.exit(1);
    expect(sandbox.state().status).toBe('restarting');
    await sandbox.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spawned).toHaveLength(1);
    expect(sandbox.state().status).toBe('stopped');
  });

  test('stop while starting settles the pending start as stopped', async () => {
    script = () => {};
    const sandbox = supervisor();
    const starting = sandbox.start();
    await until(() => spawned.length === 1);
    await sandbox.stop();
    expect((await starting).status).toBe('stopped');
  });

  test('stop right after start waits for the folder to be made, and starts nothing', async () => {
    const sandbox = supervisor();
    const starting = sandbox.start();
    await sandbox.stop();
    // Whatever start wrote, it wrote before stop resolved: the data folder can go now.
    await rm(dataDir, { recursive: true, force: true });
    expect((await starting).status).toBe('stopped');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(spawned).toHaveLength(0);
  });

  test('a run at a chosen instant gets --clock and a database named after the instant', async () => {
    await supervisor({ clock: '2026-03-29T03:30:00+02:00' }).start();
    expect(spawned[0]!.args).toEqual([
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--db',
      join(dataDir, 'local-sandbox', 'plantdesk-at-2026-03-29T01-30-00-000Z.db'),
      '--demo',
      '--exit-with-parent',
      '--only-own-host',
      '--allow-private-networks',
      '--clock',
      '2026-03-29T03:30:00+02:00',
    ]);
  });

  test('stop when nothing runs is quiet', async () => {
    await supervisor().stop();
    expect(states).toEqual([]);
  });

  test('restart after failing starts afresh', async () => {
    let failing = true;
    script = (process, index) =>
      queueMicrotask(() => (failing ? process.exit(1) : process.listen(44000 + index)));
    const sandbox = supervisor({ maxRestarts: 0 });
    expect((await sandbox.start()).status).toBe('failed');
    failing = false;
    expect(await sandbox.restart()).toEqual({
      status: 'running',
      url: 'http://127.0.0.1:44001',
      restarts: 0,
    });
    expect(statuses()).toEqual(['starting', 'failed', 'starting', 'running']);
  });

  test('restart of a running server stops it and starts a new one', async () => {
    const sandbox = supervisor();
    await sandbox.start();
    const state = await sandbox.restart();
    expect(state.url).toBe('http://127.0.0.1:40001');
    expect(spawned[0]!.signals).toEqual(['SIGTERM']);
    expect(statuses()).toEqual(['starting', 'running', 'stopped', 'starting', 'running']);
  });
});

test('the default backoff doubles from half a second up to 30 s', () => {
  expect([1, 2, 3, 4, 7, 20].map(defaultRestartDelayMs)).toEqual([
    500, 1000, 2000, 4000, 30_000, 30_000,
  ]);
});
