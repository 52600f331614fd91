import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ForkOptions, UtilityProcess } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import {
  createLineSplitter,
  createUtilityProcessServer,
  LOCAL_SANDBOX_SERVICE_NAME,
} from '../../../electron/main/utilityProcessServer.ts';
import { STOP_MESSAGE } from '../../../electron/main/parentPortStop.ts';

/**
 * A stand-in for Electron's UtilityProcess that behaves as Electron's own
 * (lib/browser/api/utility-process.ts): 'exit' is emitted, then the stdout and stderr streams
 * lose all their listeners and are let go (the getters answer null), pid turns undefined and
 * kill() does nothing. Output written after that is never heard of.
 */
class FakeUtilityProcess extends EventEmitter {
  #pid: number | undefined = 4242;
  #stdout: PassThrough | null = new PassThrough();
  #stderr: PassThrough | null = new PassThrough();
  readonly out = this.#stdout!;
  readonly err = this.#stderr!;
  kill = vi.fn(() => this.#pid !== undefined);
  postMessage = vi.fn();
  get pid() {
    return this.#pid;
  }
  get stdout() {
    return this.#stdout;
  }
  get stderr() {
    return this.#stderr;
  }
  exit(code: number) {
    this.#pid = undefined;
    try {
      this.emit('exit', code);
    } finally {
      for (const stream of [this.#stdout, this.#stderr]) stream?.removeAllListeners();
      this.#stdout = null;
      this.#stderr = null;
    }
  }
}

function setup() {
  const forks: Array<{ modulePath: string; args?: string[]; options?: ForkOptions }> = [];
  let child!: FakeUtilityProcess;
  const killProcess = vi.fn();
  const spawn = createUtilityProcessServer({
    fork: (modulePath, args, options) => {
      forks.push({ modulePath, args, options });
      child = new FakeUtilityProcess();
      return child as unknown as UtilityProcess;
    },
    modulePath: '/app/out/main/localServer.js',
    killProcess,
  });
  const server = spawn(['--port', '0', '--demo']);
  const lines: Array<[string, string]> = [];
  server.onOutput((line, stream) => lines.push([line, stream]));
  const exited = new Promise<number | null>((resolve) => server.onExit(resolve));
  return { forks, child, server, lines, exited, killProcess };
}

describe('createLineSplitter', () => {
  it('emits whole lines across chunks, drops CR, and flushes the last partial line', () => {
    const lines: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line));
    splitter.push('PlantDesk API lis');
    splitter.push('tening on http://127.0.0.1:4321\r\nsecond\n\nthi');
    expect(lines).toEqual(['PlantDesk API listening on http://127.0.0.1:4321', 'second', '']);
    splitter.flush();
    splitter.flush();
    expect(lines).toEqual([
      'PlantDesk API listening on http://127.0.0.1:4321',
      'second',
      '',
      'thi',
    ]);
  });
});

describe('utility process server', () => {
  it('forks the server entry with piped output and the service name', () => {
    const { forks, server } = setup();
    expect(forks).toEqual([
      {
        modulePath: '/app/out/main/localServer.js',
        args: ['--port', '0', '--demo'],
        options: { stdio: 'pipe', serviceName: LOCAL_SANDBOX_SERVICE_NAME },
      },
    ]);
    expect(LOCAL_SANDBOX_SERVICE_NAME).toBe('PlantDesk Local sandbox');
    expect(server.pid).toBe(4242);
  });

  it('reports output line by line with its stream, and the exit at once after the last line', async () => {
    const { child, lines, exited } = setup();
    child.out.write('PlantDesk API listening on http://127.0.0.1:');
    child.out.write('4321\n');
    child.err.write('warning: slow disk\nlast words without newline');
    await new Promise((resolve) => setImmediate(resolve));
    child.exit(3);
    expect(await exited).toBe(3);
    expect(lines).toEqual([
      ['PlantDesk API listening on http://127.0.0.1:4321', 'stdout'],
      ['warning: slow disk', 'stderr'],
      ['last words without newline', 'stderr'],
    ]);
  });

  it('hears the crash reason written in the same tick as the exit, before the exit', () => {
    const { child, server, lines } = setup();
    const events: string[] = [];
    server.onExit((code) => events.push(`exit ${code}`));
    // The streams have not started flowing yet: this output is still buffered at 'exit'.
    child.err.write('Error: SQLITE_CANTOPEN: unable to open database file\n');
    child.err.write('    at open (db.ts:1)');
    child.exit(1);
    expect(lines).toEqual([
      ['Error: SQLITE_CANTOPEN: unable to open database file', 'stderr'],
      ['    at open (db.ts:1)', 'stderr'],
    ]);
    expect(events).toEqual(['exit 1']);
    // Electron let go of the streams: nothing written later is reported, and nothing throws.
    child.out.write('too late\n');
    expect(lines).toHaveLength(2);
  });

  it('tells a late exit listener the code at once', async () => {
    const { child, server, exited } = setup();
    child.exit(0);
    await exited;
    const late = await new Promise((resolve) => server.onExit(resolve));
    expect(late).toBe(0);
  });

  it('reports a fatal error as a stderr line', () => {
    const { child, lines } = setup();
    child.emit('error', 'FatalError', 'v8::Heap', '{}');
    expect(lines).toEqual([['Local sandbox process error: FatalError at v8::Heap', 'stderr']]);
  });

  it('stops gracefully over the parent port, forcefully with SIGKILL, and not at all once exited', async () => {
    const { child, server, killProcess, exited } = setup();
    server.kill();
    // Not child.kill(): on Windows that is TerminateProcess, and the server's shutdown never runs.
    expect(child.postMessage).toHaveBeenCalledExactlyOnceWith(STOP_MESSAGE);
    expect(child.kill).not.toHaveBeenCalled();
    server.forceKill();
    expect(killProcess).toHaveBeenCalledWith(4242, 'SIGKILL');
    child.exit(137);
    await exited;
    server.kill();
    server.forceKill();
    expect(child.postMessage).toHaveBeenCalledOnce();
    expect(child.kill).not.toHaveBeenCalled();
    expect(killProcess).toHaveBeenCalledOnce();
    expect(server.pid).toBeUndefined();
  });
});
