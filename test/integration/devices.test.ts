import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import {
  expectErrorBody,
  MISSING_UUID,
  newPlantBody,
  TestServer,
  type DemoRole,
} from '../support/testServer.ts';

let server: TestServer;
const tokens = {} as Record<DemoRole, string>;
let demoPlant: string;
/** A second plant of Demo Energy: its devices are invisible through the demo plant. */
let siblingPlant: string;
let outsiderPlant: string;
let deviceTypes: Record<string, string>;
let vendors: Record<string, string>;
let loadSignatures: Record<string, string>;
let sensorTypes: Record<string, string>;

const devicesPath = (plantUuid: string) => `/plants/${plantUuid}/devices`;
const devicePath = (plantUuid: string, deviceUuid: string) =>
  `/plants/${plantUuid}/devices/${deviceUuid}`;

async function createPlant(role: DemoRole, name?: string): Promise<string> {
  const response = await server.request('POST', '/plants', {
    token: tokens[role],
    body: newPlantBody(name ? { name } : {}),
  });
  expect(response.status).toBe(201);
  return response.body.plantUuid as string;
}

async function createDevice(plantUuid: string, body: Record<string, unknown>) {
  const response = await server.request('POST', devicesPath(plantUuid), {
    token: tokens.installer,
    body,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return routes.createDevice.response.parse(response.body);
}

async function demoDevices(): Promise<Record<string, string>> {
  const response = await server.request('GET', devicesPath(demoPlant), {
    token: tokens.admin,
    query: { size: 200 },
  });
  return Object.fromEntries(
    (response.body.content as { name: string; deviceUuid: string }[]).map((device) => [
      device.name,
      device.deviceUuid,
    ]),
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await TestServer.start();
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  demoPlant = await server.demoPlantUuid();
  siblingPlant = await createPlant('installer');
  outsiderPlant = await createPlant('outsider');
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
  vendors = await server.catalog('/vendors', 'vendorUuid');
  loadSignatures = await server.catalog('/load-signatures', 'loadSignatureUuid');
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
});

afterAll(async () => {
  await server?.close();
});

describe('POST /plants/{plantUuid}/devices', () => {
  it('creates a device with every field and answers it as stored', async () => {
    const body = {
      name: 'Basement boiler',
      deviceTypeUuid: deviceTypes.WATER_HEATER,
      vendorUuid: vendors.FRONIUS,
      model: 'Ohm Pilot',
      serialNumber: 'WH-0001',
      ratedPowerW: 3000,
      loadSignatureUuid: loadSignatures.WATER_HEATER_MORNING,
      metadata: { room: 'basement', litres: 200 },
    };
    const response = await server.request('POST', devicesPath(demoPlant), {
      token: tokens.installer,
      body,
    });
    expect(response.status).toBe(201);
    const device = routes.createDevice.response.parse(response.body);
    expect(device).toEqual({
      ...body,
      deviceUuid: expect.any(String),
      plantUuid: demoPlant,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: device.createdAt,
    });
    expect(device.relationships).toBeUndefined();

    const read = await server.request('GET', devicePath(demoPlant, device.deviceUuid), {
      token: tokens.manager,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(device);
  });

  it('defaults the name to the device type name and the optional fields to null', async () => {
    const device = await createDevice(siblingPlant, { deviceTypeUuid: deviceTypes.HEAT_PUMP });
    expect(device).toMatchObject({
      name: 'Heat pump',
      plantUuid: siblingPlant,
      deviceTypeUuid: deviceTypes.HEAT_PUMP,
      vendorUuid: null,
      model: null,
      serialNumber: null,
      ratedPowerW: null,
      loadSignatureUuid: null,
      metadata: {},
    });
    const inverter = await createDevice(siblingPlant, { deviceTypeUuid: deviceTypes.INVERTER });
    expect(inverter.name).toBe('PV inverter');
  });

  it('accepts upper-case uuids and answers them in lower case', async () => {
    const device = await createDevice(siblingPlant, {
      deviceTypeUuid: deviceTypes.METER!.toUpperCase(),
    });
    expect(device.deviceTypeUuid).toBe(deviceTypes.METER);
  });

  it('answers 409 for a serial number already used in the plant, naming it', async () => {
    const response = await server.request('POST', devicesPath(demoPlant), {
      token: tokens.installer,
      body: { deviceTypeUuid: deviceTypes.INVERTER, serialNumber: 'INV-24-000815' },
    });
    expect(expectErrorBody(response, 409, devicesPath(demoPlant)).message).toContain(
      "serialNumber 'INV-24-000815'",
    );
  });

  it('accepts a serial number used in another plant', async () => {
    const device = await createDevice(siblingPlant, {
      deviceTypeUuid: deviceTypes.INVERTER,
      serialNumber: 'INV-24-000815',
    });
    expect(device.serialNumber).toBe('INV-24-000815');
  });

  it('allows many devices without a serial number', async () => {
    for (let i = 0; i < 2; i++) {
      const device = await createDevice(siblingPlant, {
        deviceTypeUuid: deviceTypes.EV_CHARGER,
        serialNumber: null,
      });
      expect(device.serialNumber).toBeNull();
    }
  });

  it('answers one 201 and 409s when the same serial number is sent concurrently', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.request('POST', devicesPath(siblingPlant), {
          token: tokens.installer,
          body: { deviceTypeUuid: deviceTypes.BATTERY, serialNumber: 'RACE-1' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
  });

  it.each([
    ['deviceTypeUuid', { deviceTypeUuid: MISSING_UUID }],
    ['vendorUuid', { vendorUuid: MISSING_UUID }],
    ['loadSignatureUuid', { loadSignatureUuid: MISSING_UUID }],
  ])('answers 422 for an unknown %s', async (field, overrides) => {
    const response = await server.request('POST', devicesPath(demoPlant), {
      token: tokens.installer,
      body: { deviceTypeUuid: deviceTypes.HEAT_PUMP, ...overrides },
    });
    const error = expectErrorBody(response, 422, devicesPath(demoPlant));
    expect(error.message).toContain(field);
    expect(error.message).toContain(MISSING_UUID);
  });

  it.each([
    ['deviceTypeUuid', () => ({ name: 'No type' })],
    ['deviceTypeUuid', () => ({ deviceTypeUuid: 'not-a-uuid' })],
    ['ratedPowerW', () => ({ deviceTypeUuid: deviceTypes.HEAT_PUMP, ratedPowerW: -1 })],
    ['name', () => ({ deviceTypeUuid: deviceTypes.HEAT_PUMP, name: '   ' })],
    ['serialNumber', () => ({ deviceTypeUuid: deviceTypes.HEAT_PUMP, serialNumber: '' })],
    ['metadata', () => ({ deviceTypeUuid: deviceTypes.HEAT_PUMP, metadata: [1, 2] })],
  ])('answers 400 naming %s for a bad body', async (field, body) => {
    const response = await server.request('POST', devicesPath(demoPlant), {
      token: tokens.installer,
      body: body(),
    });
    expect(expectErrorBody(response, 400, devicesPath(demoPlant)).message).toContain(field);
  });

  it('answers 400 for a body that is not JSON and for a malformed plant uuid', async () => {
    const notJson = await server.request('POST', devicesPath(demoPlant), {
      token: tokens.installer,
      rawBody: '{"deviceTypeUuid":',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorBody(notJson, 400);
    const badPlant = await server.request('POST', devicesPath('nope'), {
      token: tokens.installer,
      body: { deviceTypeUuid: deviceTypes.HEAT_PUMP },
    });
    expect(expectErrorBody(badPlant, 400).message).toContain('plantUuid');
  });

  it('answers 401 without a token or with a garbage one', async () => {
    const body = { deviceTypeUuid: deviceTypes.HEAT_PUMP };
    expectErrorBody(await server.request('POST', devicesPath(demoPlant), { body }), 401);
    expectErrorBody(
      await server.request('POST', devicesPath(demoPlant), { body, token: 'garbage' }),
      401,
    );
  });

  it('answers 403 to a manager', async () => {
    const response = await server.request('POST', devicesPath(demoPlant), {
      token: tokens.manager,
      body: { deviceTypeUuid: deviceTypes.HEAT_PUMP },
    });
    expect(expectErrorBody(response, 403).message).toBe('Permission DEVICES CREATE required');
  });

  it('answers 404 for an unknown plant and for a plant of another organization', async () => {
    const body = { deviceTypeUuid: deviceTypes.HEAT_PUMP };
    expectErrorBody(
      await server.request('POST', devicesPath(MISSING_UUID), { token: tokens.installer, body }),
      404,
    );
    expectErrorBody(
      await server.request('POST', devicesPath(demoPlant), { token: tokens.outsider, body }),
      404,
    );
    expectErrorBody(
      await server.request('POST', devicesPath(outsiderPlant), { token: tokens.installer, body }),
      404,
    );
  });
});

describe('GET /plants/{plantUuid}/devices', () => {
  let listPlant: string;

  beforeAll(async () => {
    listPlant = await createPlant('installer');
    await createDevice(listPlant, {
      name: 'Alpha inverter',
      deviceTypeUuid: deviceTypes.INVERTER,
      model: 'Symo 10',
      serialNumber: 'SN-A-100',
      ratedPowerW: 10_000,
    });
    await createDevice(listPlant, {
      name: 'Bravo battery',
      deviceTypeUuid: deviceTypes.BATTERY,
      model: 'HVS 5.1',
      serialNumber: 'SN-B-200',
      ratedPowerW: 5_000,
    });
    await createDevice(listPlant, {
      name: 'Charlie heat pump',
      deviceTypeUuid: deviceTypes.HEAT_PUMP,
      model: 'Vitocal 100%',
      serialNumber: 'XY-C-300',
      ratedPowerW: 2_500,
    });
    await createDevice(listPlant, {
      name: 'Delta wallbox',
      deviceTypeUuid: deviceTypes.EV_CHARGER,
      model: 'Wattpilot',
      serialNumber: 'XY-D-400',
      ratedPowerW: 11_000,
    });
  });

  const names = (body: { content: { name: string }[] }) => body.content.map((d) => d.name);

  it('lists the plant devices sorted by name with the page envelope', async () => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
    });
    expect(response.status).toBe(200);
    const page = routes.listDevices.response.parse(response.body);
    expect(names(page)).toEqual([
      'Alpha inverter',
      'Bravo battery',
      'Charlie heat pump',
      'Delta wallbox',
    ]);
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 4, totalPages: 1 });
    expect(page.content.every((device) => device.relationships === undefined)).toBe(true);
    expect(page.content.every((device) => device.plantUuid === listPlant)).toBe(true);
  });

  it('lists only the devices of the plant asked for', async () => {
    // INV-24-000815 is also the serial number of a device of the sibling plant.
    const response = await server.request('GET', devicesPath(demoPlant), {
      token: tokens.manager,
      query: { search: 'inv-24' },
    });
    expect(response.status).toBe(200);
    expect(response.body.content).toHaveLength(1);
    expect(response.body.content[0]).toMatchObject({
      name: 'Rooftop inverter',
      plantUuid: demoPlant,
      serialNumber: 'INV-24-000815',
    });
  });

  it.each([
    ['name', 'bravo', ['Bravo battery']],
    ['model', 'WATTPILOT', ['Delta wallbox']],
    ['serial number', 'xy-', ['Charlie heat pump', 'Delta wallbox']],
    ['a literal %', '100%', ['Charlie heat pump']],
    ['a literal _', 'SN_', []],
  ])('searches by %s, case-insensitively', async (_what, search, expected) => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { search },
    });
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(expected);
    expect(response.body.page.totalElements).toBe(expected.length);
  });

  it('filters by device type', async () => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { deviceTypeUuid: deviceTypes.BATTERY },
    });
    expect(names(response.body)).toEqual(['Bravo battery']);
    const none = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { deviceTypeUuid: deviceTypes.METER },
    });
    expect(none.body.content).toEqual([]);
    expect(none.body.page).toEqual({ number: 0, size: 20, totalElements: 0, totalPages: 0 });
  });

  it('pages and sorts', async () => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { sort: 'ratedPowerW,desc', size: 3, page: 1 },
    });
    expect(names(response.body)).toEqual(['Charlie heat pump']);
    expect(response.body.page).toEqual({ number: 1, size: 3, totalElements: 4, totalPages: 2 });

    const byModel = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { sort: ['model,asc'] },
    });
    expect(byModel.body.content.map((d: { model: string }) => d.model)).toEqual([
      'HVS 5.1',
      'Symo 10',
      'Vitocal 100%',
      'Wattpilot',
    ]);

    const beyond = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { page: 5 },
    });
    expect(beyond.body.content).toEqual([]);
    expect(beyond.body.page.totalElements).toBe(4);
  });

  it('includes the relationships of every device when asked', async () => {
    const response = await server.request('GET', devicesPath(demoPlant), {
      token: tokens.manager,
      query: { includeRelationships: true, search: 'heat pump', size: 200 },
    });
    expect(response.status).toBe(200);
    const page = routes.listDevices.response.parse(response.body);
    const heatPump = page.content.find((device) => device.serialNumber === 'HP-250-031415')!;
    expect(heatPump.relationships).toMatchObject({
      deviceType: {
        deviceTypeUuid: deviceTypes.HEAT_PUMP,
        code: 'HEAT_PUMP',
        name: 'Heat pump',
        category: 'CONSUMER',
      },
      loadSignature: {
        loadSignatureUuid: loadSignatures.HEAT_PUMP_WINTER,
        code: 'HEAT_PUMP_WINTER',
      },
      vendor: { vendorUuid: vendors.SIMULATOR, code: 'SIMULATOR', kind: 'SIMULATOR' },
    });
    expect(heatPump.relationships!.loadSignature!.hourlyProfile).toHaveLength(24);
    expect(heatPump.relationships!.sensors).toHaveLength(1);
    expect(heatPump.relationships!.sensors[0]).toMatchObject({
      name: 'Heat pump power',
      deviceUuid: heatPump.deviceUuid,
      sensorTypeUuid: sensorTypes.POWER_METER,
      flow: 'CONSUMPTION',
      connection: { vendorUuid: vendors.SIMULATOR, address: 'sim://demo-home/heat-pump' },
    });

    const all = await server.request('GET', devicesPath(demoPlant), {
      token: tokens.manager,
      query: { includeRelationships: 'true', size: 200 },
    });
    const battery = (all.body.content as { serialNumber: string; relationships: any }[]).find(
      (device) => device.serialNumber === 'BAT-10-004711',
    )!;
    expect(battery.relationships.sensors.map((s: { name: string }) => s.name)).toEqual([
      'Battery power',
      'Battery state of charge',
    ]);
    expect(battery.relationships.loadSignature).toBeNull();
  });

  it('answers null vendor and load signature and no sensors for a bare device', async () => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { includeRelationships: true, search: 'alpha' },
    });
    expect(response.body.content[0].relationships).toEqual({
      deviceType: expect.objectContaining({ code: 'INVERTER', category: 'PRODUCER' }),
      sensors: [],
      loadSignature: null,
      vendor: null,
    });
  });

  it('omits the relationships with includeRelationships=false', async () => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query: { includeRelationships: false },
    });
    expect(response.body.content[0]).not.toHaveProperty('relationships');
  });

  it.each([
    ['size', { size: 0 }],
    ['size', { size: 201 }],
    ['page', { page: -1 }],
    ['sort', { sort: 'unknown' }],
    ['sort', { sort: 'relationships,asc' }],
    ['includeRelationships', { includeRelationships: 'maybe' }],
    ['deviceTypeUuid', { deviceTypeUuid: 'not-a-uuid' }],
  ])('answers 400 naming %s for a bad query', async (field, query) => {
    const response = await server.request('GET', devicesPath(listPlant), {
      token: tokens.manager,
      query,
    });
    expect(expectErrorBody(response, 400, devicesPath(listPlant)).message).toContain(field);
  });

  it('answers 400 for a malformed plant uuid', async () => {
    const response = await server.request('GET', devicesPath('x'), { token: tokens.manager });
    expectErrorBody(response, 400);
  });

  it('answers 401 without a token or with a garbage one', async () => {
    expectErrorBody(await server.request('GET', devicesPath(listPlant)), 401);
    expectErrorBody(await server.request('GET', devicesPath(listPlant), { token: 'x.y.z' }), 401);
  });

  it('answers 404 for an unknown plant and for a plant of another organization', async () => {
    expectErrorBody(
      await server.request('GET', devicesPath(MISSING_UUID), { token: tokens.manager }),
      404,
    );
    expectErrorBody(
      await server.request('GET', devicesPath(listPlant), { token: tokens.outsider }),
      404,
    );
  });
});

