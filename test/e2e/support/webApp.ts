import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test as base } from '@playwright/test';

const CLI = fileURLToPath(new URL('../../../electron/web/cli.ts', import.meta.url));
const ADDRESS_LINE = /^PlantDesk web: (http:\/\/127\.0\.0\.1:\d+\/\?key=\S+)$/;
const START_TIMEOUT_MS = 30_000;

export interface WebApp {
  /** The printed address, key included: what a user opens. */
  url: string;
  origin: string;
  dataDir: string;
  /** Everything the host wrote on stderr, for failure reports. */
  stderr(): string;
}

/**
 * Runs `node electron/web/cli.ts --port 0 --no-open --data-dir <tmp>` as a user would, reads the
 * one line it prints, and stops it with SIGTERM (which also stops its Local sandbox server).
 */
export async function startWebApp(): Promise<WebApp & { stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-e2e-'));
  const child = spawn(process.execPath, [CLI, '--port', '0', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

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
    await stopChild(child, exited);
    throw error;
  });

  return {
    url,
    origin: new URL(url).origin,
    dataDir,
    stderr: () => stderr,
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

/** Calls one channel of the web host as the page's bridge would; answers the envelope. */
export async function rpc(webApp: WebApp, channel: string, args: unknown[]): Promise<unknown> {
  const response = await fetch(`${webApp.origin}/rpc/${channel}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-plantdesk-key': new URL(webApp.url).searchParams.get('key') ?? '',
    },
    body: JSON.stringify(args),
  });
  return response.json();
}

/**
 * One browser-mode PlantDesk per worker: starting the Local sandbox is the slow part. The host
 * holds one session for every page, so each test starts signed out, on the Local sandbox,
 * whatever the test before it left behind.
 */
export const test = base.extend<{ freshSession: void }, { webApp: WebApp }>({
  freshSession: [
    async ({ webApp }, use) => {
      await rpc(webApp, 'environments.select', ['local']);
      await rpc(webApp, 'session.signOut', []);
      await use();
    },
    { auto: true },
  ],
  webApp: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, use) => {
      const app = await startWebApp();
      try {
        await use(app);
      } finally {
        await app.stop();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect } from '@playwright/test';
