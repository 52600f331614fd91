import type { ForkOptions, UtilityProcess } from 'electron';
import type { ServerProcess, SpawnServer } from '../services/localSandbox.ts';

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
  /** Defaults to process.kill: utility processes offer only a graceful kill(). */
  killProcess?: (pid: number, signal: NodeJS.Signals) => void;
  /** How long exit waits for the last output after the process is gone. Default 1 s. */
  drainTimeoutMs?: number;
}

type Stream = 'stdout' | 'stderr';

export function createUtilityProcessServer(options: UtilityProcessServerOptions): SpawnServer {
  const killProcess = options.killProcess ?? ((pid, signal) => process.kill(pid, signal));
  const drainTimeoutMs = options.drainTimeoutMs ?? 1000;
  return (args) => {
    const child = options.fork(options.modulePath, [...args], {
      stdio: 'pipe',
      serviceName: LOCAL_SANDBOX_SERVICE_NAME,
      ...(options.env && { env: options.env }),
    });
    const outputListeners: Array<(line: string, stream: Stream) => void> = [];
    const exitListeners: Array<(code: number | null) => void> = [];
    let exitCode: number | null | undefined;
    let reported = false;
    // pid turns undefined once the process exits; forceKill may race with that.
    let lastPid = child.pid;
    child.once('spawn', () => {
      lastPid = child.pid;
    });

    const emitOutput = (line: string, stream: Stream) => {
      for (const listener of [...outputListeners]) listener(line, stream);
    };
    const report = () => {
      if (reported || exitCode === undefined) return;
      reported = true;
      for (const splitter of splitters) splitter.flush();
      const code = exitCode;
      exitListeners.splice(0).forEach((listener) => listener(code));
    };

    // Exit is reported after the output has drained (as with a child process), so the
    // supervisor knows the last error lines when it hears of the exit.
    let openStreams = 0;
    const splitters = (['stdout', 'stderr'] as const).map((stream) => {
      const splitter = createLineSplitter((line) => emitOutput(line, stream));
      const readable = child[stream];
      if (readable) {
        openStreams += 1;
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          splitter.flush();
          openStreams -= 1;
          if (openStreams === 0) report();
        };
        readable.setEncoding('utf8');
        readable.on('data', (chunk: string) => splitter.push(chunk));
        readable.once('end', end);
        readable.once('close', end);
      }
      return splitter;
    });

    child.on('error', (type, location) => {
      emitOutput(`Local sandbox process error: ${type} at ${location}`, 'stderr');
    });
    child.once('exit', (code) => {
      exitCode = code;
      if (openStreams === 0) report();
      // A stream that never ends must not hide the exit.
      else setTimeout(report, drainTimeoutMs).unref();
    });

    const handle: ServerProcess = {
      get pid() {
        return child.pid ?? (exitCode === undefined ? lastPid : undefined);
      },
      onOutput(listener) {
        outputListeners.push(listener);
      },
      onExit(listener) {
        if (reported) listener(exitCode ?? null);
        else exitListeners.push(listener);
      },
      kill() {
        if (exitCode === undefined) child.kill();
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
