import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * Databases of tests on PostgreSQL (PLANTDESK_TEST_ENGINE=postgres): each test server gets a
 * database of its own on the shared cluster, created empty and dropped when the server closes,
 * the way each gets its own `:memory:` database on SQLite.
 */

export type TestEngine = 'sqlite' | 'postgres';

export function testEngine(): TestEngine {
  return process.env.PLANTDESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

function clusterUrl(): string {
  const url = inject('postgresUrl') ?? process.env.PLANTDESK_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'PLANTDESK_TEST_ENGINE=postgres needs a PostgreSQL: run `npm run test:postgres`, or set ' +
        'PLANTDESK_TEST_POSTGRES_URL',
    );
  }
  return url;
}

async function onCluster<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: clusterUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `plantdesk_test_${randomBytes(6).toString('hex')}`;
  await onCluster((client) => client.query(`create database ${name}`));
  const url = new URL(clusterUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await onCluster((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** Keys for a server on PostgreSQL, which has no key file (see server/keys.ts). */
export function testServerKeys(): { jwtSecret: string; settingsKey: string } {
  return {
    jwtSecret: randomBytes(32).toString('base64url'),
    settingsKey: randomBytes(32).toString('base64url'),
  };
}