describe('GET /plants/{plantUuid}/devices/{deviceUuid}', () => {
  let device: Awaited<ReturnType<typeof createDevice>>;

  beforeAll(async () => {
    device = await createDevice(siblingPlant, {
      name: 'Garden pump',
      deviceTypeUuid: deviceTypes.WATER_HEATER,
      vendorUuid: vendors.FRONIUS,
    });
  });

  it('answers the device', async () => {
    const response = await server.request('GET', devicePath(siblingPlant, device.deviceUuid), {
      token: tokens.manager,
    });
    expect(response.status).toBe(200);
    expect(routes.getDevice.response.parse(response.body)).toEqual(device);
  });

  it('answers the device with its relationships', async () => {
    const response = await server.request('GET', devicePath(siblingPlant, device.deviceUuid), {
      token: tokens.manager,
      query: { includeRelationships: true },
    });
    expect(response.status).toBe(200);
    const answered = routes.getDevice.response.parse(response.body);
    expect(answered.relationships).toEqual({
      deviceType: expect.objectContaining({
        deviceTypeUuid: deviceTypes.WATER_HEATER,
        code: 'WATER_HEATER',
      }),
      sensors: [],
      loadSignature: null,
      vendor: expect.objectContaining({
        vendorUuid: vendors.FRONIUS,
        code: 'FRONIUS',
        configSchema: { fields: expect.any(Array) },
      }),
    });
  });

  it('answers 404 for an unknown device and for a device of another plant', async () => {
    const unknown = await server.request('GET', devicePath(siblingPlant, MISSING_UUID), {
      token: tokens.manager,
    });
    expect(expectErrorBody(unknown, 404).message).toContain(MISSING_UUID);
    const elsewhere = await server.request('GET', devicePath(demoPlant, device.deviceUuid), {
      token: tokens.manager,
    });
    expectErrorBody(elsewhere, 404);
  });

  it('answers 404 for a plant of another organization', async () => {
    const response = await server.request('GET', devicePath(siblingPlant, device.deviceUuid), {
      token: tokens.outsider,
    });
    expectErrorBody(response, 404);
  });

  it('answers 400 for a malformed device uuid or includeRelationships', async () => {
    const badUuid = await server.request('GET', devicePath(siblingPlant, '1234'), {
      token: tokens.manager,
    });
    expect(expectErrorBody(badUuid, 400).message).toContain('deviceUuid');
    const badFlag = await server.request('GET', devicePath(siblingPlant, device.deviceUuid), {
      token: tokens.manager,
      query: { includeRelationships: 'maybe' },
    });
    expect(expectErrorBody(badFlag, 400).message).toContain('includeRelationships');
  });

  it('answers 401 without a token or with a garbage one', async () => {
    const path = devicePath(siblingPlant, device.deviceUuid);
    expectErrorBody(await server.request('GET', path), 401);
    expectErrorBody(await server.request('GET', path, { token: 'garbage' }), 401);
  });
});

