import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { expectErrorBody, TestServer, type DemoRole } from '../support/testServer.ts';

let server: TestServer;
const tokens = {} as Record<DemoRole, string>;

const CODES = [
  'CURRENT',
  'ENERGY',
  'IRRADIANCE',
  'POWER',
  'STATE_OF_CHARGE',
  'TEMPERATURE',
  'VOLTAGE',
];

async function list(query: Record<string, string | number> = {}) {
  const response = await server.request('GET', '/data-types-collects', {
    token: tokens.manager,
    query,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listDataTypesCollects.response.parse(response.body);
}

const codes = (page: { content: { code: string }[] }) => page.content.map((entry) => entry.code);

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
});

afterAll(async () => {
  await server?.close();
});

describe('GET /data-types-collects', () => {
  it('lists the seven data types by code with their units', async () => {
    const page = await list();
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 7, totalPages: 1 });
    expect(codes(page)).toEqual(CODES);
    expect(page.content.find((entry) => entry.code === 'IRRADIANCE')).toEqual({
      dataTypesCollectUuid: expect.any(String),
      code: 'IRRADIANCE',
      name: 'Irradiance',
      unit: 'W/m²',
    });
    expect(Object.fromEntries(page.content.map((entry) => [entry.code, entry.unit]))).toEqual({
      CURRENT: 'A',
      ENERGY: 'kWh',
      IRRADIANCE: 'W/m²',
      POWER: 'W',
      STATE_OF_CHARGE: '%',
      TEMPERATURE: '°C',
      VOLTAGE: 'V',
    });
  });

  it('searches name, code and unit, case-insensitively', async () => {
    // Units W, kWh and W/m²; "Power" by name and code too.
    expect(codes(await list({ search: 'w' }))).toEqual(['ENERGY', 'IRRADIANCE', 'POWER']);
    // '%' is a literal, not a wildcard: only the unit of state of charge has it.
    expect(codes(await list({ search: '%' }))).toEqual(['STATE_OF_CHARGE']);
    expect(codes(await list({ search: '°C' }))).toEqual(['TEMPERATURE']);
    expect(codes(await list({ search: 'of ch' }))).toEqual(['STATE_OF_CHARGE']);
    expect((await list({ search: 'ohm' })).page.totalElements).toBe(0);
  });

  it('sorts by code, name and unit', async () => {
    expect(codes(await list({ sort: 'code,desc' }))).toEqual([...CODES].reverse());
    expect((await list({ sort: 'name' })).content.map((entry) => entry.name)).toEqual([
      'Current',
      'Energy',
      'Irradiance',
      'Power',
      'State of charge',
      'Temperature',
      'Voltage',
    ]);
    const byUnit = (await list({ sort: 'unit' })).content.map((entry) => entry.unit);
    // Units sort ignoring case: kWh between A and V, not after W as byte order would have it.
    expect(byUnit).toEqual(['%', 'A', 'kWh', 'V', 'W', 'W/m²', '°C']);
    expect((await list({ sort: 'unit,desc' })).content.map((entry) => entry.unit)).toEqual(
      [...byUnit].reverse(),
    );
  });

  it('pages', async () => {
    const page = await list({ size: 3, page: 2 });
    expect(page.page).toEqual({ number: 2, size: 3, totalElements: 7, totalPages: 3 });
    expect(codes(page)).toEqual(['VOLTAGE']);
    expect((await list({ size: 7, page: 1 })).content).toEqual([]);
  });

  it('is readable by every demo account', async () => {
    for (const role of ['admin', 'installer', 'outsider'] as const) {
      const response = await server.request('GET', '/data-types-collects', {
        token: tokens[role],
      });
      expect(response.status).toBe(200);
      expect(response.body.page.totalElements).toBe(7);
    }
  });

  it('answers 400 for a bad query and 401 without a valid token', async () => {
    const cases: Record<string, string>[] = [
      { sort: 'createdAt' },
      { size: '0' },
      { page: 'x' },
      { sort: 'unit,sideways' },
    ];
    for (const query of cases) {
      const response = await server.request('GET', '/data-types-collects', {
        token: tokens.admin,
        query,
      });
      expectErrorBody(response, 400, '/data-types-collects');
    }
    expectErrorBody(await server.request('GET', '/data-types-collects'), 401);
    expectErrorBody(
      await server.request('GET', '/data-types-collects', { token: 'not-a-token' }),
      401,
    );
  });

  it('is read-only: no route creates a data type', async () => {
    const response = await server.request('POST', '/data-types-collects', {
      token: tokens.admin,
      body: { code: 'FREQUENCY', name: 'Frequency', unit: 'Hz' },
    });
    expect([404, 405]).toContain(response.status);
    expect((await list()).page.totalElements).toBe(7);
  });
});
