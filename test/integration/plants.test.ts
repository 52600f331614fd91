import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../api/index.ts';
import {
  configurePlantVendor,
  createDevice,
  createPlant,
  createSensor,
  expectStatus,
  uniqueCode,
} from '../support/entities.ts';
import { referenceUuids, type ReferenceUuids } from '../support/referenceData.ts';
import {
  expectErrorBody,
  MISSING_UUID,
  newPlantBody,
  TestServer,
  type DemoRole,
} from '../support/testServer.ts';

let server: TestServer;
let demoPlant: string;
let reference: ReferenceUuids;
const tokens = {} as Record<DemoRole, string>;

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  demoPlant = await server.demoPlantUuid();
  reference = await referenceUuids(server);
});

afterAll(async () => {
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function list(query: Record<string, any>, role: DemoRole = 'admin') {
  const response = await server.request('GET', '/plants', { token: tokens[role], query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listPlants.response.parse(response.body);
}

const names = (page: { content: { name: string }[] }) => page.content.map((plant) => plant.name);

describe('POST /plants', () => {
  test('201 with the created plant; PV defaults filled; timestamps UTC', async () => {
    const before = Date.now();
    const response = await server.request('POST', '/plants', {
      token: tokens.admin,
      body: {
        name: '  Rooftop Rome  ',
        externalIds: ['CRM-1', 'ERP-77'],
        location: { latitude: 41.9, longitude: 12.5, timezone: 'Europe/Rome', altitudeM: 21 },
        pv: { peakPowerKw: 5.5 },
        metadata: { owner: 'Rossi', floors: 2, tags: ['a'] },
      },
    });
    expect(response.status).toBe(201);
    const plant = routes.createPlant.response.parse(response.body);
    expect(plant).toMatchObject({
      name: 'Rooftop Rome',
      externalIds: ['CRM-1', 'ERP-77'],
      location: { latitude: 41.9, longitude: 12.5, timezone: 'Europe/Rome', altitudeM: 21 },
      pv: { peakPowerKw: 5.5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
      metadata: { owner: 'Rossi', floors: 2, tags: ['a'] },
    });
    expect(plant.plantUuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(plant.createdAt).toMatch(/Z$/);
    expect(plant.updatedAt).toBe(plant.createdAt);
    expect(Date.parse(plant.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(plant.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);

    const fetched = await server.request('GET', `/plants/${plant.plantUuid}`, {
      token: tokens.admin,
    });
    expect(fetched.body).toEqual(response.body);
  });

  test('a minimal body: no PV, no external ids, empty metadata, no altitude', async () => {
    const plant = routes.createPlant.response.parse(
      await createPlant(server, tokens.installer, { name: 'Minimal' }),
    );
    expect(plant).toMatchObject({
      name: 'Minimal',
      externalIds: [],
      pv: null,
      metadata: {},
      location: { altitudeM: null },
    });
  });

  test('explicit PV settings are kept', async () => {
    const plant = await createPlant(server, tokens.admin, {
      pv: { peakPowerKw: 3, tiltDeg: 0, azimuthDeg: 90, lossesPercent: 0 },
    });
    expect(plant.pv).toEqual({ peakPowerKw: 3, tiltDeg: 0, azimuthDeg: 90, lossesPercent: 0 });
  });

  test.each([
    {
      name: 'latitude 91',
      body: { location: { latitude: 91, longitude: 0, timezone: 'UTC' } },
      field: 'location.latitude',
    },
    {
      name: 'latitude -90.5',
      body: { location: { latitude: -90.5, longitude: 0, timezone: 'UTC' } },
      field: 'location.latitude',
    },
    {
      name: 'longitude 181',
      body: { location: { latitude: 0, longitude: 181, timezone: 'UTC' } },
      field: 'location.longitude',
    },
    {
      name: 'a latitude given as text',
      body: { location: { latitude: '45', longitude: 0, timezone: 'UTC' } },
      field: 'location.latitude',
    },
    {
      name: 'an unknown time zone',
      body: { location: { latitude: 0, longitude: 0, timezone: 'Mars/Olympus_Mons' } },
      field: 'location.timezone',
    },
    {
      name: 'a fixed offset as time zone',
      body: { location: { latitude: 0, longitude: 0, timezone: '+02:00' } },
      field: 'location.timezone',
    },
    {
      name: 'no time zone',
      body: { location: { latitude: 0, longitude: 0 } },
      field: 'location.timezone',
    },
    { name: 'no location', body: { location: undefined }, field: 'location' },
    { name: 'an empty name', body: { name: '' }, field: 'name' },
    { name: 'a blank name', body: { name: '   ' }, field: 'name' },
    { name: 'a name of 201 characters', body: { name: 'x'.repeat(201) }, field: 'name' },
    { name: 'a numeric name', body: { name: 42 }, field: 'name' },
    {
      name: 'duplicate external ids',
      body: { externalIds: ['A-1', 'B-2', 'A-1'] },
      field: 'externalIds',
    },
    { name: 'an empty external id', body: { externalIds: [''] }, field: 'externalIds.0' },
    { name: 'external ids as a string', body: { externalIds: 'A-1' }, field: 'externalIds' },
    { name: 'PV of 0 kW', body: { pv: { peakPowerKw: 0 } }, field: 'pv.peakPowerKw' },
    { name: 'PV tilt 91°', body: { pv: { peakPowerKw: 1, tiltDeg: 91 } }, field: 'pv.tiltDeg' },
    { name: 'metadata as an array', body: { metadata: [1, 2] }, field: 'metadata' },
  ])('$name → 400 naming $field', async ({ body, field }) => {
    const response = await server.request('POST', '/plants', {
      token: tokens.admin,
      body: newPlantBody(body),
    });
    const error = expectErrorBody(response, 400, '/plants');
    expect(error.message).toContain(`'${field}'`);
  });

  test('409 for an external id already used in the organization, naming it', async () => {
    const error = expectErrorBody(
      await server.request('POST', '/plants', {
        token: tokens.installer,
        body: newPlantBody({ externalIds: ['NEW-1', 'DEMO-HOME-001'] }),
      }),
      409,
      '/plants',
    );
    expect(error.message).toContain('DEMO-HOME-001');
    // Nothing was created.
    expect((await list({ externalIds: 'NEW-1' })).page.totalElements).toBe(0);
  });

  test('the same external id in another organization is fine', async () => {
    const plant = await createPlant(server, tokens.outsider, { externalIds: ['DEMO-HOME-001'] });
    expect(plant.externalIds).toEqual(['DEMO-HOME-001']);
  });

  test('403 for the manager, naming the permission', async () => {
    const error = expectErrorBody(
      await server.request('POST', '/plants', { token: tokens.manager, body: newPlantBody() }),
      403,
      '/plants',
    );
    expect(error.message).toBe('Permission PLANTS CREATE required');
  });
});

describe('GET /plants', () => {
  const tag = uniqueCode('paging').toLowerCase();
  const created: any[] = [];

  beforeAll(async () => {
    // Created out of name order: the list must sort them.
    for (const [index, letter] of ['c', 'a', 'e', 'b', 'd'].entries()) {
      created.push(
        await createPlant(server, tokens.admin, {
          name: `${tag} ${letter}`,
          externalIds: [`EXT-${tag}-${letter}`.toUpperCase(), `idx-${tag}-${index}`],
        }),
      );
    }
  });

  test('answers the page envelope, defaults page 0 size 20, own organization only', async () => {
    const page = await list({});
    expect(page.page.number).toBe(0);
    expect(page.page.size).toBe(20);
    expect(page.page.totalElements).toBeGreaterThanOrEqual(6);
    expect(page.page.totalPages).toBe(Math.ceil(page.page.totalElements / 20));
    expect(names(page)).toContain('Demo Home');
  });

  test('pages: page and size, totalPages, an empty page past the end', async () => {
    const first = await list({ search: tag, size: 2 });
    expect(first.page).toEqual({ number: 0, size: 2, totalElements: 5, totalPages: 3 });
    expect(names(first)).toEqual([`${tag} a`, `${tag} b`]);
    const last = await list({ search: tag, size: 2, page: 2 });
    expect(last.page).toEqual({ number: 2, size: 2, totalElements: 5, totalPages: 3 });
    expect(names(last)).toEqual([`${tag} e`]);
    const beyond = await list({ search: tag, size: 2, page: 7 });
    expect(beyond.content).toEqual([]);
    expect(beyond.page).toEqual({ number: 7, size: 2, totalElements: 5, totalPages: 3 });
    const none = await list({ search: `${tag}-nothing` });
    expect(none.page).toEqual({ number: 0, size: 20, totalElements: 0, totalPages: 0 });
  });

  test('search: case-insensitive substring of the name', async () => {
    expect(names(await list({ search: tag.toUpperCase() }))).toHaveLength(5);
    expect(names(await list({ search: `${tag} C` }))).toEqual([`${tag} c`]);
    expect(names(await list({ search: 'demo hOME' }))).toEqual(['Demo Home']);
  });

  test('search: case-insensitive substring of an external id', async () => {
    expect(names(await list({ search: `ext-${tag}-D` }))).toEqual([`${tag} d`]);
    expect(names(await list({ search: 'demo-home-0' }))).toEqual(['Demo Home']);
  });

  test('search: case-insensitive beyond ASCII (Ü, Ö, É)', async () => {
    const plant = await createPlant(server, tokens.admin, {
      name: `${tag} Über Ölkessel`,
      externalIds: [`ÉXT-${tag}`],
    });
    for (const term of ['Über', 'über', 'ÜBER', 'ölKESSEL', `éxt-${tag}`, `ÉXT-${tag}`]) {
      expect(names(await list({ search: term })), term).toEqual([plant.name]);
    }
    await server.request('DELETE', `/plants/${plant.plantUuid}`, { token: tokens.admin });
  });

  test('search: LIKE wildcards are literal', async () => {
    const plant = await createPlant(server, tokens.admin, { name: `${tag} 100% green_` });
    expect(names(await list({ search: '100%' }))).toEqual([plant.name]);
    expect(names(await list({ search: `${tag} _` }))).toEqual([]);
    expect(names(await list({ search: '%' }))).toEqual([plant.name]);
    await server.request('DELETE', `/plants/${plant.plantUuid}`, { token: tokens.admin });
  });

  test('plantUuids: comma-separated, repeated, upper case', async () => {
    const [c, a, e] = created;
    const comma = await list({ plantUuids: `${c.plantUuid},${a.plantUuid}` });
    expect(names(comma)).toEqual([`${tag} a`, `${tag} c`]);
    const repeated = await list({ plantUuids: [c.plantUuid, e.plantUuid.toUpperCase()] });
    expect(names(repeated)).toEqual([`${tag} c`, `${tag} e`]);
    const mixed = await list({ plantUuids: [`${c.plantUuid},${a.plantUuid}`, e.plantUuid] });
    expect(mixed.page.totalElements).toBe(3);
  });

  test('plantUuids: another organization’s plant and unknown uuids filter to nothing', async () => {
    const foreign = await createPlant(server, tokens.outsider);
    expect((await list({ plantUuids: `${foreign.plantUuid},${MISSING_UUID}` })).content).toEqual(
      [],
    );
  });

  test('externalIds: comma-separated and repeated, exact match', async () => {
    const ids = (letter: string) => `EXT-${tag}-${letter}`.toUpperCase();
    expect(names(await list({ externalIds: `${ids('a')},${ids('b')}` }))).toEqual([
      `${tag} a`,
      `${tag} b`,
    ]);
    expect(names(await list({ externalIds: [ids('e'), `idx-${tag}-0`] }))).toEqual([
      `${tag} c`,
      `${tag} e`,
    ]);
    expect((await list({ externalIds: `EXT-${tag}` })).content).toEqual([]);
  });

  test('filters combine', async () => {
    const [c, a] = created;
    const page = await list({
      search: `${tag} c`,
      plantUuids: `${c.plantUuid},${a.plantUuid}`,
    });
    expect(names(page)).toEqual([`${tag} c`]);
  });

  test('sort: name desc, createdAt, repeated', async () => {
    expect(names(await list({ search: tag, sort: 'name,desc' }))).toEqual(
      ['e', 'd', 'c', 'b', 'a'].map((letter) => `${tag} ${letter}`),
    );
    expect(names(await list({ search: tag, sort: 'createdAt' }))).toEqual(
      ['c', 'a', 'e', 'b', 'd'].map((letter) => `${tag} ${letter}`),
    );
    expect(names(await list({ search: tag, sort: ['updatedAt,desc', 'name'] }))).toHaveLength(5);
  });

  test.each([
    { query: { sort: 'colour' }, field: 'sort', text: "'colour'" },
    { query: { sort: 'name,colour,desc' }, field: 'sort', text: "'colour'" },
    { query: { size: 201 }, field: 'size', text: 'size must be an integer from 1 to 200' },
    { query: { size: 0 }, field: 'size', text: 'size must be an integer from 1 to 200' },
    { query: { page: -1 }, field: 'page', text: 'page must be an integer from 0' },
    { query: { page: 'first' }, field: 'page', text: 'page must be an integer from 0' },
    {
      query: { plantUuids: 'not-a-uuid' },
      field: 'plantUuids',
      text: 'plantUuids must hold UUIDs',
    },
    { query: { search: ['a', 'b'] }, field: 'search', text: 'search must be given once' },
  ])('$query → 400 naming $field', async ({ query, field, text }) => {
    const response = await server.request('GET', '/plants', { token: tokens.admin, query });
    const error = expectErrorBody(response, 400, '/plants');
    expect(error.message).toContain(field);
    expect(error.message).toContain(text);
  });

  test('the outsider sees only Other Co’s plants', async () => {
    const page = await list({ size: 200 }, 'outsider');
    expect(page.content.map((plant) => plant.plantUuid)).not.toContain(demoPlant);
    expect(page.page.totalElements).toBeGreaterThan(0);
    expect((await list({ search: 'Demo Home' }, 'outsider')).content).toEqual([]);
    expect((await list({ plantUuids: demoPlant }, 'outsider')).content).toEqual([]);
    // Other Co has its own plant with Demo Home's external id; only that one is found.
    const byExternalId = await list({ externalIds: 'DEMO-HOME-001' }, 'outsider');
    expect(byExternalId.content.map((plant) => plant.plantUuid)).not.toContain(demoPlant);
  });

  test('every READ role lists', async () => {
    expect(names(await list({ search: 'Demo Home' }, 'manager'))).toEqual(['Demo Home']);
  });
});

describe('GET /plants/{plantUuid}', () => {
  test('200 with the plant, for every role of the organization', async () => {
    for (const role of ['admin', 'installer', 'manager'] as const) {
      const response = await server.request('GET', `/plants/${demoPlant}`, { token: tokens[role] });
      expect(response.status).toBe(200);
      const plant = routes.getPlant.response.parse(response.body);
      expect(plant).toMatchObject({
        plantUuid: demoPlant,
        name: 'Demo Home',
        externalIds: ['DEMO-HOME-001'],
        location: { timezone: 'Europe/Rome' },
        pv: { peakPowerKw: 8.4 },
      });
    }
  });

  test('an upper-case uuid names the same plant', async () => {
    const response = await server.request('GET', `/plants/${demoPlant.toUpperCase()}`, {
      token: tokens.admin,
    });
    expect(response.status).toBe(200);
    expect(response.body.plantUuid).toBe(demoPlant);
  });

  test('an unknown uuid → 404 naming it', async () => {
    const error = expectErrorBody(
      await server.request('GET', `/plants/${MISSING_UUID}`, { token: tokens.admin }),
      404,
      `/plants/${MISSING_UUID}`,
    );
    expect(error.message).toContain(MISSING_UUID);
  });

  test.each(['GET', 'PUT', 'DELETE'])(
    '%s with a malformed uuid → 400 naming plantUuid',
    async (method) => {
      for (const bad of [
        'not-a-uuid',
        '12345',
        `${demoPlant}x`,
        'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
      ]) {
        const response = await server.request(method, `/plants/${bad}`, {
          token: tokens.admin,
          ...(method === 'PUT' && { body: { name: 'x' } }),
        });
        const error = expectErrorBody(response, 400, `/plants/${bad}`);
        expect(error.message).toContain('plantUuid');
      }
    },
  );
});

describe('PUT /plants/{plantUuid}', () => {
  test('merges: fields left out keep their values; updatedAt changes', async () => {
    const original = await createPlant(server, tokens.admin, {
      externalIds: ['MERGE-1'],
      pv: { peakPowerKw: 4 },
      metadata: { a: 1 },
    });
    await sleep(5);
    const response = await server.request('PUT', `/plants/${original.plantUuid}`, {
      token: tokens.installer,
      body: { name: 'Renamed' },
    });
    expect(response.status).toBe(200);
    const updated = routes.updatePlant.response.parse(response.body);
    expect(updated).toEqual({
      ...original,
      name: 'Renamed',
      updatedAt: updated.updatedAt,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(original.updatedAt));
    expect(updated.createdAt).toBe(original.createdAt);
    const fetched = await server.request('GET', `/plants/${original.plantUuid}`, {
      token: tokens.admin,
    });
    expect(fetched.body).toEqual(response.body);
  });

  test('pv: null clears; externalIds, location and metadata are replaced', async () => {
    const original = await createPlant(server, tokens.admin, {
      externalIds: ['REPL-1', 'REPL-2'],
      pv: { peakPowerKw: 4 },
      metadata: { a: 1, b: 2 },
    });
    const response = await server.request('PUT', `/plants/${original.plantUuid}`, {
      token: tokens.admin,
      body: {
        pv: null,
        externalIds: ['REPL-3'],
        location: { latitude: -33.9, longitude: 18.4, timezone: 'Africa/Johannesburg' },
        metadata: { c: 3 },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: original.name,
      pv: null,
      externalIds: ['REPL-3'],
      location: {
        latitude: -33.9,
        longitude: 18.4,
        timezone: 'Africa/Johannesburg',
        altitudeM: null,
      },
      metadata: { c: 3 },
    });
    // The released ids are free again; the new one is taken.
    await createPlant(server, tokens.admin, { externalIds: ['REPL-1'] });
    expectErrorBody(
      await server.request('POST', '/plants', {
        token: tokens.admin,
        body: newPlantBody({ externalIds: ['REPL-3'] }),
      }),
      409,
    );
  });

  test('externalIds: [] removes them; PV can be set again', async () => {
    const original = await createPlant(server, tokens.admin, { externalIds: ['EMPTY-1'] });
    const response = await server.request('PUT', `/plants/${original.plantUuid}`, {
      token: tokens.admin,
      body: { externalIds: [], pv: { peakPowerKw: 2, tiltDeg: 10 } },
    });
    expect(response.body.externalIds).toEqual([]);
    expect(response.body.pv).toEqual({
      peakPowerKw: 2,
      tiltDeg: 10,
      azimuthDeg: 180,
      lossesPercent: 14,
    });
  });

  test('an empty body changes nothing but updatedAt', async () => {
    const original = await createPlant(server, tokens.admin, { externalIds: ['NOOP-1'] });
    const response = await server.request('PUT', `/plants/${original.plantUuid}`, {
      token: tokens.admin,
      body: {},
    });
    expect(response.status).toBe(200);
    expect({ ...response.body, updatedAt: original.updatedAt }).toEqual(original);
  });

  test('keeping its own external ids is no conflict; taking another plant’s is 409', async () => {
    const plant = await createPlant(server, tokens.admin, { externalIds: ['OWN-1'] });
    const same = await server.request('PUT', `/plants/${plant.plantUuid}`, {
      token: tokens.admin,
      body: { externalIds: ['OWN-1', 'OWN-2'] },
    });
    expect(same.status).toBe(200);
    expect(same.body.externalIds).toEqual(['OWN-1', 'OWN-2']);
    const taken = expectErrorBody(
      await server.request('PUT', `/plants/${plant.plantUuid}`, {
        token: tokens.admin,
        body: { externalIds: ['DEMO-HOME-001'], name: 'Should not stick' },
      }),
      409,
    );
    expect(taken.message).toContain('DEMO-HOME-001');
    // All or nothing: the name did not change either.
    const after = await server.request('GET', `/plants/${plant.plantUuid}`, {
      token: tokens.admin,
    });
    expect(after.body.name).toBe(plant.name);
    expect(after.body.externalIds).toEqual(['OWN-1', 'OWN-2']);
  });

  test.each([
    {
      name: 'latitude 91',
      body: { location: { latitude: 91, longitude: 0, timezone: 'UTC' } },
      field: 'location.latitude',
    },
    {
      name: 'a partial location',
      body: { location: { latitude: 10 } },
      field: 'location.longitude',
    },
    {
      name: 'a bad time zone',
      body: { location: { latitude: 1, longitude: 1, timezone: 'Europe/Atlantis' } },
      field: 'location.timezone',
    },
    { name: 'an empty name', body: { name: '' }, field: 'name' },
    { name: 'name: null', body: { name: null }, field: 'name' },
    { name: 'duplicate external ids', body: { externalIds: ['X', 'X'] }, field: 'externalIds' },
  ])('$name → 400 naming $field', async ({ body, field }) => {
    const error = expectErrorBody(
      await server.request('PUT', `/plants/${demoPlant}`, { token: tokens.admin, body }),
      400,
    );
    expect(error.message).toContain(`'${field}'`);
  });

  test('no body → 400', async () => {
    const error = expectErrorBody(
      await server.request('PUT', `/plants/${demoPlant}`, { token: tokens.admin }),
      400,
    );
    expect(error.message).toBe('Request body is required');
  });
});

describe('another organization’s plant is invisible (404)', () => {
  test.each([
    ['GET', undefined],
    ['PUT', { name: 'Hijacked' }],
    ['DELETE', undefined],
  ] as const)('outsider %s Demo Home → 404', async (method, body) => {
    const error = expectErrorBody(
      await server.request(method, `/plants/${demoPlant}`, { token: tokens.outsider, body }),
      404,
      `/plants/${demoPlant}`,
    );
    expect(error.message).toContain(demoPlant);
  });

  test('Demo Home is untouched by those attempts', async () => {
    const response = await server.request('GET', `/plants/${demoPlant}`, { token: tokens.admin });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('Demo Home');
  });

  test('and the reverse: Demo Energy cannot see Other Co’s plant', async () => {
    const foreign = await createPlant(server, tokens.outsider);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await server.request(method, `/plants/${foreign.plantUuid}`, {
        token: tokens.admin,
        body: method === 'PUT' ? {} : undefined,
      });
      expectErrorBody(response, 404);
    }
  });
});

describe('permissions', () => {
  test.each([
    ['PUT', 'Permission PLANTS UPDATE required'],
    ['DELETE', 'Permission PLANTS DELETE required'],
  ] as const)('manager %s → 403 %s', async (method, message) => {
    const error = expectErrorBody(
      await server.request(method, `/plants/${demoPlant}`, {
        token: tokens.manager,
        body: method === 'PUT' ? { name: 'x' } : undefined,
      }),
      403,
    );
    expect(error.message).toBe(message);
  });

  test('the permission is checked before the body is validated', async () => {
    const error = expectErrorBody(
      await server.request('POST', '/plants', { token: tokens.manager, body: { name: '' } }),
      403,
    );
    expect(error.message).toBe('Permission PLANTS CREATE required');
  });
});

describe('DELETE /plants/{plantUuid}', () => {
  test('204 without body, then 404 for GET, PUT and DELETE', async () => {
    const plant = await createPlant(server, tokens.installer, { externalIds: ['GONE-1'] });
    const response = await server.request('DELETE', `/plants/${plant.plantUuid}`, {
      token: tokens.installer,
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expectErrorBody(
        await server.request(method, `/plants/${plant.plantUuid}`, {
          token: tokens.admin,
          body: method === 'PUT' ? {} : undefined,
        }),
        404,
      );
    }
    // Its external id is free again.
    await createPlant(server, tokens.admin, { externalIds: ['GONE-1'] });
  });

  /** Rows left in the database that belong to a plant. */
  async function remnants(plantUuid: string, sensorUuids: string[]) {
    const db = server.server.context.db;
    const count = async (query: { execute(): Promise<unknown[]> }) =>
      (await query.execute()).length;
    return {
      plants: await count(
        db.selectFrom('plants').select('plant_uuid').where('plant_uuid', '=', plantUuid),
      ),
      externalIds: await count(
        db
          .selectFrom('plant_external_ids')
          .select('plant_uuid')
          .where('plant_uuid', '=', plantUuid),
      ),
      devices: await count(
        db.selectFrom('devices').select('device_uuid').where('plant_uuid', '=', plantUuid),
      ),
      sensors: await count(
        db.selectFrom('sensors').select('sensor_uuid').where('plant_uuid', '=', plantUuid),
      ),
      sensorDataTypes:
        sensorUuids.length === 0
          ? 0
          : await count(
              db
                .selectFrom('sensor_data_types')
                .select('sensor_uuid')
                .where('sensor_uuid', 'in', sensorUuids),
            ),
      vendorConfigs: await count(
        db.selectFrom('plant_vendors').select('plant_uuid').where('plant_uuid', '=', plantUuid),
      ),
    };
  }

  const nothingLeft = {
    plants: 0,
    externalIds: 0,
    devices: 0,
    sensors: 0,
    sensorDataTypes: 0,
    vendorConfigs: 0,
  };

  test('cascades to devices, sensors and vendor configurations made through the API', async () => {
    const plant = await createPlant(server, tokens.admin, { externalIds: ['CASCADE-1'] });
    const device = await createDevice(server, tokens.admin, plant.plantUuid, {
      deviceTypeUuid: reference.deviceTypes.HEAT_PUMP,
      serialNumber: 'HP-1',
    });
    const sensor = await createSensor(server, tokens.admin, plant.plantUuid, {
      sensorTypeUuid: reference.sensorTypes.POWER_METER,
      deviceUuid: device.deviceUuid,
    });
    await configurePlantVendor(server, tokens.admin, plant.plantUuid, reference.vendors.SIMULATOR!);
    const before = await remnants(plant.plantUuid, [sensor.sensorUuid]);
    expect(before).toMatchObject({ plants: 1, devices: 1, sensors: 1, vendorConfigs: 1 });
    expect(before.sensorDataTypes).toBeGreaterThan(0);

    expectStatus(
      await server.request('DELETE', `/plants/${plant.plantUuid}`, { token: tokens.admin }),
      204,
      'delete plant',
    );
    expect(await remnants(plant.plantUuid, [sensor.sensorUuid])).toEqual(nothingLeft);
    expectErrorBody(
      await server.request('GET', `/plants/${plant.plantUuid}/devices/${device.deviceUuid}`, {
        token: tokens.admin,
      }),
      404,
    );
  });

  // Last: it removes the seeded Demo Home the tests above use.
  test('cascades for the seeded Demo Home (devices, sensors, vendor configuration)', async () => {
    const db = server.server.context.db;
    const sensorUuids = (
      await db
        .selectFrom('sensors')
        .select('sensor_uuid')
        .where('plant_uuid', '=', demoPlant)
        .execute()
    ).map((row) => row.sensor_uuid);
    const before = await remnants(demoPlant, sensorUuids);
    expect(before.devices).toBeGreaterThanOrEqual(5);
    expect(before.sensors).toBeGreaterThanOrEqual(9);
    expect(before.vendorConfigs).toBeGreaterThanOrEqual(1);
    const response = await server.request('DELETE', `/plants/${demoPlant}`, {
      token: tokens.admin,
    });
    expect(response.status).toBe(204);
    expect(await remnants(demoPlant, sensorUuids)).toEqual(nothingLeft);
    // Shared catalogs stay.
    expect((await db.selectFrom('device_types').select('code').execute()).length).toBeGreaterThan(
      0,
    );
  });
});
