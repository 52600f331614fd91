import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ServerProcess, SpawnServer } from './localSandbox.ts';

/** The repository's server entry point, found from this file so that the working folder does not matter. */
export const DEFAULT_SERVER_ENTRY = fileURLToPath(new URL('../../server/cli.ts', import.meta.url));

export interface NodeServerOptions {
  /** Script to run; default the repository's `server/cli.ts`. */
  entry?: string;
  /** Node executable; default the one running this code. */
  nodePath?: string;
  /** Environment of the server; default this process's. */
  env?: NodeJS.ProcessEnv;
}

/** Calls `onLine` for every whole line; the last unterminated one is flushed at the end. */
function splitLines(stream: Readable, onLine: (line: string) => void, onEnd: () => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('close', () => {
    if (pending !== '') onLine(pending);
    pending = '';
    onEnd();
  });
}

/**
 * Runs the Local sandbox server as a plain Node child process: what the browser-mode web host
 * uses (Electron main uses a utilityProcess with the same interface). Keeping the server out of
 * the host's process means its simulator and queries never block the host's event loop.
 */
export function spawnNodeServer(options: NodeServerOptions = {}): SpawnServer {
  const entry = options.entry ?? DEFAULT_SERVER_ENTRY;
  const nodePath = options.nodePath ?? process.execPath;
  return (args) => {
    const child = spawn(nodePath, [entry, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      windowsHide: true,
    });
    const outputListeners: ((line: string, stream: 'stdout' | 'stderr') => void)[] = [];
    const exitListeners: ((code: number | null, signal?: string | null) => void)[] = [];
    let exit: { code: number | null; signal: string | null } | undefined;
    let openStreams = 2;
    let reported = false;

    const emitOutput = (line: string, stream: 'stdout' | 'stderr') => {
      for (const listener of outputListeners) listener(line, stream);
    };
    // Exit is reported once the output is drained, so the last error lines are known by then.
    const reportExitWhenDrained = () => {
      if (!exit || openStreams > 0 || reported) return;
      reported = true;
      const { code, signal } = exit;
      exitListeners.splice(0).forEach((listener) => listener(code, signal));
    };
    const streamClosed = () => {
      openStreams -= 1;
      reportExitWhenDrained();
    };
    splitLines(child.stdout, (line) => emitOutput(line, 'stdout'), streamClosed);
    splitLines(child.stderr, (line) => emitOutput(line, 'stderr'), streamClosed);

    child.on('exit', (code, signal) => {
      exit ??= { code, signal };
      reportExitWhenDrained();
    });
    child.on('error', (error) => {
      // Failing to spawn (no such executable) emits 'error' and maybe no 'exit'.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) return;
      emitOutput(`Could not run ${nodePath}: ${error.message}`, 'stderr');
      exit ??= { code: null, signal: null };
      reportExitWhenDrained();
    });

    const server: ServerProcess = {
      pid: child.pid,
      onOutput: (listener) => void outputListeners.push(listener),
      onExit: (listener) => {
        if (reported && exit) listener(exit.code, exit.signal);
        else exitListeners.push(listener);
      },
      kill: () => void child.kill('SIGTERM'),
      forceKill: () => void child.kill('SIGKILL'),
    };
    return server;
  };
}
