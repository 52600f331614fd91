import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFilePath } from '../../server/keys.ts';
import { createPlant, expectStatus } from '../support/entities.ts';
import { DEMO_ACCOUNTS, TestServer } from '../support/testServer.ts';

/**
 * What the standalone server leaves on disk: a database only its owner can read, and no secret
 * inside it. The JWT signing secret and the key of vendor secrets live in `<db>.keys` (0600) or
 * the environment; a database from an earlier version has its signing secret moved out, and its
 * vendor secrets sealed, at the next start.
 */

const ADMIN = DEMO_ACCOUNTS[0];
const folder = mkdtempSync(join(tmpdir(), 'plantdesk-files-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

function readRow(db: string, sql: string): Record<string, unknown> | undefined {
  const sqlite = new DatabaseSync(db);
  try {
    return sqlite.prepare(sql).get() as Record<string, unknown> | undefined;
  } finally {
    sqlite.close();
  }
}

function execute(db: string, sql: string, ...params: string[]): void {
  const sqlite = new DatabaseSync(db);
  try {
    sqlite.prepare(sql).run(...params);
  } finally {
    sqlite.close();
  }
}

describe('a new database', () => {
  const db = join(folder, 'new', 'nested', 'plantdesk.db');
  let server: TestServer;
  afterAll(() => server?.close());

  it('is made in 0700 folders as a 0600 file, with 0600 -wal and -shm files', async () => {
    server = await TestServer.start({ db });
    // A write, so the WAL is in use while we look.
    const token = await server.tokenFor('admin');
    await createPlant(server, token, { name: 'On disk' });
    expect(modeOf(join(folder, 'new'))).toBe(0o700);
    expect(modeOf(join(folder, 'new', 'nested'))).toBe(0o700);
    for (const file of [db, `${db}-wal`, `${db}-shm`, keyFilePath(db)]) {
      expect(modeOf(file), file).toBe(0o600);
    }
  });

  it('holds no signing secret: that is in the key file, and nowhere in the database', () => {
    expect(readRow(db, "select value from settings where key = 'jwt_secret'")).toBeUndefined();
    const keys = JSON.parse(readFileSync(keyFilePath(db), 'utf8'));
    expect(Buffer.from(keys.jwtSecret, 'base64url')).toHaveLength(32);
    expect(Buffer.from(keys.settingsKey, 'base64url')).toHaveLength(32);
    for (const file of [db, `${db}-wal`]) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(keys.jwtSecret, 'base64url'))).toBe(false);
      expect(bytes.includes(Buffer.from(keys.jwtSecret))).toBe(false);
    }
  });
});

describe('a database of an earlier version', () => {
  const db = join(folder, 'legacy', 'plantdesk.db');
  const legacySecret = 'the-secret-earlier-versions-kept-in-the-database';

  it('has its signing secret moved to the key file: its tokens stay valid', async () => {
    // Tokens signed with the secret an earlier version kept in its settings table.
    const earlier = await TestServer.start({ db, jwtSecret: legacySecret });
    const { accessToken } = (await earlier.login(ADMIN.email, ADMIN.password)).body;
    await earlier.close();
    execute(
      db,
      'insert into settings (key, value) values (?, ?)',
      'jwt_secret',
      Buffer.from(legacySecret).toString('base64url'),
    );
    rmSync(keyFilePath(db));
    chmodSync(db, 0o644);

    const upgraded = await TestServer.start({ db });
    try {
      expect((await upgraded.request('GET', '/auth/me', { token: accessToken })).status).toBe(200);
      expect(readRow(db, "select value from settings where key = 'jwt_secret'")).toBeUndefined();
      const keys = JSON.parse(readFileSync(keyFilePath(db), 'utf8'));
      expect(Buffer.from(keys.jwtSecret, 'base64url').toString()).toBe(legacySecret);
      expect(modeOf(db)).toBe(0o600);
      expect(modeOf(keyFilePath(db))).toBe(0o600);
    } finally {
      await upgraded.close();
    }
  });

  it('has the vendor secrets it stored in clear sealed at the next start', async () => {
    const server = await TestServer.start({ db });
    const token = await server.tokenFor('admin');
    const plant = await createPlant(server, token, { name: 'Legacy vendor' });
    const vendors = await server.catalog('/vendors', 'vendorUuid');
    expectStatus(
      await server.request('PUT', `/plants/${plant.plantUuid}/vendors/${vendors.SOLAREDGE}`, {
        token,
        body: { settings: { siteId: 'S-1', apiKey: 'placeholder' } },
      }),
      200,
      'configure',
    );
    await server.close();
    // As an earlier version stored it: the secret in clear.
    execute(
      db,
      'update plant_vendors set settings = ? where plant_uuid = ?',
      JSON.stringify({ siteId: 'S-1', apiKey: 'legacy-api-key-in-clear' }),
      plant.plantUuid,
    );
    const restarted = await TestServer.start({ db });
    try {
      const row = readRow(
        db,
        `select settings from plant_vendors where plant_uuid = '${plant.plantUuid}'`,
      );
      const stored = JSON.parse(String(row!.settings));
      expect(stored.siteId).toBe('S-1');
      expect(stored.apiKey).toMatch(/^enc:v1:/);
      expect(
        restarted.server.context.settingsCipher.open(stored.apiKey, {
          plantUuid: plant.plantUuid,
          vendorUuid: vendors.SOLAREDGE!,
          field: 'apiKey',
        }),
      ).toBe('legacy-api-key-in-clear');
    } finally {
      await restarted.close();
    }
  });
});

