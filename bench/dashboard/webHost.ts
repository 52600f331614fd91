import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * PlantDesk in browser mode for benchmarks: `node electron/web/cli.ts --port 0 --no-open
 * --data-dir <tmp>` as test/e2e/support/webApp.ts starts it (without Playwright Test's
 * fixtures), the one address line read, SIGTERM to stop (its Local sandbox stops with it).
 */

const CLI = fileURLToPath(new URL('../../electron/web/cli.ts', import.meta.url));
const RENDERER_INDEX = fileURLToPath(new URL('../../out/renderer/index.html', import.meta.url));
const ADDRESS_LINE = /^PlantDesk web: (http:\/\/127\.0\.0\.1:\d+\/\?key=\S+)$/;
const START_TIMEOUT_MS = 30_000;

export interface BenchWebHost {
  url: string;
  origin: string;
  /** One channel of the web host, as the page's bridge calls it; throws on an error envelope. */
  rpc<T>(channel: string, args?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/** The renderer must be built (`npm run build`): the web host serves out/renderer. */
export function rendererBuilt(): boolean {
  return fs.existsSync(RENDERER_INDEX);
}

export async function startBenchWebHost(): Promise<BenchWebHost> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-bench-web-'));
  const child = spawn(process.execPath, [CLI, '--port', '0', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
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
    });
  } catch (error) {
    await stopChild(child, exited);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  const origin = new URL(url).origin;
  const key = new URL(url).searchParams.get('key') ?? '';
  return {
    url,
    origin,
    async rpc<T>(channel: string, args: unknown[] = []): Promise<T> {
      const response = await fetch(`${origin}/rpc/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-plantdesk-key': key },
        body: JSON.stringify(args),
      });
      const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: unknown };
      if (!envelope.ok) throw new Error(`${channel} failed: ${JSON.stringify(envelope.error)}`);
      return envelope.value as T;
    },
    async stop() {
      await stopChild(child, exited);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
