import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { expectErrorBody, MISSING_UUID, TestServer, type DemoRole } from '../support/testServer.ts';

let server: TestServer;
const tokens = {} as Record<DemoRole, string>;
let deviceTypes: Record<string, string>;

const REFERENCE_CODES = ['BATTERY', 'EV_CHARGER', 'HEAT_PUMP', 'INVERTER', 'METER', 'WATER_HEATER'];

const itemPath = (uuid: string) => `/device-types/${uuid}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function list(query: Record<string, string | number | readonly string[]> = {}) {
  const response = await server.request('GET', '/device-types', { token: tokens.manager, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listDeviceTypes.response.parse(response.body);
}

async function create(body: Record<string, unknown>) {
  const response = await server.request('POST', '/device-types', { token: tokens.admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return routes.createDeviceType.response.parse(response.body);
}

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider', 'operator'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
});

afterAll(async () => {
  await server?.close();
});

describe('GET /device-types', () => {
  it('lists the reference device types by code', async () => {
    const page = await list();
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 6, totalPages: 1 });
    expect(page.content.map((entry) => entry.code)).toEqual(REFERENCE_CODES);
    expect(page.content.find((entry) => entry.code === 'INVERTER')).toEqual({
      deviceTypeUuid: deviceTypes.INVERTER,
      code: 'INVERTER',
      name: 'PV inverter',
      category: 'PRODUCER',
      description: 'Converts PV power to AC',
      shared: true,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(page.content.map((entry) => entry.category)).toEqual([
      'STORAGE',
      'CONSUMER',
      'CONSUMER',
      'PRODUCER',
      'GRID',
      'CONSUMER',
    ]);
  });

  it('searches name and code, case-insensitively', async () => {
    expect((await list({ search: 'HEAT' })).content.map((entry) => entry.code)).toEqual([
      'HEAT_PUMP',
      'WATER_HEATER',
    ]);
    // "Grid meter" is the name of METER: a name match.
    expect((await list({ search: 'grid' })).content.map((entry) => entry.code)).toEqual(['METER']);
    expect((await list({ search: 'ev_' })).content.map((entry) => entry.code)).toEqual([
      'EV_CHARGER',
    ]);
    expect((await list({ search: '%' })).page.totalElements).toBe(0);
  });

  it('sorts and pages', async () => {
    expect((await list({ sort: 'name' })).content.map((entry) => entry.name)).toEqual([
      'Battery storage',
      'EV charger',
      'Grid meter',
      'Heat pump',
      'PV inverter',
      'Water heater',
    ]);
    const page = await list({ sort: 'code,desc', size: 4, page: 1 });
    expect(page.page).toEqual({ number: 1, size: 4, totalElements: 6, totalPages: 2 });
    expect(page.content.map((entry) => entry.code)).toEqual(['EV_CHARGER', 'BATTERY']);
  });

  it('sorts by category, ties by the next order', async () => {
    const byCategory = (await list({ sort: ['category,desc', 'code'], size: 50 })).content;
    const categories = byCategory.map((entry) => entry.category);
    expect(categories).toEqual([...categories].sort().reverse());
    expect(byCategory.slice(0, 2).map((entry) => entry.code)).toEqual(['BATTERY', 'INVERTER']);
  });

  it('answers 400 for a bad query and 401 without a token', async () => {
    for (const query of [{ sort: 'colour' }, { size: 'ten' }, { page: '1.5' }]) {
      const response = await server.request('GET', '/device-types', {
        token: tokens.admin,
        query,
      });
      expect(expectErrorBody(response, 400).message).toContain(Object.keys(query)[0]);
    }
    expectErrorBody(await server.request('GET', '/device-types'), 401);
  });
});

describe('GET /device-types/{deviceTypeUuid}', () => {
  it('answers one device type', async () => {
    const response = await server.request('GET', itemPath(deviceTypes.BATTERY!), {
      token: tokens.outsider,
    });
    expect(response.status).toBe(200);
    expect(routes.getDeviceType.response.parse(response.body)).toMatchObject({
      code: 'BATTERY',
      category: 'STORAGE',
    });
  });

  it('answers 404 for an unknown uuid, 400 for a malformed one, 401 without token', async () => {
    const missing = await server.request('GET', itemPath(MISSING_UUID), { token: tokens.admin });
    expect(expectErrorBody(missing, 404).message).toBe(`Device type ${MISSING_UUID} not found`);
    expectErrorBody(await server.request('GET', itemPath('battery'), { token: tokens.admin }), 400);
    expectErrorBody(await server.request('GET', itemPath(deviceTypes.BATTERY!)), 401);
  });
});

describe('POST /device-types', () => {
  it('creates a device type; category defaults to CONSUMER and the name to the code', async () => {
    const created = await create({ code: 'POOL_PUMP' });
    expect(created).toEqual({
      deviceTypeUuid: expect.any(String),
      code: 'POOL_PUMP',
      name: 'POOL_PUMP',
      category: 'CONSUMER',
      description: null,
      shared: false,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: created.createdAt,
    });
    const read = await server.request('GET', itemPath(created.deviceTypeUuid), {
      token: tokens.admin,
    });
    expect(read.body).toEqual(created);
    const generator = await create({
      code: 'GENERATOR',
      name: 'Diesel generator',
      category: 'PRODUCER',
      description: 'Backup',
    });
    expect(generator).toMatchObject({ name: 'Diesel generator', category: 'PRODUCER' });
    expect((await list()).page.totalElements).toBe(8);
  });

  it('answers 409 for a code already used', async () => {
    const response = await server.request('POST', '/device-types', {
      token: tokens.admin,
      body: { code: 'INVERTER', category: 'PRODUCER' },
    });
    expect(expectErrorBody(response, 409).message).toBe(
      "Device type code 'INVERTER' is already used",
    );
  });

  it('answers 400 for a bad body, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ category: 'CONSUMER' }, 'code'],
      [{ code: 'SAUNA', category: 'HEATER' }, 'category'],
      [{ code: 'SAUNA', description: 'x'.repeat(2001) }, 'description'],
      [[{ code: 'SAUNA' }], 'body'],
    ];
    for (const [body, field] of cases) {
      const response = await server.request('POST', '/device-types', {
        token: tokens.admin,
        body,
      });
      expect(expectErrorBody(response, 400).message, JSON.stringify(body)).toContain(field);
    }
  });

  it('answers 403 without DEVICE_TYPES CREATE and 401 without a token', async () => {
    const response = await server.request('POST', '/device-types', {
      token: tokens.installer,
      body: { code: 'SAUNA' },
    });
    expect(expectErrorBody(response, 403).message).toBe('Permission DEVICE_TYPES CREATE required');
    expectErrorBody(await server.request('POST', '/device-types', { body: { code: 'X' } }), 401);
  });
});

describe('PUT /device-types/{deviceTypeUuid}', () => {
  it('merges and moves updatedAt', async () => {
    const created = await create({ code: 'SAUNA', name: 'Sauna', description: 'Hot' });
    await sleep(5);
    const response = await server.request('PUT', itemPath(created.deviceTypeUuid), {
      token: tokens.admin,
      body: { category: 'STORAGE' },
    });
    expect(response.status).toBe(200);
    const updated = routes.updateDeviceType.response.parse(response.body);
    expect(updated).toEqual({ ...created, category: 'STORAGE', updatedAt: expect.any(String) });
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    const renamed = await server.request('PUT', itemPath(created.deviceTypeUuid), {
      token: tokens.admin,
      body: { code: 'SAUNA_HEATER', description: null },
    });
    expect(renamed.body).toMatchObject({
      code: 'SAUNA_HEATER',
      name: 'Sauna',
      category: 'STORAGE',
      description: null,
    });
  });

  it('answers 409 for a code of another device type', async () => {
    const response = await server.request('PUT', itemPath(deviceTypes.WATER_HEATER!), {
      token: tokens.operator,
      body: { code: 'HEAT_PUMP' },
    });
    expect(expectErrorBody(response, 409).message).toBe(
      "Device type code 'HEAT_PUMP' is already used",
    );
  });

  it('answers 404, 400, 403 and 401', async () => {
    expectErrorBody(
      await server.request('PUT', itemPath(MISSING_UUID), { token: tokens.admin, body: {} }),
      404,
    );
    const badCategory = await server.request('PUT', itemPath(deviceTypes.METER!), {
      token: tokens.admin,
      body: { category: 'grid' },
    });
    expect(expectErrorBody(badCategory, 400).message).toContain('category');
    const forbidden = await server.request('PUT', itemPath(deviceTypes.METER!), {
      token: tokens.manager,
      body: { name: 'Meter' },
    });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission DEVICE_TYPES UPDATE required');
    expectErrorBody(await server.request('PUT', itemPath(deviceTypes.METER!), { body: {} }), 401);
  });
});

describe('DELETE /device-types/{deviceTypeUuid}', () => {
  it('deletes an unused device type', async () => {
    const created = await create({ code: 'TEMPORARY' });
    const response = await server.request('DELETE', itemPath(created.deviceTypeUuid), {
      token: tokens.admin,
    });
    expect(response.status).toBe(204);
    expectErrorBody(
      await server.request('GET', itemPath(created.deviceTypeUuid), { token: tokens.admin }),
      404,
    );
    expectErrorBody(
      await server.request('DELETE', itemPath(created.deviceTypeUuid), { token: tokens.admin }),
      404,
    );
  });

  it('answers 409 naming the devices and load signatures that use the type', async () => {
    const expectations: [string, string][] = [
      ['INVERTER', "Device type 'INVERTER' is used by other organizations; it cannot be deleted"],
      [
        'WATER_HEATER',
        "Device type 'WATER_HEATER' is used by 1 load signature; it cannot be deleted",
      ],
      [
        'HEAT_PUMP',
        "Device type 'HEAT_PUMP' is used by 1 load signature and other organizations; it cannot be deleted",
      ],
    ];
    for (const [code, message] of expectations) {
      // The platform's operator may delete shared entries; Demo Energy's devices use these.
      const response = await server.request('DELETE', itemPath(deviceTypes[code]!), {
        token: tokens.operator,
      });
      expect(expectErrorBody(response, 409).message).toBe(message);
    }
  });

  it("counts only the caller's organization's devices, and keeps others' to themselves", async () => {
    const created = await create({ code: 'DEMO_OWN_TYPE' });
    const demoPlant = await server.demoPlantUuid();
    for (const serialNumber of ['A-1', 'A-2']) {
      const device = await server.request('POST', `/plants/${demoPlant}/devices`, {
        token: tokens.admin,
        body: { deviceTypeUuid: created.deviceTypeUuid, serialNumber },
      });
      expect(device.status, JSON.stringify(device.body)).toBe(201);
    }
    const response = await server.request('DELETE', itemPath(created.deviceTypeUuid), {
      token: tokens.admin,
    });
    expect(expectErrorBody(response, 409).message).toBe(
      "Device type 'DEMO_OWN_TYPE' is used by 2 devices; it cannot be deleted",
    );
  });

  it('answers 403 without DEVICE_TYPES DELETE, 400 and 401', async () => {
    const forbidden = await server.request('DELETE', itemPath(deviceTypes.BATTERY!), {
      token: tokens.installer,
    });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission DEVICE_TYPES DELETE required');
    expectErrorBody(
      await server.request('DELETE', itemPath('BATTERY'), { token: tokens.admin }),
      400,
    );
    expectErrorBody(await server.request('DELETE', itemPath(deviceTypes.BATTERY!)), 401);
  });
});