describe('PUT /plants/{plantUuid}/devices/{deviceUuid}', () => {
  let plant: string;

  beforeAll(async () => {
    plant = await createPlant('installer');
  });

  const fullDevice = () =>
    createDevice(plant, {
      name: 'Wallbox',
      deviceTypeUuid: deviceTypes.EV_CHARGER,
      vendorUuid: vendors.FRONIUS,
      model: 'Wattpilot 22',
      serialNumber: `WB-${Math.random().toString(36).slice(2, 8)}`,
      ratedPowerW: 22_000,
      loadSignatureUuid: loadSignatures.EV_EVENING_CHARGING,
      metadata: { slot: 1 },
    });

  it('merges the given fields and keeps the others', async () => {
    const device = await fullDevice();
    await sleep(5);
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
      body: { model: 'Wattpilot 11', metadata: { slot: 2 } },
    });
    expect(response.status).toBe(200);
    const updated = routes.updateDevice.response.parse(response.body);
    expect(updated).toEqual({
      ...device,
      model: 'Wattpilot 11',
      metadata: { slot: 2 },
      updatedAt: expect.any(String),
    });
    expect(updated.createdAt).toBe(device.createdAt);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(device.updatedAt));

    const read = await server.request('GET', devicePath(plant, device.deviceUuid), {
      token: tokens.manager,
    });
    expect(read.body).toEqual(updated);
  });

  it('clears the nullable fields given as null', async () => {
    const device = await fullDevice();
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
      body: {
        vendorUuid: null,
        model: null,
        serialNumber: null,
        ratedPowerW: null,
        loadSignatureUuid: null,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Wallbox',
      deviceTypeUuid: deviceTypes.EV_CHARGER,
      vendorUuid: null,
      model: null,
      serialNumber: null,
      ratedPowerW: null,
      loadSignatureUuid: null,
      metadata: { slot: 1 },
    });
  });

  it('changes the name and the device type', async () => {
    const device = await fullDevice();
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.admin,
      body: { name: 'Boiler', deviceTypeUuid: deviceTypes.WATER_HEATER },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Boiler',
      deviceTypeUuid: deviceTypes.WATER_HEATER,
    });
  });

  it('answers 200 to an empty body, changing only updatedAt', async () => {
    const device = await fullDevice();
    await sleep(5);
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
      body: {},
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...device, updatedAt: expect.any(String) });
    expect(response.body.updatedAt).not.toBe(device.updatedAt);
  });

  it('answers 409 for a serial number of another device of the plant, 200 for its own', async () => {
    const first = await fullDevice();
    const second = await fullDevice();
    const taken = await server.request('PUT', devicePath(plant, second.deviceUuid), {
      token: tokens.installer,
      body: { serialNumber: first.serialNumber },
    });
    const error = expectErrorBody(taken, 409);
    expect(error.message).toContain(`serialNumber '${first.serialNumber}'`);
    expect(error.message).toContain(first.deviceUuid);

    const own = await server.request('PUT', devicePath(plant, first.deviceUuid), {
      token: tokens.installer,
      body: { serialNumber: first.serialNumber, name: 'Renamed' },
    });
    expect(own.status).toBe(200);
    expect(own.body.serialNumber).toBe(first.serialNumber);
  });

  it.each([
    ['deviceTypeUuid', { deviceTypeUuid: MISSING_UUID }],
    ['vendorUuid', { vendorUuid: MISSING_UUID }],
    ['loadSignatureUuid', { loadSignatureUuid: MISSING_UUID }],
  ])('answers 422 for an unknown %s and changes nothing', async (field, body) => {
    const device = await fullDevice();
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
      body: { ...body, name: 'Not saved' },
    });
    expect(expectErrorBody(response, 422).message).toContain(field);
    const read = await server.request('GET', devicePath(plant, device.deviceUuid), {
      token: tokens.manager,
    });
    expect(read.body).toEqual(device);
  });

  it.each([
    ['name', { name: null }],
    ['name', { name: '' }],
    ['ratedPowerW', { ratedPowerW: 'fast' }],
    ['deviceTypeUuid', { deviceTypeUuid: null }],
    ['vendorUuid', { vendorUuid: 'nope' }],
  ])('answers 400 naming %s for a bad body', async (field, body) => {
    const device = await fullDevice();
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
      body,
    });
    expect(expectErrorBody(response, 400).message).toContain(field);
  });

  it('answers 400 for a malformed device uuid', async () => {
    const response = await server.request('PUT', devicePath(plant, 'abc'), {
      token: tokens.installer,
      body: { name: 'x' },
    });
    expect(expectErrorBody(response, 400).message).toContain('deviceUuid');
  });

  it('answers 401 without a token or with a garbage one', async () => {
    const device = await fullDevice();
    const path = devicePath(plant, device.deviceUuid);
    expectErrorBody(await server.request('PUT', path, { body: { name: 'x' } }), 401);
    expectErrorBody(
      await server.request('PUT', path, { body: { name: 'x' }, token: 'garbage' }),
      401,
    );
  });

  it('answers 403 to a manager', async () => {
    const device = await fullDevice();
    const response = await server.request('PUT', devicePath(plant, device.deviceUuid), {
      token: tokens.manager,
      body: { name: 'x' },
    });
    expect(expectErrorBody(response, 403).message).toBe('Permission DEVICES UPDATE required');
  });

  it('answers 404 for an unknown device, a device of another plant, another organization', async () => {
    const device = await fullDevice();
    const body = { name: 'x' };
    expectErrorBody(
      await server.request('PUT', devicePath(plant, MISSING_UUID), {
        token: tokens.installer,
        body,
      }),
      404,
    );
    expectErrorBody(
      await server.request('PUT', devicePath(siblingPlant, device.deviceUuid), {
        token: tokens.installer,
        body,
      }),
      404,
    );
    expectErrorBody(
      await server.request('PUT', devicePath(plant, device.deviceUuid), {
        token: tokens.outsider,
        body,
      }),
      404,
    );
  });
});

