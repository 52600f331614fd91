import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo/accounts.ts';
import { startCliServer } from '../support/cliServer.ts';
import {
  createTestDatabase,
  testEngine,
  testServerKeys,
  type TestDatabase,
} from '../support/testDatabases.ts';

/**
 * `npm run server` on PostgreSQL: the CLI takes the database from `--db postgres://…` or, without
 * it, from PLANTDESK_DATABASE_URL, with the keys from the environment; it creates the schema,
 * seeds the demo and answers on that database, keeps raw readings for `--raw-retention-days`,
 * and a SIGTERM stops it with exit code 0.
 */

describe.skipIf(testEngine() !== 'postgres')(
  'the server command on PostgreSQL (skipped on SQLite: needs npm run test:postgres)',
  () => {
    let database: TestDatabase;
    const keys = testServerKeys();
    const environment = {
      ...process.env,
      PLANTDESK_JWT_SECRET: keys.jwtSecret,
      PLANTDESK_SETTINGS_KEY: keys.settingsKey,
    };

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    const started = (args: string[], env: NodeJS.ProcessEnv) =>
      startCliServer(['--no-simulation', '--demo', '--demo-fleet', '0', ...args], env);

    async function stopped(child: ChildProcess): Promise<number | null> {
      const exit = once(child, 'exit') as Promise<[number | null]>;
      child.kill('SIGTERM');
      const [code] = await exit;
      return code;
    }

    async function installerToken(url: string): Promise<string> {
      const installer = DEMO_ACCOUNTS.find((account) => account.email.startsWith('installer@'))!;
      const login = await fetch(`${url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: installer.email, password: installer.password }),
      });
      return ((await login.json()) as { accessToken: string }).accessToken;
    }

    /** The plants the demo installer lists through the server at `url`. */
    async function listedPlants(url: string): Promise<string[]> {
      const list = await fetch(`${url}/plants`, {
        headers: { authorization: `Bearer ${await installerToken(url)}` },
      });
      const body = (await list.json()) as { content: { name: string }[] };
      return body.content.map((plant) => plant.name);
    }

    async function plantsInDatabase(): Promise<number> {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>('select count(*) as n from plants');
        return Number(rows[0]!.n);
      } finally {
        await client.end();
      }
    }

    test('--db postgres://… makes the schema and answers from that database', async () => {
      const { child, url } = await started(['--db', database.url], environment);
      try {
        const ready = await fetch(`${url}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({
          status: 'ready',
          database: 'ok',
          migrations: 'applied',
        });
        expect(await listedPlants(url)).toEqual(['Demo Home']);
        expect(await plantsInDatabase()).toBe(1);
      } finally {
        expect(await stopped(child)).toBe(0);
      }
    });

    test('PLANTDESK_DATABASE_URL is the database when --db is not given; --raw-retention-days is kept', async () => {
      const { child, url } = await started(
        ['--raw-retention-days', '30', '--clock', '2026-06-15T12:00:00+00:00'],
        {
          ...environment,
          PLANTDESK_DATABASE_URL: database.url,
        },
      );
      try {
        // The same database as the test before: seeded once, so still one plant.
        expect(await listedPlants(url)).toEqual(['Demo Home']);
        const created = await fetch(`${url}/plants`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${await installerToken(url)}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            name: 'Through the environment',
            location: { latitude: 46.5, longitude: 11.35, timezone: 'Europe/Rome' },
          }),
        });
        expect(created.status).toBe(201);
        expect(await plantsInDatabase()).toBe(2);
        expect(await listedPlants(url)).toEqual(['Demo Home', 'Through the environment']);
        // On the server's clock, readings older than the 30 days kept are refused.
        const token = await installerToken(url);
        const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const plants = (await (await fetch(`${url}/plants`, { headers: auth })).json()) as {
          content: { plantUuid: string; name: string }[];
        };
        const home = plants.content.find((plant) => plant.name === 'Demo Home')!;
        const sensors = (await (
          await fetch(`${url}/plants/${home.plantUuid}/sensors`, { headers: auth })
        ).json()) as { content: { sensorUuid: string }[] };
        const post = (timestamp: string) =>
          fetch(
            `${url}/plants/${home.plantUuid}/sensors/${sensors.content[0]!.sensorUuid}/readings`,
            {
              method: 'POST',
              headers: auth,
              body: JSON.stringify({ readings: [{ timestamp, value: 1 }] }),
            },
          );
        const old = await post('2026-05-01T00:00:00Z');
        expect(old.status).toBe(422);
        expect(((await old.json()) as { message: string }).message).toBe(
          'Reading readings.0.timestamp = 2026-05-01T00:00:00Z is older than the server keeps raw ' +
            'readings (30 days): send readings from 2026-05-16T12:00:00.000Z on',
        );
        expect((await post('2026-06-14T00:00:00Z')).status).toBe(202);
      } finally {
        expect(await stopped(child)).toBe(0);
      }
    });
  },
);
