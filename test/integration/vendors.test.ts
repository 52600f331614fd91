import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import {
  expectErrorBody,
  MISSING_UUID,
  newPlantBody,
  TestServer,
  type ApiResponse,
  type DemoRole,
  type RequestOptions,
} from '../support/testServer.ts';

let server: TestServer;
const tokens = {} as Record<DemoRole, string>;
let vendors: Record<string, string>;
let demoPlant: string;

const CODES = ['FRONIUS', 'SHELLY', 'SIMULATOR', 'SMA', 'SOLAREDGE', 'TESLA_ENERGY'];

/** Secret setting values sent in this file: none may ever come back in a response. */
const SECRETS = {
  sma: 'sma-installer-Secret-7781',
  solarEdge: 'solaredge-api-KEY-123',
  shelly: 'shelly-device-PW-99',
  tesla: 'tesla-refresh-TOKEN-xyz',
};
const responseTexts: string[] = [];

/** Every request of this file goes through here, so every answer is checked for secrets. */
async function call(method: string, path: string, options: RequestOptions = {}) {
  const response: ApiResponse = await server.request(method, path, options);
  responseTexts.push(
    typeof response.body === 'string' ? response.body : JSON.stringify(response.body),
  );
  return response;
}

const plantVendors = (plantUuid: string) => `/plants/${plantUuid}/vendors`;
const plantVendor = (plantUuid: string, vendorUuid: string) =>
  `/plants/${plantUuid}/vendors/${vendorUuid}`;

async function listVendors(query: Record<string, string | number | readonly string[]> = {}) {
  const response = await call('GET', '/vendors', { token: tokens.manager, query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listVendors.response.parse(response.body);
}

async function listPlantVendors(
  plantUuid: string,
  query: Record<string, string | number> = {},
  role: DemoRole = 'manager',
) {
  const response = await call('GET', plantVendors(plantUuid), { token: tokens[role], query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listPlantVendors.response.parse(response.body);
}

async function configure(
  plantUuid: string,
  code: string,
  settings: Record<string, unknown>,
  role: DemoRole = 'admin',
) {
  return call('PUT', plantVendor(plantUuid, vendors[code]!), {
    token: tokens[role],
    body: { settings },
  });
}

async function configured(plantUuid: string, code: string, settings: Record<string, unknown>) {
  const response = await configure(plantUuid, code, settings);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.configurePlantVendor.response.parse(response.body);
}

async function entryOf(plantUuid: string, code: string) {
  const page = await listPlantVendors(plantUuid, { search: code });
  const entry = page.content.find((candidate) => candidate.code === code);
  expect(entry).toBeDefined();
  return entry!;
}

const codes = (page: { content: { code: string }[] }) => page.content.map((entry) => entry.code);

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  vendors = await server.catalog('/vendors', 'vendorUuid');
  demoPlant = await server.demoPlantUuid();
});

afterAll(async () => {
  await server?.close();
});

describe('GET /vendors', () => {
  it('lists the vendor catalog by code with each config schema', async () => {
    const page = await listVendors();
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 6, totalPages: 1 });
    expect(codes(page)).toEqual(CODES);
    expect(page.content.find((vendor) => vendor.code === 'SMA')).toEqual({
      vendorUuid: vendors.SMA,
      code: 'SMA',
      name: 'SMA Modbus',
      kind: 'DEVICE_BRAND',
      configSchema: {
        fields: [
          { name: 'unitId', label: 'Modbus unit ID', type: 'number', required: true },
          {
            name: 'installerPassword',
            label: 'Installer password',
            type: 'secret',
            required: false,
          },
        ],
      },
    });
    expect(page.content.find((vendor) => vendor.code === 'SIMULATOR')).toMatchObject({
      kind: 'SIMULATOR',
      configSchema: { fields: [] },
    });
  });

  it('needs only a valid token', async () => {
    for (const role of ['admin', 'installer', 'outsider'] as const) {
      const response = await call('GET', '/vendors', { token: tokens[role] });
      expect(response.status).toBe(200);
      expect(response.body.page.totalElements).toBe(6);
    }
    expectErrorBody(await call('GET', '/vendors'), 401);
    expectErrorBody(await call('GET', '/vendors', { token: 'expired.or.forged' }), 401);
  });

  it('searches name and code, sorts and pages', async () => {
    // "Fronius Solar API" by name, SOLAREDGE by code and name.
    expect(codes(await listVendors({ search: 'SOL' }))).toEqual(['FRONIUS', 'SOLAREDGE']);
    expect(codes(await listVendors({ search: 'modbus' }))).toEqual(['SMA']);
    expect(codes(await listVendors({ search: 'tesla_' }))).toEqual(['TESLA_ENERGY']);
    expect(codes(await listVendors({ sort: ['kind,desc', 'code'] }))).toEqual([
      'SIMULATOR',
      'SOLAREDGE',
      'TESLA_ENERGY',
      'FRONIUS',
      'SHELLY',
      'SMA',
    ]);
    expect(codes(await listVendors({ sort: 'code,desc' }))).toEqual([...CODES].reverse());
    const second = await listVendors({ size: 4, page: 1 });
    expect(second.page).toEqual({ number: 1, size: 4, totalElements: 6, totalPages: 2 });
    expect(codes(second)).toEqual(['SOLAREDGE', 'TESLA_ENERGY']);
  });

  it('answers 400 for a bad query', async () => {
    for (const query of [{ sort: 'configSchema' }, { size: '0' }, { page: '-2' }]) {
      const response = await call('GET', '/vendors', { token: tokens.admin, query });
      expect(expectErrorBody(response, 400).message).toContain(Object.keys(query)[0]);
    }
  });
});