describe('vendor secret settings', () => {
  it('are stored sealed, kept sealed when left out, and never answered', async () => {
    const db = join(folder, 'vendors', 'plantdesk.db');
    const server = await TestServer.start({ db });
    try {
      const token = await server.tokenFor('admin');
      const plant = await createPlant(server, token, { name: 'Sealed vendor' });
      const vendors = await server.catalog('/vendors', 'vendorUuid');
      const path = `/plants/${plant.plantUuid}/vendors/${vendors.SOLAREDGE}`;
      const secret = 'sk-live-0123456789-do-not-leak';
      const saved = expectStatus(
        await server.request('PUT', path, {
          token,
          body: { settings: { siteId: 'SITE-9', apiKey: secret } },
        }),
        200,
        'configure',
      );
      expect(saved.settings).toEqual({ siteId: 'SITE-9' });
      expect(saved.secretFieldsSet).toEqual(['apiKey']);
      const sealed = JSON.parse(
        String(
          readRow(db, `select settings from plant_vendors where plant_uuid = '${plant.plantUuid}'`)!
            .settings,
        ),
      ).apiKey;
      expect(sealed).toMatch(/^enc:v1:/);
      for (const file of [db, `${db}-wal`]) {
        expect(readFileSync(file).includes(Buffer.from(secret)), file).toBe(false);
      }
      // Left out of the next PUT: kept as it was.
      expectStatus(
        await server.request('PUT', path, { token, body: { settings: { siteId: 'SITE-10' } } }),
        200,
        'reconfigure',
      );
      const kept = JSON.parse(
        String(
          readRow(db, `select settings from plant_vendors where plant_uuid = '${plant.plantUuid}'`)!
            .settings,
        ),
      );
      expect(kept).toEqual({ siteId: 'SITE-10', apiKey: sealed });
    } finally {
      await server.close();
    }
  });
});

describe('secrets from the environment', () => {
  it('refuses a signing secret shorter than 32 bytes, at start-up', async () => {
    await expect(TestServer.start({ jwtSecret: 'short-secret' })).rejects.toThrow(
      'PLANTDESK_JWT_SECRET must be at least 32 bytes long (it has 12)',
    );
    const run = spawnSync(
      process.execPath,
      ['server/cli.ts', '--port', '0', '--db', ':memory:', '--quiet'],
      {
        env: { ...process.env, PLANTDESK_JWT_SECRET: 'x'.repeat(31) },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PLANTDESK_JWT_SECRET must be at least 32 bytes long (it has 31)');
    expect(run.stderr).not.toContain('    at ');
  });

  it('refuses a short settings key too', async () => {
    await expect(TestServer.start({ settingsKey: 'k'.repeat(8) })).rejects.toThrow(
      'PLANTDESK_SETTINGS_KEY must be at least 32 bytes long (it has 8)',
    );
  });

  it('uses the environment’s secret over the key file’s', async () => {
    const db = join(folder, 'env', 'plantdesk.db');
    const secret = 'an-operator-provided-secret-of-enough-length';
    const first = await TestServer.start({ db, jwtSecret: secret });
    const { accessToken } = (await first.login(ADMIN.email, ADMIN.password)).body;
    await first.close();
    const same = await TestServer.start({ db, jwtSecret: secret });
    expect((await same.request('GET', '/auth/me', { token: accessToken })).status).toBe(200);
    await same.close();
    // Without it, the key file's secret signs: the token above is not one of its.
    const other = await TestServer.start({ db });
    expect((await other.request('GET', '/auth/me', { token: accessToken })).status).toBe(401);
    await other.close();
  });
});
