import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * A Plant Energy API server of a test's own, outside the web host, for what the Local sandbox
 * cannot be made to do: stop and come back on the same port (outages), or come back with another
 * signing secret (expired sessions).
 */

const SERVER_CLI = fileURLToPath(new URL('../../../server/cli.ts', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface OwnServerOptions {
  port: number;
  dbFile: string;
  /** More arguments after `--port --db --demo --quiet` (e.g. `--no-simulation`). */
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
}

/** `node server/cli.ts --port P --db FILE --demo --quiet …`, once it says it listens. */
export async function startServer(options: OwnServerOptions): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      SERVER_CLI,
      '--port',
      String(options.port),
      '--db',
      options.dbFile,
      '--demo',
      '--quiet',
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${stderr}`)),
      options.startTimeoutMs ?? 90_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('PlantDesk API listening on')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${stderr}`));
    });
  });
  return child;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
