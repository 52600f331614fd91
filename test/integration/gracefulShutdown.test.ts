import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo/accounts.ts';
import { startCliServer } from '../support/cliServer.ts';

/**
 * SIGTERM to `node server/cli.ts`: a request in flight (its body still arriving) is answered,
 * new connections are refused at once, and the process exits 0.
 */

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'plantdesk-shutdown-'));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The CLI on a database file, with the simulator on (it must stop too), little history first. */
const startCli = () =>
  startCliServer([
    '--db',
    join(folder, 'server.db'),
    '--demo',
    '--demo-fleet',
    '0',
    '--history-days',
    '1',
  ]);

/** Whether a new connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

test('SIGTERM finishes the request in flight, refuses new connections and exits 0', async () => {
  const { child, port } = await startCli();
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  // A login whose body is sent in two halves: in flight from its headers until its last byte.
  const { email, password } = DEMO_ACCOUNTS[0];
  const body = JSON.stringify({ email, password });
  const half = Math.floor(body.length / 2);
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
  const ended = once(socket, 'end');
  socket.write(
    `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));

  child.kill('SIGTERM');
  const deadline = Date.now() + 5_000;
  while (!(await refused(port))) {
    expect(Date.now(), 'the server kept accepting connections').toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(child.exitCode, 'the server exited before the request was answered').toBeNull();

  // write, not end: a client that half-closes its side is taken by Node for one that gave up.
  socket.write(body.slice(half));
  await ended;
  expect(response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(response).toContain('"accessToken"');

  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
}, 60_000);
