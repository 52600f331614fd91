import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createApiClient,
  type ApiClient,
  type Credentials,
} from '../../../electron/services/api/apiClient.ts';
import { MISSING_UUID, TestServer } from '../../support/testServer.ts';
import { rejection } from '../../support/apiTransports.ts';

/** The desktop API client against the real server over loopback. */

let server: TestServer;
let api: ApiClient;
let demoPlant: string;
let adminToken: string;

beforeAll(async () => {
  server = await TestServer.start();
  api = createApiClient({ baseUrl: server.url });
  demoPlant = await server.demoPlantUuid();
  adminToken = await server.tokenFor('admin');
});

afterAll(async () => {
  await server?.close();
});

const admin = { email: 'admin@plantdesk.test', password: 'admin-pass-1' };

describe('authentication', () => {
  test('login answers a token pair that the access routes accept', async () => {
    const tokens = await api.login({ body: admin });
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.expiresIn).toBeGreaterThan(0);
    const user = await api.currentUser({}, { token: tokens.accessToken });
    expect(user.email).toBe(admin.email);
    expect(user.permissions.length).toBeGreaterThan(0);
  });

  test('wrong password: 401 with the body fields', async () => {
    const error = await rejection(api.login({ body: { ...admin, password: 'wrong-pass' } }));
    expect(error).toMatchObject({ kind: 'api', status: 401, error: 'Unauthorized' });
    expect(error.path).toBe('/auth/login');
    expect(error.message.length).toBeGreaterThan(0);
  });

  test('no token: 401', async () => {
    const error = await rejection(api.listPlants({}));
    expect(error.toSerialized()).toMatchObject({
      kind: 'api',
      status: 401,
      error: 'Unauthorized',
      path: '/plants',
    });
  });

  test('refresh rotates the pair and logout answers undefined (204)', async () => {
    const first = await api.login({ body: admin });
    const second = await api.refreshToken({}, { token: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await expect(api.logout({}, { token: second.refreshToken })).resolves.toBeUndefined();
    expect((await rejection(api.refreshToken({}, { token: second.refreshToken }))).status).toBe(
      401,
    );
  });
});

describe('plants', () => {
  test('listPlants with search, sort, page and size', async () => {
    const page = await api.listPlants(
      { query: { search: 'demo home', sort: ['name,desc'], page: 0, size: 5 } },
      { token: adminToken },
    );
    expect(page.page).toMatchObject({ number: 0, size: 5 });
    expect(page.content.map((plant) => plant.name)).toContain('Demo Home');
    expect(page.content.every((plant) => /demo home/i.test(plant.name))).toBe(true);
  });

  test('getPlant by uuid', async () => {
    const plant = await api.getPlant({ params: { plantUuid: demoPlant } }, { token: adminToken });
    expect(plant).toMatchObject({ plantUuid: demoPlant, name: 'Demo Home' });
  });

  test('404 carries status, error, message and path', async () => {
    const error = await rejection(
      api.getPlant({ params: { plantUuid: MISSING_UUID } }, { token: adminToken }),
    );
    expect(error.kind).toBe('api');
    expect(error.status).toBe(404);
    expect(error.error).toBe('Not Found');
    expect(error.path).toBe(`/plants/${MISSING_UUID}`);
    expect(error.message).toMatch(/plant/i);
  });

  test("400 carries the server's validation message", async () => {
    const error = await rejection(api.listPlants({ query: { size: 0 } }, { token: adminToken }));
    expect(error).toMatchObject({ kind: 'api', status: 400, error: 'Bad Request' });
    expect(error.message).toContain('size must be an integer');
    const badSort = await rejection(
      api.listPlants({ query: { sort: 'colour' } }, { token: adminToken }),
    );
    expect(badSort.message).toContain("sort property 'colour' is unknown");
  });
});

describe('renewing after a 401', () => {
  test('a stale access token is renewed once through the refresh route', async () => {
    const tokens = await api.login({ body: admin });
    let access = 'stale.access.token';
    let refresh = tokens.refreshToken;
    const rejected: string[] = [];
    const credentials: Credentials = {
      token: async (auth) => (auth === 'access' ? access : refresh),
      renewAfter401: async (token) => {
        rejected.push(token);
        const renewed = await api.refreshToken({}, { token: refresh });
        access = renewed.accessToken;
        refresh = renewed.refreshToken;
        return true;
      },
    };
    const session = createApiClient({ baseUrl: server.url, credentials });
    const plant = await session.getPlant({ params: { plantUuid: demoPlant } });
    expect(plant.name).toBe('Demo Home');
    expect(rejected).toEqual(['stale.access.token']);
    // The renewed token is used from then on, without renewing again.
    await session.currentUser({});
    expect(rejected).toHaveLength(1);
  });
});

describe('metrics', () => {
  test('daily consumption of the demo plant: seven days in kWh', async () => {
    const series = await api.dailyConsumption(
      { params: { plantUuid: demoPlant }, query: { date: '2026-03-31' } },
      { token: adminToken },
    );
    expect(series.plantUuid).toBe(demoPlant);
    expect(series.unit).toBe('kWh');
    expect(series.points).toHaveLength(7);
  });
});