describe('GET /plants/{plantUuid}/vendors', () => {
  it('without mode lists every vendor with configured true or false', async () => {
    const page = await listPlantVendors(demoPlant);
    expect(page.page.totalElements).toBe(6);
    expect(codes(page)).toEqual(CODES);
    const simulator = page.content.find((vendor) => vendor.code === 'SIMULATOR')!;
    expect(simulator).toMatchObject({
      vendorUuid: vendors.SIMULATOR,
      configured: true,
      settings: {},
      secretFieldsSet: [],
      configuredAt: expect.stringMatching(/Z$/),
    });
    for (const vendor of page.content.filter((entry) => entry.code !== 'SIMULATOR')) {
      expect(vendor).toMatchObject({
        configured: false,
        settings: null,
        secretFieldsSet: [],
        configuredAt: null,
      });
    }
  });

  it('mode=config lists the configured vendors, mode=not_config the others', async () => {
    const config = await listPlantVendors(demoPlant, { mode: 'config' });
    expect(codes(config)).toEqual(['SIMULATOR']);
    expect(config.page).toEqual({ number: 0, size: 20, totalElements: 1, totalPages: 1 });
    const notConfig = await listPlantVendors(demoPlant, { mode: 'not_config' });
    expect(codes(notConfig)).toEqual(['FRONIUS', 'SHELLY', 'SMA', 'SOLAREDGE', 'TESLA_ENERGY']);
    expect(notConfig.content.every((vendor) => !vendor.configured)).toBe(true);
    const searched = await listPlantVendors(demoPlant, { mode: 'not_config', search: 'sol' });
    expect(codes(searched)).toEqual(['FRONIUS', 'SOLAREDGE']);
    const paged = await listPlantVendors(demoPlant, {
      mode: 'not_config',
      sort: 'code,desc',
      size: 2,
      page: 2,
    });
    expect(paged.page).toEqual({ number: 2, size: 2, totalElements: 5, totalPages: 3 });
    expect(codes(paged)).toEqual(['FRONIUS']);
  });

  it('sorts by configured: configured ones first when descending', async () => {
    const all = await listPlantVendors(demoPlant, { sort: 'configured,desc' });
    expect(codes(all)[0]).toBe('SIMULATOR');
    expect(all.content.map((vendor) => vendor.configured)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    const ascending = await listPlantVendors(demoPlant, { sort: 'configured' });
    expect(codes(ascending).at(-1)).toBe('SIMULATOR');
  });

  it('a new plant has no vendor configured', async () => {
    const plant = await call('POST', '/plants', { token: tokens.installer, body: newPlantBody() });
    const plantUuid = plant.body.plantUuid as string;
    expect((await listPlantVendors(plantUuid, { mode: 'config' })).page.totalElements).toBe(0);
    expect((await listPlantVendors(plantUuid, { mode: 'not_config' })).page.totalElements).toBe(6);
  });

  it('answers 400 for an unknown mode or a malformed plant uuid', async () => {
    const mode = await call('GET', plantVendors(demoPlant), {
      token: tokens.admin,
      query: { mode: 'configured' },
    });
    expect(expectErrorBody(mode, 400, plantVendors(demoPlant)).message).toContain(
      'mode must be one of config, not_config',
    );
    const sort = await call('GET', plantVendors(demoPlant), {
      token: tokens.admin,
      query: { sort: 'settings' },
    });
    expect(expectErrorBody(sort, 400).message).toContain('settings');
    expectErrorBody(await call('GET', plantVendors('demo-home'), { token: tokens.admin }), 400);
  });

  it('answers 404 for a plant of another organization or an unknown one, 401 without token', async () => {
    const foreign = await call('GET', plantVendors(demoPlant), { token: tokens.outsider });
    expect(expectErrorBody(foreign, 404).message).toContain(demoPlant);
    expectErrorBody(await call('GET', plantVendors(MISSING_UUID), { token: tokens.admin }), 404);
    expectErrorBody(await call('GET', plantVendors(demoPlant)), 401);
  });
});

describe('PUT /plants/{plantUuid}/vendors/{vendorUuid}', () => {
  it('configures a vendor: settings answered without secret values', async () => {
    const entry = await configured(demoPlant, 'SMA', {
      unitId: 3,
      installerPassword: SECRETS.sma,
    });
    expect(entry).toEqual({
      vendorUuid: vendors.SMA,
      code: 'SMA',
      name: 'SMA Modbus',
      kind: 'DEVICE_BRAND',
      configSchema: expect.any(Object),
      configured: true,
      settings: { unitId: 3 },
      secretFieldsSet: ['installerPassword'],
      configuredAt: expect.stringMatching(/Z$/),
    });
    expect(await entryOf(demoPlant, 'SMA')).toEqual(entry);
    const config = await listPlantVendors(demoPlant, { mode: 'config' });
    expect(codes(config)).toEqual(['SIMULATOR', 'SMA']);
  });

  it('keeps a stored secret left out, and removes it when given null', async () => {
    const first = await entryOf(demoPlant, 'SMA');
    const kept = await configured(demoPlant, 'SMA', { unitId: 4 });
    expect(kept).toMatchObject({
      settings: { unitId: 4 },
      secretFieldsSet: ['installerPassword'],
      configuredAt: first.configuredAt,
    });
    const removed = await configured(demoPlant, 'SMA', { unitId: 4, installerPassword: null });
    expect(removed).toMatchObject({ settings: { unitId: 4 }, secretFieldsSet: [] });
    const restored = await configured(demoPlant, 'SMA', {
      unitId: 5,
      installerPassword: SECRETS.sma,
    });
    expect(restored.secretFieldsSet).toEqual(['installerPassword']);
  });

  it('a required secret already stored is satisfied; null on it is a 422', async () => {
    const missing = await configure(demoPlant, 'SOLAREDGE', { siteId: 'SITE-1' });
    expect(expectErrorBody(missing, 422).message).toBe(
      "Setting 'apiKey' of vendor SOLAREDGE is required",
    );
    expect((await entryOf(demoPlant, 'SOLAREDGE')).configured).toBe(false);

    await configured(demoPlant, 'SOLAREDGE', { siteId: 'SITE-1', apiKey: SECRETS.solarEdge });
    const renamed = await configured(demoPlant, 'SOLAREDGE', { siteId: 'SITE-2' });
    expect(renamed).toMatchObject({ settings: { siteId: 'SITE-2' }, secretFieldsSet: ['apiKey'] });

    const removal = await configure(demoPlant, 'SOLAREDGE', { siteId: 'SITE-3', apiKey: null });
    expect(expectErrorBody(removal, 422).message).toBe(
      "Setting 'apiKey' of vendor SOLAREDGE is required and cannot be removed",
    );
    const noSite = await configure(demoPlant, 'SOLAREDGE', {});
    expect(expectErrorBody(noSite, 422).message).toBe(
      "Setting 'siteId' of vendor SOLAREDGE is required",
    );
    // Rejected requests changed nothing.
    expect(await entryOf(demoPlant, 'SOLAREDGE')).toMatchObject({
      settings: { siteId: 'SITE-2' },
      secretFieldsSet: ['apiKey'],
    });
  });

  it('answers 422 naming a setting of the wrong type', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['SMA', { unitId: '3' }, "Setting 'unitId' of vendor SMA must be a number"],
      ['SMA', { unitId: true }, "Setting 'unitId' of vendor SMA must be a number"],
      [
        'SMA',
        { unitId: 3, installerPassword: 1234 },
        "Setting 'installerPassword' of vendor SMA must be a non-empty string (secret)",
      ],
      [
        'SOLAREDGE',
        { siteId: 'S', apiKey: '' },
        "Setting 'apiKey' of vendor SOLAREDGE must be a non-empty string (secret)",
      ],
      [
        'SOLAREDGE',
        { siteId: 42, apiKey: 'k' },
        "Setting 'siteId' of vendor SOLAREDGE must be a non-empty string",
      ],
      [
        'SHELLY',
        { authEnabled: 'yes' },
        "Setting 'authEnabled' of vendor SHELLY must be true or false",
      ],
      [
        'TESLA_ENERGY',
        { accountEmail: 'a@b.test', refreshToken: SECRETS.tesla, energySiteId: 'site' },
        "Setting 'energySiteId' of vendor TESLA_ENERGY must be a number",
      ],
    ];
    for (const [code, settings, message] of cases) {
      const response = await configure(demoPlant, code, settings);
      expect(expectErrorBody(response, 422).message, JSON.stringify(settings)).toBe(message);
    }
    expect((await entryOf(demoPlant, 'TESLA_ENERGY')).configured).toBe(false);
  });

  it('answers 422 naming unknown settings', async () => {
    const unknown = await configure(demoPlant, 'SMA', { unitId: 3, color: 'red', port: 502 });
    expect(expectErrorBody(unknown, 422).message).toBe(
      "Unknown settings 'color', 'port' for vendor SMA; its settings are unitId, installerPassword",
    );
    const simulator = await configure(demoPlant, 'SIMULATOR', { speed: 2 });
    expect(expectErrorBody(simulator, 422).message).toBe(
      "Unknown setting 'speed' for vendor SIMULATOR; it takes no settings",
    );
  });

  it('configures vendors with optional settings only, and the simulator with none', async () => {
    const shelly = await configured(demoPlant, 'SHELLY', {
      authEnabled: true,
      password: SECRETS.shelly,
    });
    expect(shelly).toMatchObject({
      settings: { authEnabled: true },
      secretFieldsSet: ['password'],
    });
    const fronius = await configured(demoPlant, 'FRONIUS', {});
    expect(fronius).toMatchObject({ configured: true, settings: {}, secretFieldsSet: [] });
    const withDevice = await configured(demoPlant, 'FRONIUS', { deviceId: 1.5 });
    expect(withDevice.settings).toEqual({ deviceId: 1.5 });
    // A non-secret field left out is no longer set: the body states the configuration.
    expect((await configured(demoPlant, 'FRONIUS', {})).settings).toEqual({});

    const simulator = await call('PUT', plantVendor(demoPlant, vendors.SIMULATOR!), {
      token: tokens.installer,
      body: {},
    });
    expect(simulator.status).toBe(200);
    expect(routes.configurePlantVendor.response.parse(simulator.body)).toMatchObject({
      code: 'SIMULATOR',
      configured: true,
      settings: {},
    });
  });

  it('keeps configurations per plant', async () => {
    const plant = await call('POST', '/plants', { token: tokens.installer, body: newPlantBody() });
    const plantUuid = plant.body.plantUuid as string;
    await configured(plantUuid, 'TESLA_ENERGY', {
      accountEmail: 'owner@example.test',
      refreshToken: SECRETS.tesla,
      energySiteId: 1234,
    });
    expect(codes(await listPlantVendors(plantUuid, { mode: 'config' }))).toEqual(['TESLA_ENERGY']);
    expect((await entryOf(demoPlant, 'TESLA_ENERGY')).configured).toBe(false);
    const entry = await entryOf(plantUuid, 'TESLA_ENERGY');
    expect(entry).toMatchObject({
      settings: { accountEmail: 'owner@example.test', energySiteId: 1234 },
      secretFieldsSet: ['refreshToken'],
    });
  });

  it('answers 404 for an unknown vendor or a foreign plant', async () => {
    const unknown = await call('PUT', plantVendor(demoPlant, MISSING_UUID), {
      token: tokens.admin,
      body: { settings: {} },
    });
    expect(expectErrorBody(unknown, 404).message).toBe(`Vendor ${MISSING_UUID} not found`);
    const foreign = await configure(demoPlant, 'FRONIUS', {}, 'outsider');
    expectErrorBody(foreign, 404);
    expectErrorBody(
      await call('PUT', plantVendor(MISSING_UUID, vendors.FRONIUS!), {
        token: tokens.admin,
        body: { settings: {} },
      }),
      404,
    );
  });

  it('answers 400 for a malformed uuid or body', async () => {
    expectErrorBody(
      await call('PUT', plantVendor(demoPlant, 'SMA'), { token: tokens.admin, body: {} }),
      400,
    );
    const cases: [unknown, string][] = [
      [{ settings: 'unitId=3' }, 'settings'],
      [{ settings: [3] }, 'settings'],
      [{ settings: { unitId: { value: 3 } } }, 'settings.unitId'],
      [{ settings: { unitId: [3] } }, 'settings.unitId'],
    ];
    for (const [body, field] of cases) {
      const response = await call('PUT', plantVendor(demoPlant, vendors.SMA!), {
        token: tokens.admin,
        body,
      });
      expect(expectErrorBody(response, 400).message, JSON.stringify(body)).toContain(field);
    }
    const notJson = await call('PUT', plantVendor(demoPlant, vendors.SMA!), {
      token: tokens.admin,
      rawBody: '{settings:',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorBody(notJson, 400);
  });

  it('answers 403 without PLANTS UPDATE and 401 without a token', async () => {
    const forbidden = await configure(demoPlant, 'FRONIUS', {}, 'manager');
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission PLANTS UPDATE required');
    expectErrorBody(
      await call('PUT', plantVendor(demoPlant, vendors.FRONIUS!), { body: { settings: {} } }),
      401,
    );
  });
});

describe('DELETE /plants/{plantUuid}/vendors/{vendorUuid}', () => {
  it('unconfigures a vendor; its secrets are gone with it', async () => {
    expect((await entryOf(demoPlant, 'SMA')).secretFieldsSet).toEqual(['installerPassword']);
    const response = await call('DELETE', plantVendor(demoPlant, vendors.SMA!), {
      token: tokens.installer,
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(await entryOf(demoPlant, 'SMA')).toMatchObject({
      configured: false,
      settings: null,
      secretFieldsSet: [],
      configuredAt: null,
    });
    const again = await call('DELETE', plantVendor(demoPlant, vendors.SMA!), {
      token: tokens.admin,
    });
    expect(expectErrorBody(again, 404).message).toBe(
      `Vendor SMA is not configured for plant ${demoPlant}`,
    );
    const reconfigured = await configured(demoPlant, 'SMA', { unitId: 1 });
    expect(reconfigured.secretFieldsSet).toEqual([]);
  });

  it('answers 404 for an unknown vendor or a foreign plant, 400 for a malformed uuid', async () => {
    const unknown = await call('DELETE', plantVendor(demoPlant, MISSING_UUID), {
      token: tokens.admin,
    });
    expect(expectErrorBody(unknown, 404).message).toBe(`Vendor ${MISSING_UUID} not found`);
    expectErrorBody(
      await call('DELETE', plantVendor(demoPlant, vendors.SIMULATOR!), {
        token: tokens.outsider,
      }),
      404,
    );
    expectErrorBody(
      await call('DELETE', plantVendor(demoPlant, 'x'), { token: tokens.admin }),
      400,
    );
    expect((await entryOf(demoPlant, 'SIMULATOR')).configured).toBe(true);
  });

  it('answers 403 without PLANTS UPDATE and 401 without a token', async () => {
    const forbidden = await call('DELETE', plantVendor(demoPlant, vendors.SIMULATOR!), {
      token: tokens.manager,
    });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission PLANTS UPDATE required');
    expectErrorBody(await call('DELETE', plantVendor(demoPlant, vendors.SIMULATOR!)), 401);
  });
});

describe('secret settings', () => {
  it('never appear in any response of this file', () => {
    expect(responseTexts.length).toBeGreaterThan(50);
    for (const secret of Object.values(SECRETS)) {
      for (const text of responseTexts) expect(text).not.toContain(secret);
    }
  });

  it('are stored sealed, so that a secret left out can be kept, and read by nobody else', async () => {
    const stored = await server.server.context.db
      .selectFrom('plant_vendors')
      .select('settings')
      .where('plant_uuid', '=', demoPlant)
      .where('vendor_uuid', '=', vendors.SOLAREDGE!)
      .executeTakeFirstOrThrow();
    const settings = JSON.parse(stored.settings);
    expect(settings.siteId).toBe('SITE-2');
    expect(settings.apiKey).toMatch(/^enc:v1:/);
    expect(stored.settings).not.toContain(SECRETS.solarEdge);
    const place = { plantUuid: demoPlant, vendorUuid: vendors.SOLAREDGE!, field: 'apiKey' };
    expect(server.server.context.settingsCipher.open(settings.apiKey, place)).toBe(
      SECRETS.solarEdge,
    );
  });
});
