import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * PlantDesk in browser mode, started as a user would: `node electron/web/cli.ts --port 0
 * --no-open --data-dir <tmp>`, the one address line it prints read, SIGTERM to stop (which also
 * stops its Local sandbox server). The e2e fixtures (test/e2e/support/webApp.ts) and the
 * benchmarks (bench/dashboard/webHost.ts) both start it this way.
 */

const CLI = fileURLToPath(new URL('../electron/web/cli.ts', import.meta.url));
const ADDRESS_LINE = /^PlantDesk web: (http:\/\/127\.0\.0\.1:\d+\/\?key=\S+)$/;
const START_TIMEOUT_MS = 30_000;

export interface WebHost {
  /** The printed address, key included: what a user opens. */
  url: string;
  origin: string;
  dataDir: string;
  /** Everything the host wrote on stderr, for failure reports. */
  stderr(): string;
  /** Stops the host and removes its data directory (unless kept, to start a host on it again). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface WebHostOptions {
  /** `--clock`: the host and its Local sandbox start at this instant (ISO 8601 with offset). */
  clock?: string;
  /** `--immediate-alerts`: no delay before an alert opens (end-to-end tests of the monitor). */
  immediateAlerts?: boolean;
  /** `--demo-fleet N`: plants of the demo fleet its Local sandbox seeds (default 12). */
  demoFleet?: number;
  /** An existing data directory (the app started again on its data) instead of a fresh one. */
  dataDir?: string;
  /** `--local-sandbox-relay URL`: the Local environment's address is this relay (tests). */
  localSandboxRelay?: string;
}

/** Starts the web host with a fresh data directory named `<tmpPrefix>…` in the system temp dir. */
export async function startWebHost(
  tmpPrefix: string,
  options: WebHostOptions = {},
): Promise<WebHost> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  const args = [CLI, '--port', '0', '--no-open', '--data-dir', dataDir];
  if (options.clock !== undefined) args.push('--clock', options.clock);
  if (options.immediateAlerts) args.push('--immediate-alerts');
  if (options.demoFleet !== undefined) args.push('--demo-fleet', String(options.demoFleet));
  if (options.localSandboxRelay !== undefined) {
    args.push('--local-sandbox-relay', options.localSandboxRelay);
  }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async ({ keepData = false } = {}) => {
    await stopChild(child, exited);
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no address within ${START_TIMEOUT_MS} ms; stderr:\n${stderr}`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = ADDRESS_LINE.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the web host exited (${code}) before printing its address:\n${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });

  return { url, origin: new URL(url).origin, dataDir, stderr: () => stderr, stop };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Calls one channel of the web host as the page's bridge would; answers the envelope. */
export async function callChannel(
  host: Pick<WebHost, 'url' | 'origin'>,
  channel: string,
  args: unknown[],
): Promise<unknown> {
  const response = await fetch(`${host.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-plantdesk-key': new URL(host.url).searchParams.get('key') ?? '',
    },
    body: JSON.stringify(args),
  });
  return response.json();
}
