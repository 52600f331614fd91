import type { ForkOptions, UtilityProcess } from 'electron';
import type { ServerProcess, SpawnServer } from '../services/localSandbox.ts';
import { STOP_MESSAGE } from './parentPortStop.ts';

/**
 * The Local sandbox server as an Electron utility process: Electron's own Node runs
 * `out/main/localServer.js` (server/cli.ts), so the packaged app needs no separate Node and no
 * ELECTRON_RUN_AS_NODE (a fuse the packaged app turns off). Output arrives line by line, the
 * way the Local sandbox service reads "PlantDesk API listening on ...".
 */

export const LOCAL_SANDBOX_SERVICE_NAME = 'PlantDesk Local sandbox';

export type Fork = (modulePath: string, args?: string[], options?: ForkOptions) => UtilityProcess;

/** Cuts a byte stream into lines (without the line break), keeping a partial line for later. */
export function createLineSplitter(onLine: (line: string) => void): {
  push(chunk: string): void;
  flush(): void;
} {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      let index: number;
      while ((index = pending.indexOf('\n')) !== -1) {
        onLine(pending.slice(0, index).replace(/\r$/, ''));
        pending = pending.slice(index + 1);
      }
    },
    flush() {
      if (pending !== '') onLine(pending);
      pending = '';
    },
  };
}

export interface UtilityProcessServerOptions {
  fork: Fork;
  /** The built server entry, out/main/localServer.js. */
  modulePath: string;
  env?: NodeJS.ProcessEnv;
  /** Defaults to process.kill: a utility process's own kill() is not forceful everywhere. */
  killProcess?: (pid: number, signal: NodeJS.Signals) => void;
}

type Stream = 'stdout' | 'stderr';

export function createUtilityProcessServer(options: UtilityProcessServerOptions): SpawnServer {
  const killProcess = options.killProcess ?? ((pid, signal) => process.kill(pid, signal));
  return (args) => {
    const child = options.fork(options.modulePath, [...args], {
      stdio: 'pipe',
      serviceName: LOCAL_SANDBOX_SERVICE_NAME,
      ...(options.env && { env: options.env }),
    });
    const outputListeners: Array<(line: string, stream: Stream) => void> = [];
    const exitListeners: Array<(code: number | null) => void> = [];
    let exitCode: number | null | undefined;
    // pid turns undefined once the process exits; forceKill may race with that.
    let lastPid = child.pid;
    child.once('spawn', () => {
      lastPid = child.pid;
    });

    const emitOutput = (line: string, stream: Stream) => {
      for (const listener of [...outputListeners]) listener(line, stream);
    };

    // Lines are passed on as they come: Electron drops the streams' listeners right after
    // 'exit', so anything not read by then (the crash reason) would never arrive.
    const readers = (['stdout', 'stderr'] as const).flatMap((stream) => {
      const readable = child[stream];
      if (!readable) return [];
      const splitter = createLineSplitter((line) => emitOutput(line, stream));
      readable.setEncoding('utf8');
      readable.on('data', (chunk: string) => splitter.push(chunk));
      return [{ readable, splitter }];
    });

    child.on('error', (type, location) => {
      emitOutput(`Local sandbox process error: ${type} at ${location}`, 'stderr');
    });
    child.once('exit', (code) => {
      exitCode = code;
      for (const { readable, splitter } of readers) {
        // What is buffered but not yet emitted: read() hands it to the 'data' listener now.
        while (readable.read() !== null);
        splitter.flush();
      }
      exitListeners.splice(0).forEach((listener) => listener(code));
    });

    const handle: ServerProcess = {
      get pid() {
        return child.pid ?? (exitCode === undefined ? lastPid : undefined);
      },
      onOutput(listener) {
        outputListeners.push(listener);
      },
      onExit(listener) {
        if (exitCode !== undefined) listener(exitCode);
        else exitListeners.push(listener);
      },
      kill() {
        // Not child.kill(): that is SIGTERM then SIGKILL within 2 s on POSIX and TerminateProcess
        // on Windows, so the server's shutdown would not get its grace, or not run at all.
        if (exitCode === undefined) child.postMessage(STOP_MESSAGE);
      },
      forceKill() {
        if (exitCode !== undefined) return;
        const pid = child.pid ?? lastPid;
        if (pid === undefined) {
          child.kill();
          return;
        }
        try {
          killProcess(pid, 'SIGKILL');
        } catch {
          // Already gone: the exit event follows.
        }
      },
    };
    return handle;
  };
}
