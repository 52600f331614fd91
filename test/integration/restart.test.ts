import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../api/index.ts';
import { createPlant } from '../support/entities.ts';
import { referenceUuids } from '../support/referenceData.ts';
import {
  createTestDatabase,
  testEngine,
  testServerKeys,
  type TestDatabase,
} from '../support/testDatabases.ts';
import { DEMO_ACCOUNTS, TestServer, type ApiResponse } from '../support/testServer.ts';

/**
 * A server on a database file, stopped and started again on the same file; on PostgreSQL
 * (PLANTDESK_TEST_ENGINE=postgres), on the same database URL with the same keys, as the
 * environment gives them there.
 */

let directory: string | undefined;
let databaseFile: string;
let postgresDatabase: TestDatabase | undefined;
let restarted: TestServer;
const keys = testServerKeys();

/** The same database each time: a file, or a PostgreSQL URL. */
const sameDatabase = () =>
  postgresDatabase ? { db: postgresDatabase.url, ...keys } : { db: databaseFile };
const before = {
  accessToken: '',
  refreshToken: '',
  plant: undefined as any,
  deviceCreation: undefined as ApiResponse | undefined,
  demoPlant: '',
  reference: undefined as Awaited<ReturnType<typeof referenceUuids>> | undefined,
};

beforeAll(async () => {
  if (testEngine() === 'postgres') postgresDatabase = await createTestDatabase();
  else {
    directory = await mkdtemp(join(tmpdir(), 'plantdesk-restart-'));
    databaseFile = join(directory, 'nested', 'plantdesk.db');
  }
  const first = await TestServer.start(sameDatabase());
  try {
    const admin = DEMO_ACCOUNTS[0];
    const login = await first.login(admin.email, admin.password);
    before.accessToken = login.body.accessToken;
    before.refreshToken = login.body.refreshToken;
    before.plant = await createPlant(first, before.accessToken, {
      name: 'Survives restarts',
      externalIds: ['RESTART-1'],
      pv: { peakPowerKw: 6 },
    });
    before.reference = await referenceUuids(first);
    before.deviceCreation = await first.request(
      'POST',
      `/plants/${before.plant.plantUuid}/devices`,
      {
        token: before.accessToken,
        body: { deviceTypeUuid: before.reference.deviceTypes.BATTERY, serialNumber: 'RST-1' },
      },
    );
    before.demoPlant = await first.demoPlantUuid();
  } finally {
    await first.close();
  }
  restarted = await TestServer.start(sameDatabase());
});

afterAll(async () => {
  await restarted?.close();
  await postgresDatabase?.drop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('after a restart on the same database', () => {
  test('the plant is there, unchanged', async () => {
    const response = await restarted.request('GET', `/plants/${before.plant.plantUuid}`, {
      token: before.accessToken,
    });
    expect(response.status).toBe(200);
    expect(routes.getPlant.response.parse(response.body)).toEqual(before.plant);
  });

  test('the device is there', async () => {
    expect(before.deviceCreation?.status, JSON.stringify(before.deviceCreation?.body)).toBe(201);
    const device = before.deviceCreation!.body;
    const response = await restarted.request(
      'GET',
      `/plants/${before.plant.plantUuid}/devices/${device.deviceUuid}`,
      { token: before.accessToken },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual(device);
  });

  test('the old access token still works (the signing secret is kept)', async () => {
    const response = await restarted.request('GET', '/auth/me', { token: before.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.email).toBe(DEMO_ACCOUNTS[0].email);
  });

  test('the old refresh token still works once', async () => {
    const response = await restarted.request('GET', '/auth/token', { token: before.refreshToken });
    expect(response.status).toBe(200);
    expect(
      (await restarted.request('GET', '/auth/token', { token: before.refreshToken })).status,
    ).toBe(401);
  });

  test('demo data is not seeded twice', async () => {
    const db = restarted.server.context.db;
    const demoHomes = await db
      .selectFrom('plants')
      .select('plant_uuid')
      .where('name', '=', 'Demo Home')
      .execute();
    expect(demoHomes.map((row) => row.plant_uuid)).toEqual([before.demoPlant]);
    const users = await db.selectFrom('users').select('email').execute();
    expect(users.map((row) => row.email).sort()).toEqual(
      DEMO_ACCOUNTS.map((account) => account.email).sort(),
    );
    const organizations = await db.selectFrom('organizations').select('name').execute();
    expect(organizations.map((row) => row.name).sort()).toEqual([
      'Demo Energy',
      'Other Co',
      'PlantDesk Platform',
    ]);
    const token = await restarted.tokenFor('admin');
    const listed = await restarted.request('GET', '/plants', {
      token,
      query: { search: 'Demo Home' },
    });
    expect(listed.body.page.totalElements).toBe(1);
  });

  test('reference catalogs are not seeded twice either', async () => {
    const now = await referenceUuids(restarted);
    expect(now).toEqual(before.reference);
    const db = restarted.server.context.db;
    const vendors = await db.selectFrom('vendors').select('code').execute();
    expect(new Set(vendors.map((row) => row.code)).size).toBe(vendors.length);
  });

  test('the demo passwords still log in (hashes kept)', async () => {
    for (const account of DEMO_ACCOUNTS) {
      expect((await restarted.login(account.email, account.password)).status).toBe(200);
    }
  });
});
