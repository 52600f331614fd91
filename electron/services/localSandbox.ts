import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseClockStart } from '../../server/clock.ts';
import type { LocalSandboxState } from '../ipc/contract.ts';
import type { Emit } from './eventBus.ts';
import { silentLogger, type Logger } from './logger.ts';

/** One running server process, whatever starts it (child process, Electron utilityProcess). */
export interface ServerProcess {
  /** The OS process id, when known (tests kill it from outside). */
  readonly pid?: number;
  /** Whole lines, without their line break. */
  onOutput(listener: (line: string, stream: 'stdout' | 'stderr') => void): void;
  /** Called once, after the last output line; `signal` when the platform says which. */
  onExit(listener: (code: number | null, signal?: string | null) => void): void;
  /**
   * Graceful (SIGTERM, or a stop message to a utility process): the server closes its database.
   * The supervisor escalates.
   */
  kill(): void;
  forceKill(): void;
}

/** Starts the repository's server (`server/cli.ts`) with these arguments. */
export type SpawnServer = (args: readonly string[]) => ServerProcess;

export interface LocalSandboxDeps {
  spawn: SpawnServer;
  /** The app's data folder; the database goes in `local-sandbox/` there. */
  dataDir: string;
  emit: Emit;
  log?: Logger;
  /** How long a start may take before the attempt counts as failed. Default 60 s. */
  startTimeoutMs?: number;
  /** Unexpected exits tolerated within `restartWindowMs` before giving up. Default 5. */
  maxRestarts?: number;
  /** Default 5 minutes. */
  restartWindowMs?: number;
  /** Delay before restart attempt n (1-based). Default 0.5 s, 1 s, 2 s … capped at 30 s. */
  restartDelayMs?: (attempt: number) => number;
  /** How long `stop()` waits after the graceful kill before forcing. Default 5 s. */
  stopGraceMs?: number;
  /** Appended to the arguments (tests: `--no-simulation --quiet`). */
  extraArgs?: readonly string[];
  /**
   * The server's clock starts at this instant (`--clock`, an ISO 8601 date-time with an offset),
   * so the whole app can run at a chosen time. Its database is then one of its own.
   */
  clock?: string;
}

export interface LocalSandbox {
  /** Resolves once running (the URL is known), failed, or stopped meanwhile. */
  start(): Promise<LocalSandboxState>;
  /** On quit: a graceful kill, then a forced one after the grace period. */
  stop(): Promise<void>;
  /** Stops if needed and starts afresh (also after 'failed'), forgetting earlier crashes. */
  restart(): Promise<LocalSandboxState>;
  state(): LocalSandboxState;
}

/**
 * The Local sandbox's database. A run at a chosen instant gets a file of its own, named after
 * that instant: the simulator writes readings up to its clock, and those must never land in
 * (or be hidden by the later readings of) the database of the real time.
 */
export function localSandboxDatabasePath(dataDir: string, clock?: string): string {
  const name =
    clock === undefined
      ? 'plantdesk.db'
      : `plantdesk-at-${new Date(parseClockStart(clock)).toISOString().replace(/[:.]/g, '-')}.db`;
  return join(dataDir, 'local-sandbox', name);
}

export function localSandboxArgs(
  dataDir: string,
  extraArgs: readonly string[] = [],
  clock?: string,
): string[] {
  return [
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--db',
    localSandboxDatabasePath(dataDir, clock),
    '--demo',
    '--exit-with-parent',
    // Only the app talks to it: a page that rebinds its name to 127.0.0.1 gets 421.
    '--only-own-host',
    // It runs on the installer's laptop, next to the devices on the site's network.
    '--allow-private-networks',
    ...(clock === undefined ? [] : ['--clock', clock]),
    ...extraArgs,
  ];
}

export function defaultRestartDelayMs(attempt: number): number {
  return Math.min(500 * 2 ** Math.max(0, attempt - 1), 30_000);
}

const LISTENING = /PlantDesk API listening on (https?:\/\/\S+)/;
const STDERR_TAIL_LINES = 20;
const MAX_LOGGED_LINE = 2000;
const MAX_MESSAGE_LINE = 300;
/** After a forced kill, how long to wait for the exit before forgetting the process. */
const FORCE_KILL_WAIT_MS = 2000;

