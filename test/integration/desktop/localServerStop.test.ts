import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { STOP_MESSAGE } from '../../../electron/main/parentPortStop.ts';

const entry = fileURLToPath(new URL('../../support/parentPortServerEntry.ts', import.meta.url));

test('the Local sandbox entry shuts down gracefully when the app posts the stop message', async () => {
  const child = spawn(
    process.execPath,
    [entry, '--port', '0', '--db', ':memory:', '--no-simulation'],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<[number | null, string | null]>((resolve) =>
    child.once('exit', (code, signal) => resolve([code, signal])),
  );
  const deadline = Date.now() + 20_000;
  while (!stdout.includes('PlantDesk API listening on')) {
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.stdin.write(`${STOP_MESSAGE}\n`);
  // Exit 0 comes only from the shutdown path (requests finished, database closed).
  expect(await exited).toEqual([0, null]);
  expect(stderr).toContain('"requestedBy":"parent"');
}, 30_000);