describe('DELETE /plants/{plantUuid}/devices/{deviceUuid}', () => {
  it('deletes the device and keeps its sensors in the plant, unlinked', async () => {
    const plant = await createPlant('installer');
    const device = await createDevice(plant, { deviceTypeUuid: deviceTypes.HEAT_PUMP });
    const sensor = await server.request('POST', `/plants/${plant}/sensors`, {
      token: tokens.installer,
      body: { sensorTypeUuid: sensorTypes.POWER_METER, deviceUuid: device.deviceUuid },
    });
    expect(sensor.status).toBe(201);
    expect(sensor.body.deviceUuid).toBe(device.deviceUuid);

    const response = await server.request('DELETE', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');

    expectErrorBody(
      await server.request('GET', devicePath(plant, device.deviceUuid), { token: tokens.manager }),
      404,
    );
    const kept = await server.request('GET', `/plants/${plant}/sensors/${sensor.body.sensorUuid}`, {
      token: tokens.manager,
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      sensorUuid: sensor.body.sensorUuid,
      plantUuid: plant,
      deviceUuid: null,
    });
    // The foreign key (ON DELETE SET NULL) did the unlinking.
    const row = await server.server.context.db
      .selectFrom('sensors')
      .select('device_uuid')
      .where('sensor_uuid', '=', sensor.body.sensorUuid)
      .executeTakeFirstOrThrow();
    expect(row.device_uuid).toBeNull();

    const again = await server.request('DELETE', devicePath(plant, device.deviceUuid), {
      token: tokens.installer,
    });
    expectErrorBody(again, 404);
  });

  it('frees the serial number of the deleted device', async () => {
    const plant = await createPlant('installer');
    const device = await createDevice(plant, {
      deviceTypeUuid: deviceTypes.BATTERY,
      serialNumber: 'REUSED-1',
    });
    await server.request('DELETE', devicePath(plant, device.deviceUuid), {
      token: tokens.admin,
    });
    const again = await createDevice(plant, {
      deviceTypeUuid: deviceTypes.BATTERY,
      serialNumber: 'REUSED-1',
    });
    expect(again.serialNumber).toBe('REUSED-1');
  });

  it('answers 404 for an unknown device, a device of another plant, another organization', async () => {
    const devices = await demoDevices();
    const inverter = devices['Rooftop inverter']!;
    expectErrorBody(
      await server.request('DELETE', devicePath(demoPlant, MISSING_UUID), {
        token: tokens.installer,
      }),
      404,
    );
    expectErrorBody(
      await server.request('DELETE', devicePath(siblingPlant, inverter), {
        token: tokens.installer,
      }),
      404,
    );
    expectErrorBody(
      await server.request('DELETE', devicePath(demoPlant, inverter), { token: tokens.outsider }),
      404,
    );
    const still = await server.request('GET', devicePath(demoPlant, inverter), {
      token: tokens.manager,
    });
    expect(still.status).toBe(200);
  });

  it('answers 400 for a malformed uuid', async () => {
    expectErrorBody(
      await server.request('DELETE', devicePath(demoPlant, 'zzz'), { token: tokens.installer }),
      400,
    );
    expectErrorBody(
      await server.request('DELETE', devicePath('zzz', MISSING_UUID), { token: tokens.installer }),
      400,
    );
  });

  it('answers 401 and 403', async () => {
    const inverter = (await demoDevices())['Rooftop inverter']!;
    const path = devicePath(demoPlant, inverter);
    expectErrorBody(await server.request('DELETE', path), 401);
    expectErrorBody(await server.request('DELETE', path, { token: 'garbage' }), 401);
    const forbidden = await server.request('DELETE', path, { token: tokens.manager });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission DEVICES DELETE required');
  });
});