interface Attempt {
  process: ServerProcess;
  exited: Promise<void>;
  /** Set when the supervisor itself ended the attempt, to explain the exit. */
  reason?: string;
  startTimer?: ReturnType<typeof setTimeout>;
  stderrTail: string[];
}

function describeExit(code: number | null, signal: string | null | undefined): string {
  if (code !== null) return `exited with code ${code}`;
  return signal ? `was killed by ${signal}` : 'exited without an exit code';
}

function clip(line: string, length: number): string {
  return line.length > length ? `${line.slice(0, length)}…` : line;
}

/** The line that says what went wrong, if one does, and the lines that closed the output. */
function summarize(stderrTail: readonly string[]): string {
  if (stderrTail.length === 0) return '';
  const errorLine = stderrTail.findLast((line) => /\b\w*Error\b|"level":(50|60)/.test(line));
  const last = stderrTail.slice(-3).filter((line) => line !== errorLine);
  return [errorLine, ...last]
    .filter((line): line is string => line !== undefined)
    .map((line) => clip(line.trim(), MAX_MESSAGE_LINE))
    .join('\n');
}

/**
 * The server's line for each request it answered (server/http/requestLog.ts). Traffic, not an
 * event: it stays out of the app's log and of the lines that explain a crash.
 */
function isRequestLine(line: string): boolean {
  return /^\{"level":30,/.test(line) && /,"msg":"request"\}$/.test(line);
}

/** Server output is pino JSON on stderr. */
function logOutput(log: Logger, line: string, stream: 'stdout' | 'stderr'): void {
  const level = /^\{"level":(\d+)/.exec(line)?.[1];
  const text = `Local sandbox: ${clip(line, MAX_LOGGED_LINE)}`;
  if (level !== undefined && Number(level) >= 50) log.error(text, { stream });
  else if (level !== undefined && Number(level) >= 40) log.warn(text, { stream });
  else log.info(text, { stream });
}

function sleep(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref?.());
}

/**
 * Supervises the Local sandbox server: starts it on a free loopback port with its database in
 * the data folder, learns its URL from its first stdout line, restarts it with backoff when it
 * dies (giving up after too many deaths in a short time) and stops it on quit. Every state
 * change is emitted as 'localSandbox.changed' so that the app can show it.
 */
