import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOURLY_PROFILE_SUM_TOLERANCE, routes } from '../../api/index.ts';
import {
  expectErrorBody,
  MISSING_UUID,
  newPlantBody,
  TestServer,
  type DemoRole,
} from '../support/testServer.ts';

let server: TestServer;
const tokens = {} as Record<DemoRole, string>;
let deviceTypes: Record<string, string>;
let loadSignatures: Record<string, string>;
let demoPlant: string;

const REFERENCE_CODES = [
  'EV_EVENING_CHARGING',
  'HEAT_PUMP_WINTER',
  'HOUSEHOLD_BASE',
  'WATER_HEATER_MORNING',
];
const FLAT = Array.from({ length: 24 }, () => 1 / 24);
/** All of the day's energy in one hour. */
const oneHour = (hour: number): number[] =>
  Array.from({ length: 24 }, (_, index) => (index === hour ? 1 : 0));

const itemPath = (uuid: string) => `/load-signatures/${uuid}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

async function list(
  query: Record<string, string | number | boolean> = {},
  role: DemoRole = 'manager',
) {
  const response = await server.request('GET', '/load-signatures', { token: tokens[role], query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listLoadSignatures.response.parse(response.body);
}

async function get(uuid: string, role: DemoRole, query: Record<string, string | boolean> = {}) {
  const response = await server.request('GET', itemPath(uuid), { token: tokens[role], query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.getLoadSignature.response.parse(response.body);
}

async function create(body: Record<string, unknown>) {
  const response = await server.request('POST', '/load-signatures', { token: tokens.admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return routes.createLoadSignature.response.parse(response.body);
}

async function createPlant(role: DemoRole): Promise<string> {
  const response = await server.request('POST', '/plants', {
    token: tokens[role],
    body: newPlantBody(),
  });
  expect(response.status).toBe(201);
  return response.body.plantUuid as string;
}

async function createDevice(role: DemoRole, plantUuid: string, body: Record<string, unknown>) {
  const response = await server.request('POST', `/plants/${plantUuid}/devices`, {
    token: tokens[role],
    body,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return routes.createDevice.response.parse(response.body);
}

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider', 'operator'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
  loadSignatures = await server.catalog('/load-signatures', 'loadSignatureUuid');
  demoPlant = await server.demoPlantUuid();
});

afterAll(async () => {
  await server?.close();
});

describe('GET /load-signatures', () => {
  it('lists the reference load signatures by code, without relationships', async () => {
    const page = await list();
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 4, totalPages: 1 });
    expect(page.content.map((entry) => entry.code)).toEqual(REFERENCE_CODES);
    for (const signature of page.content) {
      expect(signature.hourlyProfile).toHaveLength(24);
      expect(Math.abs(sum(signature.hourlyProfile) - 1)).toBeLessThanOrEqual(
        HOURLY_PROFILE_SUM_TOLERANCE,
      );
      expect(signature).not.toHaveProperty('relationships');
    }
    expect(page.content.find((entry) => entry.code === 'HEAT_PUMP_WINTER')).toMatchObject({
      name: 'Heat pump, winter day',
      deviceTypeUuid: deviceTypes.HEAT_PUMP,
      typicalDailyKwh: 14,
    });
    expect(page.content.find((entry) => entry.code === 'HOUSEHOLD_BASE')?.deviceTypeUuid).toBe(
      null,
    );
  });

  it('searches name and code, sorts and pages', async () => {
    expect((await list({ search: 'WINTER' })).content.map((entry) => entry.code)).toEqual([
      'HEAT_PUMP_WINTER',
    ]);
    expect((await list({ search: 'ing' })).content.map((entry) => entry.code)).toEqual([
      'EV_EVENING_CHARGING',
      'WATER_HEATER_MORNING',
    ]);
    expect((await list({ search: 'A' })).page.totalElements).toBe(4);
    expect((await list({ sort: 'name,desc' })).content.map((entry) => entry.code)).toEqual([
      'WATER_HEATER_MORNING',
      'HOUSEHOLD_BASE',
      'HEAT_PUMP_WINTER',
      'EV_EVENING_CHARGING',
    ]);
    const second = await list({ size: 3, page: 1 });
    expect(second.page).toEqual({ number: 1, size: 3, totalElements: 4, totalPages: 2 });
    expect(second.content.map((entry) => entry.code)).toEqual(['WATER_HEATER_MORNING']);
  });

  it('includes the device type and the devices of the caller organization on request', async () => {
    const page = await list({ includeRelationships: true });
    const byCode = new Map(page.content.map((entry) => [entry.code, entry]));
    const heatPump = byCode.get('HEAT_PUMP_WINTER')!;
    expect(heatPump.relationships?.deviceType).toMatchObject({
      deviceTypeUuid: deviceTypes.HEAT_PUMP,
      code: 'HEAT_PUMP',
      category: 'CONSUMER',
    });
    expect(heatPump.relationships?.devices).toEqual([
      expect.objectContaining({
        name: 'Heat pump',
        plantUuid: demoPlant,
        loadSignatureUuid: loadSignatures.HEAT_PUMP_WINTER,
        serialNumber: 'HP-250-031415',
      }),
    ]);
    expect(byCode.get('HOUSEHOLD_BASE')?.relationships).toEqual({ deviceType: null, devices: [] });
    expect(byCode.get('WATER_HEATER_MORNING')?.relationships).toEqual({
      deviceType: expect.objectContaining({ code: 'WATER_HEATER' }),
      devices: [],
    });
    const flat = await list({ includeRelationships: false });
    expect(flat.content.every((entry) => entry.relationships === undefined)).toBe(true);
  });

  it('sorts by typical daily energy, empty values last', async () => {
    const byEnergy = await list({ sort: 'typicalDailyKwh,desc', size: 200 });
    const values = byEnergy.content.map((entry) => entry.typicalDailyKwh);
    const known = values.filter((value): value is number => value !== null);
    expect(known).toEqual([...known].sort((a, b) => b - a));
    expect(values.slice(known.length).every((value) => value === null)).toBe(true);
  });

  it('answers 400 for a bad query and 401 without a token', async () => {
    const cases: Record<string, string>[] = [
      { includeRelationships: 'yes please' },
      { sort: 'hourlyProfile' },
      { size: '500' },
    ];
    for (const query of cases) {
      const response = await server.request('GET', '/load-signatures', {
        token: tokens.admin,
        query,
      });
      expect(expectErrorBody(response, 400).message).toContain(Object.keys(query)[0]);
    }
    expectErrorBody(await server.request('GET', '/load-signatures'), 401);
  });
});

describe('GET /load-signatures/{loadSignatureUuid}', () => {
  it('answers one load signature, with relationships on request', async () => {
    const plain = await get(loadSignatures.EV_EVENING_CHARGING!, 'installer');
    expect(plain).toMatchObject({ code: 'EV_EVENING_CHARGING', typicalDailyKwh: 9 });
    expect(plain).not.toHaveProperty('relationships');
    const related = await get(loadSignatures.EV_EVENING_CHARGING!, 'installer', {
      includeRelationships: 'true',
    });
    expect(related.relationships?.deviceType?.code).toBe('EV_CHARGER');
    expect(related.relationships?.devices.map((device) => device.name)).toEqual(['Garage wallbox']);
  });

  it('never shows devices of another organization', async () => {
    const outsiderPlant = await createPlant('outsider');
    const outsiderDevice = await createDevice('outsider', outsiderPlant, {
      name: 'Outsider heat pump',
      deviceTypeUuid: deviceTypes.HEAT_PUMP,
      loadSignatureUuid: loadSignatures.HEAT_PUMP_WINTER,
    });
    const siblingPlant = await createPlant('installer');
    await createDevice('installer', siblingPlant, {
      name: 'Annex heat pump',
      deviceTypeUuid: deviceTypes.HEAT_PUMP,
      loadSignatureUuid: loadSignatures.HEAT_PUMP_WINTER,
    });

    const seenByOutsider = await get(loadSignatures.HEAT_PUMP_WINTER!, 'outsider', {
      includeRelationships: true,
    });
    expect(seenByOutsider.relationships?.devices).toEqual([outsiderDevice]);

    const seenByDemo = await get(loadSignatures.HEAT_PUMP_WINTER!, 'manager', {
      includeRelationships: true,
    });
    expect(seenByDemo.relationships?.devices.map((device) => device.name)).toEqual([
      'Annex heat pump',
      'Heat pump',
    ]);
    const listedForOutsider = await list({ includeRelationships: true }, 'outsider');
    const devicesSeen = listedForOutsider.content.flatMap(
      (entry) => entry.relationships?.devices ?? [],
    );
    expect(devicesSeen.map((device) => device.deviceUuid)).toEqual([outsiderDevice.deviceUuid]);
    expect(JSON.stringify(listedForOutsider)).not.toContain(demoPlant);
  });

  it('answers 404 for an unknown uuid, 400 for a malformed one, 401 without token', async () => {
    const missing = await server.request('GET', itemPath(MISSING_UUID), { token: tokens.admin });
    expect(expectErrorBody(missing, 404).message).toBe(`Load signature ${MISSING_UUID} not found`);
    expectErrorBody(
      await server.request('GET', itemPath('HOUSEHOLD_BASE'), { token: tokens.admin }),
      400,
    );
    expectErrorBody(
      await server.request('GET', itemPath(loadSignatures.HOUSEHOLD_BASE!), {
        token: tokens.admin,
        query: { includeRelationships: 'maybe' },
      }),
      400,
    );
    expectErrorBody(await server.request('GET', itemPath(loadSignatures.HOUSEHOLD_BASE!)), 401);
  });
});

describe('POST /load-signatures', () => {
  it('creates a load signature with a flat profile by default; the name defaults to the code', async () => {
    const created = await create({ code: 'OFFICE_PC' });
    expect(created).toEqual({
      loadSignatureUuid: expect.any(String),
      code: 'OFFICE_PC',
      name: 'OFFICE_PC',
      description: null,
      deviceTypeUuid: null,
      hourlyProfile: FLAT,
      typicalDailyKwh: null,
      shared: false,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: created.createdAt,
    });
    expect(await get(created.loadSignatureUuid, 'admin')).toEqual(created);
    expect((await list()).page.totalElements).toBe(5);
  });

  it('stores every field as given', async () => {
    const body = {
      code: 'POOL_PUMP_SUMMER',
      name: 'Pool pump, summer',
      description: 'Filter pump at noon',
      deviceTypeUuid: deviceTypes.WATER_HEATER,
      hourlyProfile: oneHour(12),
      typicalDailyKwh: 2.5,
    };
    const created = await create(body);
    expect(created).toMatchObject(body);
    const related = await get(created.loadSignatureUuid, 'admin', { includeRelationships: true });
    expect(related.relationships).toEqual({
      deviceType: expect.objectContaining({ deviceTypeUuid: deviceTypes.WATER_HEATER }),
      devices: [],
    });
  });

  it('accepts a profile summing to 1 within the tolerance', async () => {
    const profile = oneHour(0);
    profile[0] = 1 - HOURLY_PROFILE_SUM_TOLERANCE / 2;
    const created = await create({ code: 'NEARLY_ONE', hourlyProfile: profile });
    expect(created.hourlyProfile).toEqual(profile);
  });

  it('answers 422 with the actual sum when the profile does not sum to 1', async () => {
    const cases: [number[], string][] = [
      [Array.from({ length: 24 }, () => 0.05), 'it sums to 1.2'],
      [oneHour(3).map((share) => share / 2), 'it sums to 0.5'],
      [Array.from({ length: 24 }, () => 0), 'it sums to 0'],
      [oneHour(5).map((share) => share - 0.00001 * share), 'it sums to 0.99999'],
    ];
    for (const [hourlyProfile, actual] of cases) {
      const response = await server.request('POST', '/load-signatures', {
        token: tokens.admin,
        body: { code: 'BAD_SUM', hourlyProfile },
      });
      const message = expectErrorBody(response, 422).message;
      expect(message).toContain('hourlyProfile must sum to 1');
      expect(message).toContain(actual);
    }
    expect((await list({ search: 'BAD_SUM' })).page.totalElements).toBe(0);
  });

  it('answers 422 for an unknown device type and 409 for a code already used', async () => {
    const unknown = await server.request('POST', '/load-signatures', {
      token: tokens.admin,
      body: { code: 'ORPHAN', deviceTypeUuid: MISSING_UUID },
    });
    expect(expectErrorBody(unknown, 422).message).toBe(
      `deviceTypeUuid ${MISSING_UUID} does not name a device type`,
    );
    const taken = await server.request('POST', '/load-signatures', {
      token: tokens.admin,
      body: { code: 'HOUSEHOLD_BASE' },
    });
    expect(expectErrorBody(taken, 409).message).toBe(
      "Load signature code 'HOUSEHOLD_BASE' is already used",
    );
  });

  it('answers 400 for a malformed profile or field', async () => {
    const cases: [unknown, string][] = [
      [{ code: 'X', hourlyProfile: FLAT.slice(1) }, 'hourlyProfile'],
      [{ code: 'X', hourlyProfile: [...FLAT, 0] }, 'hourlyProfile'],
      [{ code: 'X', hourlyProfile: [1.5, ...oneHour(0).slice(1)] }, 'hourlyProfile.0'],
      [{ code: 'X', hourlyProfile: [...oneHour(0).slice(0, 23), -0.1] }, 'hourlyProfile.23'],
      [{ code: 'X', hourlyProfile: [...FLAT.slice(0, 23), '0.04'] }, 'hourlyProfile.23'],
      [{ code: 'X', typicalDailyKwh: -1 }, 'typicalDailyKwh'],
      [{ code: 'X', deviceTypeUuid: 'HEAT_PUMP' }, 'deviceTypeUuid'],
      [{ name: 'No code' }, 'code'],
    ];
    for (const [body, field] of cases) {
      const response = await server.request('POST', '/load-signatures', {
        token: tokens.admin,
        body,
      });
      expect(expectErrorBody(response, 400).message, JSON.stringify(body)).toContain(field);
    }
  });

  it('answers 403 without LOAD_SIGNATURES CREATE and 401 without a token', async () => {
    const response = await server.request('POST', '/load-signatures', {
      token: tokens.installer,
      body: { code: 'NOPE' },
    });
    expect(expectErrorBody(response, 403).message).toBe(
      'Permission LOAD_SIGNATURES CREATE required',
    );
    expectErrorBody(await server.request('POST', '/load-signatures', { body: { code: 'X' } }), 401);
  });
});

describe('PUT /load-signatures/{loadSignatureUuid}', () => {
  it('merges, clears nullable fields with null and moves updatedAt', async () => {
    const created = await create({
      code: 'SHOP_LIGHTS',
      deviceTypeUuid: deviceTypes.METER,
      typicalDailyKwh: 3,
    });
    await sleep(5);
    const response = await server.request('PUT', itemPath(created.loadSignatureUuid), {
      token: tokens.admin,
      body: { hourlyProfile: oneHour(20), description: 'Evening' },
    });
    expect(response.status).toBe(200);
    const updated = routes.updateLoadSignature.response.parse(response.body);
    expect(updated).toEqual({
      ...created,
      hourlyProfile: oneHour(20),
      description: 'Evening',
      updatedAt: expect.any(String),
    });
    expect(updated.updatedAt > created.updatedAt).toBe(true);
    expect(updated).not.toHaveProperty('relationships');

    const cleared = await server.request('PUT', itemPath(created.loadSignatureUuid), {
      token: tokens.admin,
      body: { deviceTypeUuid: null, typicalDailyKwh: null, description: null },
    });
    expect(cleared.body).toMatchObject({
      code: 'SHOP_LIGHTS',
      deviceTypeUuid: null,
      typicalDailyKwh: null,
      description: null,
      hourlyProfile: oneHour(20),
    });
    expect(await get(created.loadSignatureUuid, 'admin')).toEqual(cleared.body);
  });

  it('answers 422 for a bad sum or an unknown device type, 409 for a taken code', async () => {
    const target = loadSignatures.HOUSEHOLD_BASE!;
    const before = await get(target, 'admin');
    const badSum = await server.request('PUT', itemPath(target), {
      token: tokens.operator,
      body: { hourlyProfile: oneHour(1).map((share) => share * 0.9) },
    });
    expect(expectErrorBody(badSum, 422).message).toContain('it sums to 0.9');
    const unknownType = await server.request('PUT', itemPath(target), {
      token: tokens.operator,
      body: { deviceTypeUuid: MISSING_UUID, name: 'Changed' },
    });
    expect(expectErrorBody(unknownType, 422).message).toContain(MISSING_UUID);
    const taken = await server.request('PUT', itemPath(target), {
      token: tokens.operator,
      body: { code: 'HEAT_PUMP_WINTER' },
    });
    expectErrorBody(taken, 409);
    expect(await get(target, 'admin')).toEqual(before);
  });

  it('answers 404, 400, 403 and 401', async () => {
    expectErrorBody(
      await server.request('PUT', itemPath(MISSING_UUID), { token: tokens.admin, body: {} }),
      404,
    );
    const short = await server.request('PUT', itemPath(loadSignatures.HOUSEHOLD_BASE!), {
      token: tokens.admin,
      body: { hourlyProfile: [1] },
    });
    expect(expectErrorBody(short, 400).message).toContain('hourlyProfile');
    const forbidden = await server.request('PUT', itemPath(loadSignatures.HOUSEHOLD_BASE!), {
      token: tokens.manager,
      body: {},
    });
    expect(expectErrorBody(forbidden, 403).message).toBe(
      'Permission LOAD_SIGNATURES UPDATE required',
    );
    expectErrorBody(
      await server.request('PUT', itemPath(loadSignatures.HOUSEHOLD_BASE!), { body: {} }),
      401,
    );
  });
});

describe('DELETE /load-signatures/{loadSignatureUuid}', () => {
  it('deletes an unused load signature', async () => {
    const created = await create({ code: 'SHORT_LIVED' });
    const response = await server.request('DELETE', itemPath(created.loadSignatureUuid), {
      token: tokens.admin,
    });
    expect(response.status).toBe(204);
    expectErrorBody(
      await server.request('GET', itemPath(created.loadSignatureUuid), { token: tokens.admin }),
      404,
    );
    expectErrorBody(
      await server.request('DELETE', itemPath(created.loadSignatureUuid), {
        token: tokens.admin,
      }),
      404,
    );
  });

  it('answers 409 naming how many devices use it, counting only the caller’s organization', async () => {
    // A shared signature, deleted by the platform's operator: the devices are other organizations'.
    const response = await server.request('DELETE', itemPath(loadSignatures.EV_EVENING_CHARGING!), {
      token: tokens.operator,
    });
    expect(expectErrorBody(response, 409).message).toBe(
      "Load signature 'EV_EVENING_CHARGING' is used by other organizations; it cannot be deleted",
    );
    // Demo Energy's own signature on two of its devices.
    const own = await server.request('POST', '/load-signatures', {
      token: tokens.admin,
      body: { code: 'DEMO_OWN_SIGNATURE' },
    });
    expect(own.status).toBe(201);
    const demoPlant = await server.demoPlantUuid();
    for (const serialNumber of ['LS-1', 'LS-2']) {
      const device = await server.request('POST', `/plants/${demoPlant}/devices`, {
        token: tokens.admin,
        body: {
          deviceTypeUuid: deviceTypes.HEAT_PUMP,
          serialNumber,
          loadSignatureUuid: own.body.loadSignatureUuid,
        },
      });
      expect(device.status, JSON.stringify(device.body)).toBe(201);
    }
    const ownDelete = await server.request('DELETE', itemPath(own.body.loadSignatureUuid), {
      token: tokens.admin,
    });
    expect(expectErrorBody(ownDelete, 409).message).toBe(
      "Load signature 'DEMO_OWN_SIGNATURE' is used by 2 devices; it cannot be deleted",
    );
  });

  it('answers 403 without LOAD_SIGNATURES DELETE, 400 and 401', async () => {
    const forbidden = await server.request('DELETE', itemPath(loadSignatures.HOUSEHOLD_BASE!), {
      token: tokens.installer,
    });
    expect(expectErrorBody(forbidden, 403).message).toBe(
      'Permission LOAD_SIGNATURES DELETE required',
    );
    expectErrorBody(await server.request('DELETE', itemPath('nope'), { token: tokens.admin }), 400);
    expectErrorBody(await server.request('DELETE', itemPath(loadSignatures.HOUSEHOLD_BASE!)), 401);
  });
});
