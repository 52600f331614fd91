import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { expectErrorBody, MISSING_UUID, TestServer, type DemoRole } from '../support/testServer.ts';

let server: TestServer;
const tokens = {} as Record<DemoRole, string>;
let dataTypes: Record<string, string>;
let sensorTypes: Record<string, string>;

const REFERENCE_CODES = [
  'BATTERY_MONITOR',
  'ENERGY_METER',
  'POWER_METER',
  'PYRANOMETER',
  'TEMPERATURE_SENSOR',
];

const itemPath = (uuid: string) => `/sensor-types/${uuid}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function list(query: Record<string, string | number | readonly string[]> = {}) {
  const response = await server.request('GET', '/sensor-types', { token: tokens.manager, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listSensorTypes.response.parse(response.body);
}

async function create(body: Record<string, unknown>) {
  const response = await server.request('POST', '/sensor-types', { token: tokens.admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return routes.createSensorType.response.parse(response.body);
}

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider', 'operator'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
});

afterAll(async () => {
  await server?.close();
});

describe('GET /sensor-types', () => {
  it('lists the reference sensor types by code, with the data types each allows', async () => {
    const page = await list();
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 5, totalPages: 1 });
    expect(page.content.map((entry) => entry.code)).toEqual(REFERENCE_CODES);
    const powerMeter = page.content.find((entry) => entry.code === 'POWER_METER')!;
    expect(powerMeter).toMatchObject({
      name: 'Power meter',
      description: 'Measures active power and counts energy',
      // In data type code order.
      dataTypesCollectUuids: [
        dataTypes.CURRENT,
        dataTypes.ENERGY,
        dataTypes.POWER,
        dataTypes.VOLTAGE,
      ],
    });
    expect(powerMeter.createdAt).toMatch(/Z$/);
  });

  it('is readable by every demo account, of either organization', async () => {
    for (const role of ['installer', 'outsider'] as const) {
      const response = await server.request('GET', '/sensor-types', { token: tokens[role] });
      expect(response.status).toBe(200);
      expect(response.body.page.totalElements).toBe(5);
    }
  });

  it('searches name and code, case-insensitively', async () => {
    const meter = await list({ search: 'meter' });
    expect(meter.content.map((entry) => entry.code)).toEqual([
      'ENERGY_METER',
      'POWER_METER',
      'PYRANOMETER',
    ]);
    expect(meter.page.totalElements).toBe(3);
    // Only the name has a space, only the code an underscore (not a wildcard).
    expect((await list({ search: 'Y MON' })).content.map((entry) => entry.code)).toEqual([
      'BATTERY_MONITOR',
    ]);
    expect((await list({ search: '_' })).page.totalElements).toBe(4);
    expect((await list({ search: 'nothing like this' })).page).toEqual({
      number: 0,
      size: 20,
      totalElements: 0,
      totalPages: 0,
    });
  });

  it('sorts by the sortable properties', async () => {
    expect((await list({ sort: 'name,desc' })).content.map((entry) => entry.name)).toEqual([
      'Temperature sensor',
      'Pyranometer',
      'Power meter',
      'Energy meter',
      'Battery monitor',
    ]);
    expect((await list({ sort: 'code,desc' })).content.map((entry) => entry.code)).toEqual(
      [...REFERENCE_CODES].reverse(),
    );
  });

  it('pages', async () => {
    const last = await list({ size: 2, page: 2 });
    expect(last.page).toEqual({ number: 2, size: 2, totalElements: 5, totalPages: 3 });
    expect(last.content.map((entry) => entry.code)).toEqual(['TEMPERATURE_SENSOR']);
    const beyond = await list({ size: 2, page: 9 });
    expect(beyond.content).toEqual([]);
    expect(beyond.page.totalElements).toBe(5);
  });

  it('answers 400 for a bad query', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ sort: 'unit' }, 'unit'],
      [{ size: '0' }, 'size'],
      [{ size: '201' }, 'size'],
      [{ page: '-1' }, 'page'],
      [{ page: 'first' }, 'page'],
    ];
    for (const [query, named] of cases) {
      const response = await server.request('GET', '/sensor-types', {
        token: tokens.admin,
        query,
      });
      expect(expectErrorBody(response, 400, '/sensor-types').message).toContain(named);
    }
  });

  it('answers 401 without a valid token', async () => {
    expectErrorBody(await server.request('GET', '/sensor-types'), 401);
    expectErrorBody(await server.request('GET', '/sensor-types', { token: 'x.y.z' }), 401);
  });
});

describe('GET /sensor-types/{sensorTypeUuid}', () => {
  it('answers one sensor type, also for an upper-case uuid', async () => {
    const [listed] = (await list({ search: 'PYRANOMETER' })).content;
    for (const uuid of [sensorTypes.PYRANOMETER!, sensorTypes.PYRANOMETER!.toUpperCase()]) {
      const response = await server.request('GET', itemPath(uuid), { token: tokens.manager });
      expect(response.status).toBe(200);
      expect(routes.getSensorType.response.parse(response.body)).toEqual(listed);
    }
    expect(listed!.dataTypesCollectUuids).toEqual([dataTypes.IRRADIANCE, dataTypes.TEMPERATURE]);
  });

  it('answers 404 for an unknown uuid and 400 for a malformed one', async () => {
    const missing = await server.request('GET', itemPath(MISSING_UUID), { token: tokens.admin });
    expect(expectErrorBody(missing, 404, itemPath(MISSING_UUID)).message).toContain(MISSING_UUID);
    const malformed = await server.request('GET', itemPath('not-a-uuid'), { token: tokens.admin });
    expect(expectErrorBody(malformed, 400).message).toContain('sensorTypeUuid');
  });

  it('answers 401 without a token', async () => {
    expectErrorBody(await server.request('GET', itemPath(sensorTypes.POWER_METER!)), 401);
  });
});

describe('POST /sensor-types', () => {
  it('creates a sensor type; the name defaults to the code', async () => {
    const created = await create({
      code: 'TEST_HEAT_METER',
      dataTypesCollectUuids: [dataTypes.TEMPERATURE, dataTypes.ENERGY],
    });
    expect(created).toEqual({
      sensorTypeUuid: expect.any(String),
      code: 'TEST_HEAT_METER',
      name: 'TEST_HEAT_METER',
      description: null,
      dataTypesCollectUuids: [dataTypes.ENERGY, dataTypes.TEMPERATURE],
      shared: false,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: created.createdAt,
    });
    const read = await server.request('GET', itemPath(created.sensorTypeUuid), {
      token: tokens.manager,
    });
    expect(read.body).toEqual(created);
    expect((await list()).page.totalElements).toBe(6);
  });

  it('stores name and description, and allows no data type when none is given', async () => {
    const created = await create({
      code: '  TEST_FLOW_METER ',
      name: ' Flow meter ',
      description: 'Water flow',
    });
    expect(created).toMatchObject({
      code: 'TEST_FLOW_METER',
      name: 'Flow meter',
      description: 'Water flow',
      dataTypesCollectUuids: [],
    });
  });

  it('answers 409 for a code already used', async () => {
    for (const code of ['POWER_METER', ' POWER_METER ']) {
      const response = await server.request('POST', '/sensor-types', {
        token: tokens.admin,
        body: { code },
      });
      expect(expectErrorBody(response, 409, '/sensor-types').message).toBe(
        "Sensor type code 'POWER_METER' is already used",
      );
    }
  });

  it('answers 422 naming an unknown data types collect', async () => {
    const response = await server.request('POST', '/sensor-types', {
      token: tokens.admin,
      body: { code: 'TEST_UNKNOWN_DATA', dataTypesCollectUuids: [dataTypes.POWER, MISSING_UUID] },
    });
    const message = expectErrorBody(response, 422).message;
    expect(message).toContain('dataTypesCollectUuids');
    expect(message).toContain(MISSING_UUID);
    expect(message).not.toContain(dataTypes.POWER!);
    expect((await list({ search: 'TEST_UNKNOWN_DATA' })).page.totalElements).toBe(0);
  });

  it('answers 400 for a bad body, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'code'],
      [{ code: '   ' }, 'code'],
      [{ code: 'X'.repeat(65) }, 'code'],
      [{ code: 'TEST_X', name: '' }, 'name'],
      [{ code: 'TEST_X', dataTypesCollectUuids: ['power'] }, 'dataTypesCollectUuids'],
      [
        { code: 'TEST_X', dataTypesCollectUuids: [dataTypes.POWER, dataTypes.POWER] },
        'dataTypesCollectUuids',
      ],
      [{ code: 'TEST_X', dataTypesCollectUuids: dataTypes.POWER }, 'dataTypesCollectUuids'],
      [{ code: 7 }, 'code'],
    ];
    for (const [body, field] of cases) {
      const response = await server.request('POST', '/sensor-types', {
        token: tokens.admin,
        body,
      });
      expect(expectErrorBody(response, 400).message, JSON.stringify(body)).toContain(field);
    }
    const notJson = await server.request('POST', '/sensor-types', {
      token: tokens.admin,
      rawBody: '{"code":',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorBody(notJson, 400);
  });

  it('answers 403 without SENSOR_TYPES CREATE, and 401 without a token', async () => {
    for (const role of ['installer', 'manager'] as const) {
      const response = await server.request('POST', '/sensor-types', {
        token: tokens[role],
        body: { code: 'TEST_FORBIDDEN' },
      });
      expect(expectErrorBody(response, 403).message).toBe(
        'Permission SENSOR_TYPES CREATE required',
      );
    }
    expectErrorBody(
      await server.request('POST', '/sensor-types', { body: { code: 'TEST_FORBIDDEN' } }),
      401,
    );
  });
});

describe('PUT /sensor-types/{sensorTypeUuid}', () => {
  it('merges: fields left out keep their values, updatedAt moves', async () => {
    const created = await create({
      code: 'TEST_MERGE',
      name: 'Merge me',
      description: 'Before',
      dataTypesCollectUuids: [dataTypes.POWER],
    });
    await sleep(5);
    const response = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { description: 'After' },
    });
    expect(response.status).toBe(200);
    const updated = routes.updateSensorType.response.parse(response.body);
    expect(updated).toEqual({
      ...created,
      description: 'After',
      updatedAt: expect.any(String),
    });
    expect(updated.updatedAt > created.updatedAt).toBe(true);

    const cleared = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { description: null, code: 'TEST_MERGED' },
    });
    expect(cleared.body).toMatchObject({
      code: 'TEST_MERGED',
      name: 'Merge me',
      description: null,
      dataTypesCollectUuids: [dataTypes.POWER],
    });
  });

  it('replaces the allowed data types with the given set', async () => {
    const created = await create({
      code: 'TEST_REPLACE',
      dataTypesCollectUuids: [dataTypes.POWER, dataTypes.ENERGY],
    });
    const response = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { dataTypesCollectUuids: [dataTypes.VOLTAGE, dataTypes.CURRENT, dataTypes.POWER] },
    });
    expect(response.status).toBe(200);
    expect(response.body.dataTypesCollectUuids).toEqual([
      dataTypes.CURRENT,
      dataTypes.POWER,
      dataTypes.VOLTAGE,
    ]);
    const emptied = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { dataTypesCollectUuids: [] },
    });
    expect(emptied.body.dataTypesCollectUuids).toEqual([]);
    const read = await server.request('GET', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
    });
    expect(read.body.dataTypesCollectUuids).toEqual([]);
  });

  it('answers 409 for a code of another sensor type, but accepts its own', async () => {
    const created = await create({ code: 'TEST_OWN_CODE' });
    const taken = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { code: 'ENERGY_METER' },
    });
    expect(expectErrorBody(taken, 409).message).toBe(
      "Sensor type code 'ENERGY_METER' is already used",
    );
    const own = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { code: 'TEST_OWN_CODE', name: 'Own' },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ code: 'TEST_OWN_CODE', name: 'Own' });
  });

  it('answers 409 when withdrawing a data type that sensors of the type collect', async () => {
    const response = await server.request('PUT', itemPath(sensorTypes.POWER_METER!), {
      token: tokens.operator,
      body: { name: 'Renamed', dataTypesCollectUuids: [dataTypes.ENERGY, dataTypes.VOLTAGE] },
    });
    // Five of Demo Energy's sensors of this type collect POWER: the platform's operator is told
    // that other organizations' sensors do, not how many.
    expect(expectErrorBody(response, 409).message).toBe(
      "dataTypesCollectUuids: sensor type 'POWER_METER' must keep allowing POWER (collected by sensors of other organizations)",
    );
    const read = await server.request('GET', itemPath(sensorTypes.POWER_METER!), {
      token: tokens.operator,
    });
    expect(read.body.name).toBe('Power meter');
    expect(read.body.dataTypesCollectUuids).toHaveLength(4);
    // Withdrawing data types no sensor collects is fine.
    const narrowed = await server.request('PUT', itemPath(sensorTypes.POWER_METER!), {
      token: tokens.operator,
      body: { dataTypesCollectUuids: [dataTypes.POWER, dataTypes.ENERGY] },
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.dataTypesCollectUuids).toEqual([dataTypes.ENERGY, dataTypes.POWER]);
  });

  it('answers 422 for an unknown data types collect and leaves the entry unchanged', async () => {
    const created = await create({ code: 'TEST_UPDATE_422', dataTypesCollectUuids: [] });
    const response = await server.request('PUT', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
      body: { name: 'Changed', dataTypesCollectUuids: [MISSING_UUID] },
    });
    expect(expectErrorBody(response, 422).message).toContain(MISSING_UUID);
    const read = await server.request('GET', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
    });
    expect(read.body).toEqual(created);
  });

  it('answers 404, 400, 403 and 401', async () => {
    const missing = await server.request('PUT', itemPath(MISSING_UUID), {
      token: tokens.admin,
      body: { name: 'Nobody' },
    });
    expect(expectErrorBody(missing, 404).message).toContain(MISSING_UUID);
    expectErrorBody(
      await server.request('PUT', itemPath('1234'), { token: tokens.admin, body: {} }),
      400,
    );
    const badBody = await server.request('PUT', itemPath(sensorTypes.PYRANOMETER!), {
      token: tokens.admin,
      body: { name: 42 },
    });
    expect(expectErrorBody(badBody, 400).message).toContain('name');
    const forbidden = await server.request('PUT', itemPath(sensorTypes.PYRANOMETER!), {
      token: tokens.installer,
      body: { name: 'Nope' },
    });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission SENSOR_TYPES UPDATE required');
    expectErrorBody(
      await server.request('PUT', itemPath(sensorTypes.PYRANOMETER!), { body: {} }),
      401,
    );
  });
});

describe('DELETE /sensor-types/{sensorTypeUuid}', () => {
  it('deletes an unused sensor type', async () => {
    const created = await create({
      code: 'TEST_DELETE_ME',
      dataTypesCollectUuids: [dataTypes.POWER],
    });
    const response = await server.request('DELETE', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    const read = await server.request('GET', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
    });
    expectErrorBody(read, 404);
    const again = await server.request('DELETE', itemPath(created.sensorTypeUuid), {
      token: tokens.admin,
    });
    expectErrorBody(again, 404);
    // The code is free again.
    await create({ code: 'TEST_DELETE_ME' });
  });

  it('answers 409 naming how many sensors use the type', async () => {
    const powerMeter = await server.request('DELETE', itemPath(sensorTypes.POWER_METER!), {
      token: tokens.operator,
    });
    expect(expectErrorBody(powerMeter, 409).message).toBe(
      "Sensor type 'POWER_METER' is used by other organizations; it cannot be deleted",
    );
    const thermometer = await server.request('DELETE', itemPath(sensorTypes.TEMPERATURE_SENSOR!), {
      token: tokens.operator,
    });
    expect(expectErrorBody(thermometer, 409).message).toBe(
      "Sensor type 'TEMPERATURE_SENSOR' is used by other organizations; it cannot be deleted",
    );
    expect((await list({ search: 'TEMPERATURE_SENSOR' })).page.totalElements).toBe(1);
  });

  it('answers 403 without SENSOR_TYPES DELETE, 400 for a malformed uuid, 401 without token', async () => {
    const forbidden = await server.request('DELETE', itemPath(sensorTypes.ENERGY_METER!), {
      token: tokens.installer,
    });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission SENSOR_TYPES DELETE required');
    expectErrorBody(await server.request('DELETE', itemPath('zzz'), { token: tokens.admin }), 400);
    expectErrorBody(await server.request('DELETE', itemPath(sensorTypes.ENERGY_METER!)), 401);
  });

  it('counts what the tests created', async () => {
    // Five reference types plus the seven TEST_ types still standing.
    const page = await list({ search: 'test_', size: 3 });
    expect(page.page).toEqual({ number: 0, size: 3, totalElements: 7, totalPages: 3 });
    expect((await list()).page.totalElements).toBe(12);
  });
});