export function createLocalSandbox(deps: LocalSandboxDeps): LocalSandbox {
  const log = deps.log ?? silentLogger;
  const startTimeoutMs = deps.startTimeoutMs ?? 60_000;
  const maxRestarts = deps.maxRestarts ?? 5;
  const restartWindowMs = deps.restartWindowMs ?? 5 * 60_000;
  const restartDelayMs = deps.restartDelayMs ?? defaultRestartDelayMs;
  const stopGraceMs = deps.stopGraceMs ?? 5000;
  const args = localSandboxArgs(deps.dataDir, deps.extraArgs, deps.clock);

  let current: LocalSandboxState = { status: 'stopped', restarts: 0 };
  let attempt: Attempt | undefined;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let crashTimes: number[] = [];
  let stopping: Promise<void> | undefined;
  let preparing: Promise<void> | undefined;
  let waiters: ((state: LocalSandboxState) => void)[] = [];

  /** A copy, and a function call so that TypeScript does not narrow across awaits. */
  function readState(): LocalSandboxState {
    return { ...current };
  }

  function setState(next: LocalSandboxState): void {
    current = next;
    const snapshot = { ...current };
    deps.emit('localSandbox.changed', snapshot);
    if (next.status === 'running' || next.status === 'failed' || next.status === 'stopped') {
      const settled = waiters;
      waiters = [];
      for (const resolve of settled) resolve({ ...snapshot });
    }
  }

  function settledState(): Promise<LocalSandboxState> {
    return new Promise((resolve) => waiters.push(resolve));
  }

  function launch(): void {
    let server: ServerProcess;
    try {
      server = deps.spawn(args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error('Local sandbox: could not start the server process', { error: message });
      handleCrash(`could not be started: ${message}`, []);
      return;
    }
    let onExited!: () => void;
    const exited = new Promise<void>((resolve) => (onExited = resolve));
    const self: Attempt = { process: server, exited, stderrTail: [] };
    attempt = self;
    log.info('Local sandbox: server process started', { pid: server.pid, args });

    server.onOutput((line, stream) => {
      if (isRequestLine(line)) return;
      logOutput(log, line, stream);
      if (attempt !== self) return;
      if (stream === 'stderr' && line.trim() !== '') {
        self.stderrTail.push(line);
        if (self.stderrTail.length > STDERR_TAIL_LINES) self.stderrTail.shift();
      }
      const url = stream === 'stdout' ? LISTENING.exec(line)?.[1] : undefined;
      if (url && current.status !== 'running') {
        clearTimeout(self.startTimer);
        setState({ status: 'running', url, restarts: current.restarts });
      }
    });

    server.onExit((code, signal) => {
      onExited();
      clearTimeout(self.startTimer);
      log.info('Local sandbox: server process ended', { pid: server.pid, code, signal });
      if (attempt !== self) return;
      attempt = undefined;
      // An exit we asked for (stop) is not a crash; stop() reports it.
      if (stopping) return;
      handleCrash(self.reason ?? describeExit(code, signal), self.stderrTail);
    });

    self.startTimer = setTimeout(() => {
      if (attempt !== self || current.status === 'running') return;
      self.reason = `did not report its address within ${Math.round(startTimeoutMs / 1000)} s`;
      log.error(`Local sandbox: server ${self.reason}; killing it`);
      server.forceKill();
    }, startTimeoutMs);
  }

  function handleCrash(what: string, stderrTail: readonly string[]): void {
    const now = Date.now();
    crashTimes = [...crashTimes.filter((time) => now - time < restartWindowMs), now];
    const output = summarize(stderrTail);
    const detail = output ? `:\n${output}` : '';
    if (crashTimes.length > maxRestarts) {
      const message = `The Local sandbox server ${what}; gave up after ${current.restarts} ${current.restarts === 1 ? 'restart' : 'restarts'}${detail}`;
      log.error(message);
      setState({ status: 'failed', message, restarts: current.restarts });
      return;
    }
    const delay = restartDelayMs(crashTimes.length);
    const message = `The Local sandbox server ${what}; restarting in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`}${detail}`;
    log.warn(message);
    setState({ status: 'restarting', message, restarts: current.restarts + 1 });
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      launch();
    }, delay);
  }

  async function stopProcess(): Promise<void> {
    clearTimeout(restartTimer);
    restartTimer = undefined;
    const running = attempt;
    if (running) {
      clearTimeout(running.startTimer);
      running.process.kill();
      if ((await Promise.race([running.exited, sleep(stopGraceMs)])) === 'timeout') {
        log.warn(`Local sandbox: no exit ${stopGraceMs} ms after asking it to stop; forcing`);
        running.process.forceKill();
        if ((await Promise.race([running.exited, sleep(FORCE_KILL_WAIT_MS)])) === 'timeout') {
          log.error('Local sandbox: the server process did not exit even when forced');
        }
      }
      if (attempt === running) attempt = undefined;
    }
    // 'failed' stays as it is: nothing runs, and its message still says why.
    if (current.status !== 'stopped' && current.status !== 'failed') {
      setState({ status: 'stopped', restarts: current.restarts });
    }
    // A start still making its folder (it will not launch now): nothing is written after stop().
    await preparing?.catch(() => {});
  }

  function stop(): Promise<void> {
    stopping ??= stopProcess().finally(() => (stopping = undefined));
    return stopping;
  }

  async function start(): Promise<LocalSandboxState> {
    if (stopping) await stopping;
    if (current.status === 'running') return { ...current };
    if (current.status === 'starting' || current.status === 'restarting') return settledState();
    const settled = settledState();
    crashTimes = [];
    setState({ status: 'starting', restarts: 0 });
    try {
      preparing = mkdir(join(deps.dataDir, 'local-sandbox'), { recursive: true, mode: 0o700 })
        .then(() => undefined)
        .finally(() => (preparing = undefined));
      await preparing;
    } catch (error) {
      const message = `The Local sandbox could not create its folder: ${(error as Error).message}`;
      log.error(message);
      setState({ status: 'failed', message, restarts: 0 });
      return settled;
    }
    // stop() may have run while the folder was being made.
    if (readState().status === 'starting') launch();
    return settled;
  }

  return {
    start,
    stop,
    async restart() {
      await stop();
      return start();
    },
    state: readState,
  };
}
