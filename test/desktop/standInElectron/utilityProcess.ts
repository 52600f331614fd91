import { fork as forkNode, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ForkOptions } from 'electron';

/**
 * Electron's `utilityProcess.fork` as its documentation and lib/browser/api/utility-process.ts
 * describe it, over a real Node child:
 * - `stdio: 'pipe'` gives `stdout`/`stderr` streams (stdin is always ignored);
 * - 'spawn', then 'exit' with a code; right after 'exit' the streams lose every listener and
 *   become null, and `pid` becomes undefined: output not read by then is lost;
 * - `kill()` is SIGTERM, then SIGKILL if the process is still there 2 s later (Chromium's
 *   reaping on POSIX); it answers false once the process is gone;
 * - `postMessage` reaches the child's `process.parentPort` ('message' with `{ data }`).
 */

const PARENT_PORT_SHIM = fileURLToPath(new URL('./parentPortShim.ts', import.meta.url));
/** Chromium's EnsureProcessTerminated: SIGKILL this long after SIGTERM. */
export const KILL_GRACE_MS = 2_000;

/** What the harness keeps of each utility process, for its assertions. */
export interface UtilityProcessRecord {
  modulePath: string;
  args: string[];
  serviceName: string;
  pid: number | undefined;
  spawned: boolean;
  messages: unknown[];
  /** Signals sent by kill() (the app should ask over the parent port instead). */
  signals: NodeJS.Signals[];
  exit?: { code: number; signal: NodeJS.Signals | null; at: number };
}

function streamModes(stdio: ForkOptions['stdio'] = 'inherit'): ['ignore', string, string] {
  if (typeof stdio === 'string') {
    if (!['pipe', 'ignore', 'inherit'].includes(stdio)) {
      throw new Error('stdio must be of the following values: inherit, pipe, ignore');
    }
    return ['ignore', stdio, stdio];
  }
  if (stdio.length < 3) throw new Error('configuration missing for stdin, stdout or stderr.');
  if (stdio[0] !== 'ignore') throw new Error('stdin value other than ignore is not supported.');
  return ['ignore', stdio[1] ?? 'inherit', stdio[2] ?? 'inherit'];
}

export class StandInUtilityProcess extends EventEmitter {
  readonly record: UtilityProcessRecord;
  #child: ChildProcess | null;
  #stdout: PassThrough | null = null;
  #stderr: PassThrough | null = null;
  #killTimer: NodeJS.Timeout | undefined;

  constructor(modulePath: string, args: string[] = [], options: ForkOptions = {}) {
    super();
    if (!modulePath) throw new Error('Missing UtilityProcess entry script.');
    const [, out, err] = streamModes(options.stdio);
    if (out === 'pipe') this.#stdout = new PassThrough();
    if (err === 'pipe') this.#stderr = new PassThrough();
    this.record = {
      modulePath,
      args: [...args],
      serviceName: options.serviceName ?? 'Node Utility Process',
      pid: undefined,
      spawned: false,
      messages: [],
      signals: [],
    };
    const child = forkNode(modulePath, args, {
      env: (options.env as NodeJS.ProcessEnv | undefined) ?? process.env,
      cwd: options.cwd,
      execArgv: ['--import', PARENT_PORT_SHIM, ...(options.execArgv ?? [])],
      stdio: ['ignore', out, err, 'ipc'] as never,
      serialization: 'advanced',
    });
    this.#child = child;
    if (this.#stdout) child.stdout?.pipe(this.#stdout);
    if (this.#stderr) child.stderr?.pipe(this.#stderr);
    child.once('spawn', () => {
      this.record.pid = child.pid;
      this.record.spawned = true;
      this.emit('spawn');
    });
    child.on('message', (message: unknown) => this.emit('message', message));
    child.once('exit', (code, signal) => {
      clearTimeout(this.#killTimer);
      // waitpid's status: Chromium reports a signal's death as 128 + its number, like a shell.
      const exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
      this.record.exit = { code: exitCode, signal, at: Date.now() };
      try {
        this.emit('exit', exitCode);
      } finally {
        this.#child = null;
        for (const stream of [this.#stdout, this.#stderr]) stream?.removeAllListeners();
        this.#stdout = null;
        this.#stderr = null;
      }
    });
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get stdout(): PassThrough | null {
    return this.#stdout;
  }

  get stderr(): PassThrough | null {
    return this.#stderr;
  }

  postMessage(message: unknown): void {
    this.record.messages.push(message);
    if (this.#child?.connected) this.#child.send(message as never);
  }

  kill(): boolean {
    const child = this.#child;
    if (child === null) return false;
    this.record.signals.push('SIGTERM');
    const sent = child.kill('SIGTERM');
    this.#killTimer ??= setTimeout(() => {
      if (this.#child === null) return;
      this.record.signals.push('SIGKILL');
      this.#child.kill('SIGKILL');
    }, KILL_GRACE_MS);
    return sent;
  }

  /** What Chromium does to its children when the browser process ends. */
  terminateWithBrowser(): void {
    this.#child?.kill('SIGKILL');
  }
}
