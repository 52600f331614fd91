import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireFreshBuild } from '../../build/support/builtOut.ts';
import type { Command, ExitReport, FetchResult, StandInState } from './protocol.ts';

/**
 * Runs a built PlantDesk (its package.json "main", out/main/index.js) in a stand-in Electron
 * main process under Node (mainProcess.ts, electron.ts) and drives it as Electron and the
 * renderer would. `appRoot` is the folder holding package.json and out/: the repository by
 * default, or a packed app's extracted app.asar.
 */

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN_PROCESS = fileURLToPath(new URL('./mainProcess.ts', import.meta.url));

export interface StandInAppOptions {
  appRoot?: string;
  /** app.isPackaged; default false (a development run: its own data folder and keychain name). */
  packaged?: boolean;
  /** PLANTDESK_CLOCK: the app's and the Local sandbox's clock (tests never follow the date). */
  clock?: string;
  env?: NodeJS.ProcessEnv;
  /** Another app's home (a second instance); default a new one, removed by close(). */
  home?: string;
}

export interface StandInApp {
  /** The fake home (app data, logs, the Local sandbox's database); removed by close(). */
  home: string;
  state(): Promise<StandInState>;
  /** Polls the state until `accept` says yes. */
  waitFor(
    accept: (state: StandInState) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<StandInState>;
  fetch(urls: string[], method?: string): Promise<FetchResult[]>;
  /** The payloads the page received for `event` (e.g. 'proxyAuth.requested'), in order. */
  eventPayloads(event: string): Promise<unknown[]>;
  /** Asks `localSandbox.state` as the page does until it is running; answers the last answer. */
  untilSandboxRunning(timeoutMs?: number): Promise<unknown>;
  /** `window.plantdesk[channel](...args)` in the page: through the preload and ipcMain. */
  call(channel: string, ...args: unknown[]): Promise<unknown>;
  /** As the page of the first live window whose address contains `urlIncludes` calls it. */
  callFrom(urlIncludes: string, channel: string, ...args: unknown[]): Promise<unknown>;
  callAs(
    sender: 'foreignContents' | 'subframe',
    channel: string,
    ...args: unknown[]
  ): Promise<unknown>;
  /** A navigation the page starts: true when the app prevented it. */
  navigate(url: string): Promise<boolean>;
  openWindow(url: string): Promise<{ action: string }>;
  readLog(): Promise<string>;
  /** app.quit(), as the menu's Quit does: resolves with what was left when the process ended. */
  quit(timeoutMs?: number): Promise<ExitReport>;
  /** The report of an app that ends by itself (a second instance). */
  ended(): Promise<ExitReport>;
  /** The user closes the window; resolves with the report if the app ended. */
  closeWindow(timeoutMs?: number): Promise<ExitReport>;
  /** Ends the process if still there, and removes the home. */
  close(): Promise<void>;
  /** Everything the process wrote (its own and the app's console). */
  output(): string;
}

export async function startStandInApp(options: StandInAppOptions = {}): Promise<StandInApp> {
  const appRoot = path.resolve(options.appRoot ?? REPOSITORY_ROOT);
  const ownHome = options.home === undefined;
  const home = options.home ?? mkdtempSync(path.join(os.tmpdir(), 'plantdesk-standin-'));
  const child: ChildProcess = fork(MAIN_PROCESS, [], {
    cwd: appRoot,
    env: {
      ...process.env,
      ...options.env,
      STANDIN_ELECTRON_HOME: home,
      STANDIN_ELECTRON_APP_ROOT: appRoot,
      ...(options.packaged && { STANDIN_ELECTRON_PACKAGED: '1' }),
      ...(options.clock && { PLANTDESK_CLOCK: options.clock }),
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));

  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let exitReport: ExitReport | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let loaded!: () => void;
  const loadedPromise = new Promise<void>((resolve) => (loaded = resolve));

  child.on(
    'message',
    (message: {
      type: string;
      id?: number;
      result?: unknown;
      error?: string;
      exit?: ExitReport;
    }) => {
      if (message.type === 'loaded') loaded();
      if (message.type === 'exit') exitReport = message.exit;
      if (message.type !== 'answer' || message.id === undefined) return;
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result);
    },
  );
  void exited.then((code) => {
    for (const waiter of pending.values()) {
      waiter.reject(new Error(`the stand-in app ended (${code}) before answering:\n${output}`));
    }
    pending.clear();
  });

  function send<T>(command: Command): Promise<T> {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, command });
    });
  }

  // A second instance may end before it reports loaded.
  await Promise.race([
    loadedPromise,
    exited.then((code) => {
      if (!exitReport)
        throw new Error(`the stand-in app ended (${code}) while loading:\n${output}`);
    }),
  ]);

  /** Sends what ends the app; resolves with its report once the process is gone. */
  async function ended(command: Command, timeoutMs = 30_000): Promise<ExitReport> {
    await send(command);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
    if (!exitReport) throw new Error(`the stand-in app ended without its report:\n${output}`);
    return exitReport;
  }

  const app: StandInApp = {
    home,
    state: () => send({ op: 'state' }),
    async waitFor(accept, what, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const state = await app.state();
        if (state.errors.length > 0) {
          throw new Error(`stand-in app: the main process failed\n${state.errors.join('\n')}`);
        }
        if (accept(state)) return state;
        if (Date.now() > deadline) {
          throw new Error(
            `stand-in app: no ${what} after ${timeoutMs} ms\n${JSON.stringify(state, null, 1)}\n${output}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async untilSandboxRunning(timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = await app.call('localSandbox.state');
        const running = (answer as { value?: { status?: string } }).value?.status === 'running';
        if (running || Date.now() > deadline) return answer;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    fetch: (urls, method) => send({ op: 'fetch', urls, method }),
    eventPayloads: (event) => send({ op: 'eventPayloads', channel: `event:${event}` }),
    call: (channel, ...args) => send({ op: 'call', channel, args }),
    callFrom: (urlIncludes, channel, ...args) =>
      send({ op: 'callFrom', urlIncludes, channel, args }),
    callAs: (sender, channel, ...args) => send({ op: 'callAs', sender, channel, args }),
    navigate: (url) => send({ op: 'navigate', url }),
    openWindow: (url) => send({ op: 'openWindow', url }),
    readLog: () => send({ op: 'readLog' }),
    async ended() {
      await exited;
      if (!exitReport) throw new Error(`the stand-in app ended without its report:\n${output}`);
      return exitReport;
    },
    quit: (timeoutMs) => ended({ op: 'quit' }, timeoutMs),
    closeWindow: (timeoutMs) => ended({ op: 'closeWindow' }, timeoutMs),
    async close() {
      // Quit as the user would, so the Local sandbox is not left to notice its parent is gone.
      if (child.exitCode === null && child.signalCode === null) {
        await ended({ op: 'quit' }, 15_000).catch(() => {});
      }
      if (ownHome) rmSync(home, { recursive: true, force: true });
    },
    output: () => output,
  };
  return app;
}

/** Where the desktop tests' app runs: any instant serves, and none depends on today. */
export const TEST_CLOCK = '2026-06-21T12:00:00+02:00';

/**
 * The app the desktop tests run: PLANTDESK_STANDIN_APP_ROOT (a packed app's extracted files)
 * or this repository's out/, which `npm test` builds first (`npm run build`, about 5 s here); a
 * missing or stale one is refused, as the build checks do, rather than rebuilt under other
 * test files reading it.
 */
export function appUnderTest(): string {
  const root = process.env.PLANTDESK_STANDIN_APP_ROOT ?? REPOSITORY_ROOT;
  if (root === REPOSITORY_ROOT) requireFreshBuild();
  return root;
}
