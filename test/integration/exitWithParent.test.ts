import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createTestDatabase,
  testEngine,
  testServerKeys,
  type TestDatabase,
} from '../support/testDatabases.ts';
import { isAlive } from '../support/processAlive.ts';

const CLI = fileURLToPath(new URL('../../server/cli.ts', import.meta.url));

/** On PostgreSQL, a database of its own: an open pool must not keep the server alive either. */
let postgresDatabase: TestDatabase | undefined;

beforeAll(async () => {
  if (testEngine() === 'postgres') postgresDatabase = await createTestDatabase();
});

afterAll(async () => {
  await postgresDatabase?.drop();
});

/** The CLI's --db and, on PostgreSQL, the keys it takes from the environment there. */
function database(): { location: string; env: NodeJS.ProcessEnv } {
  if (!postgresDatabase) return { location: ':memory:', env: process.env };
  const keys = testServerKeys();
  return {
    location: postgresDatabase.url,
    env: {
      ...process.env,
      PLANTDESK_JWT_SECRET: keys.jwtSecret,
      PLANTDESK_SETTINGS_KEY: keys.settingsKey,
    },
  };
}

test('--exit-with-parent: a server whose parent is killed stops by itself', async () => {
  const { location, env } = database();
  // The parent starts the server, reports its pid once it listens, then waits to be killed.
  const parentScript = `
    const { spawn } = require('node:child_process');
    const server = spawn(process.execPath, [${JSON.stringify(CLI)}, '--port', '0', '--db', ${JSON.stringify(location)},
      '--quiet', '--no-simulation', '--exit-with-parent'], { stdio: ['ignore', 'pipe', 'inherit'] });
    server.stdout.on('data', (chunk) => {
      if (String(chunk).includes('listening')) process.stdout.write(String(server.pid) + '\\n');
    });
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['-e', parentScript], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
  const serverPid = Number(String(chunk).trim());
  expect(isAlive(serverPid)).toBe(true);

  parent.kill('SIGKILL');
  const deadline = Date.now() + 10_000;
  while (isAlive(serverPid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(isAlive(serverPid)).toBe(false);
});
