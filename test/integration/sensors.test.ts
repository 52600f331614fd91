import { createServer, type Server } from 'node:net';
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
/** A second plant of Demo Energy: its sensors and devices are invisible through the demo plant. */
let siblingPlant: string;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;
let vendors: Record<string, string>;
let deviceTypes: Record<string, string>;
/** Name → uuid of the demo plant's devices. */
let demoDevices: Record<string, string>;

/** Accepts TCP connections on a loopback port, as a reachable Modbus device would. */
let listening: Server;
let openPort: number;
let closedPort: number;

const sensorsPath = (plantUuid: string) => `/plants/${plantUuid}/sensors`;
const sensorPath = (plantUuid: string, sensorUuid: string) =>
  `/plants/${plantUuid}/sensors/${sensorUuid}`;

async function createPlant(role: DemoRole): Promise<string> {
  const response = await server.request('POST', '/plants', {
    token: tokens[role],
    body: newPlantBody(),
  });
  expect(response.status).toBe(201);
  return response.body.plantUuid as string;
}

async function createDevice(plantUuid: string, name: string): Promise<string> {
  const response = await server.request('POST', `/plants/${plantUuid}/devices`, {
    token: tokens.installer,
    body: { name, deviceTypeUuid: deviceTypes.HEAT_PUMP },
  });
  expect(response.status).toBe(201);
  return response.body.deviceUuid as string;
}

async function createSensor(
  plantUuid: string,
  body: Record<string, unknown>,
  query: Record<string, string | boolean> = {},
) {
  const response = await server.request('POST', sensorsPath(plantUuid), {
    token: tokens.installer,
    body,
    query,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return routes.createSensor.response.parse(response.body);
}

function listen(): Promise<Server> {
  return new Promise((resolve) => {
    const tcp = createServer((socket) => socket.destroy());
    tcp.listen(0, '127.0.0.1', () => resolve(tcp));
  });
}

const portOf = (tcp: Server) => (tcp.address() as { port: number }).port;
const close = (tcp: Server) => new Promise((resolve) => tcp.close(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  listening = await listen();
  openPort = portOf(listening);
  const released = await listen();
  closedPort = portOf(released);
  await close(released);
  // Connection tests of loopback ports: allowed for this server only, as for an on-premise one.
  server = await TestServer.start({
    connectionTests: {
      allowPrivateNetworks: true,
      ports: { 'modbus:': [openPort, closedPort], 'tcp:': [openPort, closedPort] },
      timeoutMs: 1000,
    },
  });
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  demoPlant = await server.demoPlantUuid();
  siblingPlant = await createPlant('installer');

  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  vendors = await server.catalog('/vendors', 'vendorUuid');
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');

  const devices = await server.request('GET', `/plants/${demoPlant}/devices`, {
    token: tokens.admin,
    query: { size: 200 },
  });
  demoDevices = Object.fromEntries(
    (devices.body.content as { name: string; deviceUuid: string }[]).map((device) => [
      device.name,
      device.deviceUuid,
    ]),
  );
});

afterAll(async () => {
  if (listening) await close(listening);
  await server?.close();
});

/** Data type uuids in the order the server answers them: by data type code. */
const inCodeOrder = (...codes: string[]) => [...codes].sort().map((code) => dataTypes[code]!);

describe('POST /plants/{plantUuid}/sensors', () => {
  it('creates a sensor with every field and answers it as stored', async () => {
    const body = {
      name: 'Boiler power',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER, dataTypes.ENERGY],
      deviceUuid: demoDevices['Heat pump'],
      flow: 'CONSUMPTION',
      signInverted: true,
      samplingIntervalSeconds: 15,
      connection: { vendorUuid: vendors.SIMULATOR, address: 'sim://test/boiler' },
      metadata: { phase: 'L1' },
    };
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body,
    });
    expect(response.status).toBe(201);
    const sensor = routes.createSensor.response.parse(response.body);
    expect(sensor).toEqual({
      ...body,
      dataTypesCollectUuids: inCodeOrder('ENERGY', 'POWER'),
      sensorUuid: expect.any(String),
      plantUuid: demoPlant,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: sensor.createdAt,
    });

    const read = await server.request('GET', sensorPath(demoPlant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(sensor);
  });

  it('defaults name, data types, flow, sampling interval, device and connection', async () => {
    const sensor = await createSensor(siblingPlant, { sensorTypeUuid: sensorTypes.POWER_METER });
    expect(sensor).toMatchObject({
      name: 'Power meter',
      plantUuid: siblingPlant,
      deviceUuid: null,
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: inCodeOrder('POWER', 'ENERGY', 'VOLTAGE', 'CURRENT'),
      flow: 'CONSUMPTION',
      signInverted: false,
      samplingIntervalSeconds: 60,
      connection: null,
      metadata: {},
    });
  });

  it.each([
    ['an energy counter', 'ENERGY_METER', ['ENERGY'], 'ENERGY'],
    ['a state of charge', 'BATTERY_MONITOR', ['STATE_OF_CHARGE'], 'STATE_OF_CHARGE'],
    ['a temperature', 'TEMPERATURE_SENSOR', undefined, 'TEMPERATURE'],
  ])('answers 422 naming signInverted for %s', async (_what, type, codes, named) => {
    const response = await server.request('POST', sensorsPath(siblingPlant), {
      token: tokens.installer,
      body: {
        sensorTypeUuid: sensorTypes[type],
        ...(codes && { dataTypesCollectUuids: codes.map((code) => dataTypes[code]) }),
        signInverted: true,
      },
    });
    const error = expectErrorBody(response, 422, sensorsPath(siblingPlant));
    expect(error.message).toContain('signInverted');
    expect(error.message).toContain(named);
  });

  it('accepts signInverted on a current sensor, and answers 400 for a non-boolean', async () => {
    const current = await createSensor(siblingPlant, {
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.CURRENT],
      signInverted: true,
    });
    expect(current.signInverted).toBe(true);
    const response = await server.request('POST', sensorsPath(siblingPlant), {
      token: tokens.installer,
      body: { sensorTypeUuid: sensorTypes.POWER_METER, signInverted: 'yes' },
    });
    expect(expectErrorBody(response, 400).message).toContain('signInverted');
  });

  it.each([
    ['a temperature sensor', 'TEMPERATURE_SENSOR', undefined, 'AMBIENT'],
    ['a pyranometer', 'PYRANOMETER', ['IRRADIANCE'], 'AMBIENT'],
    ['a power meter reading voltage only', 'POWER_METER', ['VOLTAGE'], 'AMBIENT'],
    ['a battery monitor reading energy', 'BATTERY_MONITOR', ['ENERGY', 'VOLTAGE'], 'CONSUMPTION'],
  ])('defaults the flow of %s', async (_what, type, codes, flow) => {
    const sensor = await createSensor(siblingPlant, {
      sensorTypeUuid: sensorTypes[type],
      ...(codes && { dataTypesCollectUuids: codes.map((code) => dataTypes[code]) }),
    });
    expect(sensor.flow).toBe(flow);
  });

  it('keeps an explicit flow and collapses repeated data types', async () => {
    const sensor = await createSensor(siblingPlant, {
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER, dataTypes.POWER!.toUpperCase()],
      flow: 'GRID',
    });
    expect(sensor.flow).toBe('GRID');
    expect(sensor.dataTypesCollectUuids).toEqual([dataTypes.POWER]);
  });

  it('answers 422 for an unknown sensor type', async () => {
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body: { sensorTypeUuid: MISSING_UUID },
    });
    const error = expectErrorBody(response, 422, sensorsPath(demoPlant));
    expect(error.message).toContain('sensorTypeUuid');
    expect(error.message).toContain(MISSING_UUID);
  });

  it('answers 422 for an empty list of data types', async () => {
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body: { sensorTypeUuid: sensorTypes.POWER_METER, dataTypesCollectUuids: [] },
    });
    expect(expectErrorBody(response, 422).message).toContain('dataTypesCollectUuids');
  });

  it('answers 422 naming an unknown data type', async () => {
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body: {
        sensorTypeUuid: sensorTypes.POWER_METER,
        dataTypesCollectUuids: [dataTypes.POWER, MISSING_UUID],
      },
    });
    const error = expectErrorBody(response, 422);
    expect(error.message).toContain('dataTypesCollectUuids');
    expect(error.message).toContain(MISSING_UUID);
  });

  it('answers 422 naming a data type the sensor type does not allow', async () => {
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body: {
        sensorTypeUuid: sensorTypes.POWER_METER,
        dataTypesCollectUuids: [dataTypes.POWER, dataTypes.TEMPERATURE],
      },
    });
    const error = expectErrorBody(response, 422);
    expect(error.message).toContain(dataTypes.TEMPERATURE);
    expect(error.message).toContain('POWER_METER');
  });

  it('answers 422 for an unknown device and for a device of another plant', async () => {
    const unknown = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body: { sensorTypeUuid: sensorTypes.POWER_METER, deviceUuid: MISSING_UUID },
    });
    expect(expectErrorBody(unknown, 422).message).toContain('deviceUuid');
    const elsewhere = await server.request('POST', sensorsPath(siblingPlant), {
      token: tokens.installer,
      body: { sensorTypeUuid: sensorTypes.POWER_METER, deviceUuid: demoDevices['Heat pump'] },
    });
    const error = expectErrorBody(elsewhere, 422);
    expect(error.message).toContain('deviceUuid');
    expect(error.message).toContain(demoDevices['Heat pump']);
  });

  it('answers 422 for a connection to an unknown vendor, even when the test is skipped', async () => {
    for (const ignoreConnectionsTest of [false, true]) {
      const response = await server.request('POST', sensorsPath(demoPlant), {
        token: tokens.installer,
        query: { ignoreConnectionsTest },
        body: {
          sensorTypeUuid: sensorTypes.POWER_METER,
          connection: { vendorUuid: MISSING_UUID, address: 'sim://x' },
        },
      });
      expect(expectErrorBody(response, 422).message).toContain('connection.vendorUuid');
    }
  });

  describe('connection test', () => {
    const withConnection = (vendor: string, address: string) => ({
      sensorTypeUuid: sensorTypes.POWER_METER,
      connection: { vendorUuid: vendors[vendor], address },
    });

    it('passes for a simulator address', async () => {
      const sensor = await createSensor(siblingPlant, withConnection('SIMULATOR', 'sim://x'));
      expect(sensor.connection).toEqual({ vendorUuid: vendors.SIMULATOR, address: 'sim://x' });
    });

    it('fails with 422 and the tester message for an unknown scheme', async () => {
      const response = await server.request('POST', sensorsPath(siblingPlant), {
        token: tokens.installer,
        body: withConnection('SIMULATOR', 'foo://x'),
      });
      const error = expectErrorBody(response, 422, sensorsPath(siblingPlant));
      expect(error.message).toContain('foo://x');
      expect(error.message).toContain('PlantDesk simulator accepts only sim://');
    });

    it('is skipped with ignoreConnectionsTest=true', async () => {
      const sensor = await createSensor(siblingPlant, withConnection('SIMULATOR', 'foo://x'), {
        ignoreConnectionsTest: 'true',
      });
      expect(sensor.connection).toEqual({ vendorUuid: vendors.SIMULATOR, address: 'foo://x' });
    });

    it('runs with ignoreConnectionsTest=false', async () => {
      const response = await server.request('POST', sensorsPath(siblingPlant), {
        token: tokens.installer,
        query: { ignoreConnectionsTest: 'false' },
        body: withConnection('SIMULATOR', 'foo://x'),
      });
      expectErrorBody(response, 422);
    });

    it('reaches a listening TCP port for a device vendor', async () => {
      const address = `modbus://127.0.0.1:${openPort}`;
      const sensor = await createSensor(siblingPlant, withConnection('FRONIUS', address));
      expect(sensor.connection).toEqual({ vendorUuid: vendors.FRONIUS, address });
    });

    it('fails with 422 for a closed TCP port', async () => {
      const response = await server.request('POST', sensorsPath(siblingPlant), {
        token: tokens.installer,
        body: withConnection('FRONIUS', `modbus://127.0.0.1:${closedPort}`),
      });
      expect(expectErrorBody(response, 422).message).toContain(
        `Cannot connect to 127.0.0.1:${closedPort}`,
      );
    });

    it('fails with 422 for a scheme the device vendor does not speak', async () => {
      const response = await server.request('POST', sensorsPath(siblingPlant), {
        token: tokens.installer,
        body: withConnection('FRONIUS', 'foo://x'),
      });
      expect(expectErrorBody(response, 422).message).toContain("Address scheme 'foo:'");
    });

    it('answers 400 for ignoreConnectionsTest=maybe', async () => {
      const response = await server.request('POST', sensorsPath(siblingPlant), {
        token: tokens.installer,
        query: { ignoreConnectionsTest: 'maybe' },
        body: withConnection('SIMULATOR', 'sim://x'),
      });
      expect(expectErrorBody(response, 400).message).toContain('ignoreConnectionsTest');
    });
  });

  it.each([
    ['sensorTypeUuid', () => ({ name: 'No type' })],
    ['sensorTypeUuid', () => ({ sensorTypeUuid: 'power' })],
    ['flow', () => ({ sensorTypeUuid: sensorTypes.POWER_METER, flow: 'SIDEWAYS' })],
    [
      'samplingIntervalSeconds',
      () => ({ sensorTypeUuid: sensorTypes.POWER_METER, samplingIntervalSeconds: 0 }),
    ],
    [
      'samplingIntervalSeconds',
      () => ({ sensorTypeUuid: sensorTypes.POWER_METER, samplingIntervalSeconds: 1.5 }),
    ],
    [
      'dataTypesCollectUuids',
      () => ({ sensorTypeUuid: sensorTypes.POWER_METER, dataTypesCollectUuids: ['x'] }),
    ],
    [
      'connection',
      () => ({ sensorTypeUuid: sensorTypes.POWER_METER, connection: { address: 'sim://x' } }),
    ],
    [
      'connection.address',
      () => ({
        sensorTypeUuid: sensorTypes.POWER_METER,
        connection: { vendorUuid: vendors.SIMULATOR, address: ' ' },
      }),
    ],
  ])('answers 400 naming %s for a bad body', async (field, body) => {
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.installer,
      body: body(),
    });
    expect(expectErrorBody(response, 400, sensorsPath(demoPlant)).message).toContain(field);
  });

  it('answers 400 for a malformed plant uuid', async () => {
    const response = await server.request('POST', sensorsPath('plant-1'), {
      token: tokens.installer,
      body: { sensorTypeUuid: sensorTypes.POWER_METER },
    });
    expect(expectErrorBody(response, 400).message).toContain('plantUuid');
  });

  it('answers 401 without a token or with a garbage one', async () => {
    const body = { sensorTypeUuid: sensorTypes.POWER_METER };
    expectErrorBody(await server.request('POST', sensorsPath(demoPlant), { body }), 401);
    expectErrorBody(
      await server.request('POST', sensorsPath(demoPlant), { body, token: 'garbage' }),
      401,
    );
  });

  it('answers 403 to a manager', async () => {
    const response = await server.request('POST', sensorsPath(demoPlant), {
      token: tokens.manager,
      body: { sensorTypeUuid: sensorTypes.POWER_METER },
    });
    expect(expectErrorBody(response, 403).message).toBe('Permission SENSORS CREATE required');
  });

  it('answers 404 for an unknown plant and for a plant of another organization', async () => {
    const body = { sensorTypeUuid: sensorTypes.POWER_METER };
    expectErrorBody(
      await server.request('POST', sensorsPath(MISSING_UUID), { token: tokens.installer, body }),
      404,
    );
    expectErrorBody(
      await server.request('POST', sensorsPath(demoPlant), { token: tokens.outsider, body }),
      404,
    );
  });
});

describe('GET /plants/{plantUuid}/sensors', () => {
  let listPlant: string;
  let pump: string;

  beforeAll(async () => {
    listPlant = await createPlant('installer');
    pump = await createDevice(listPlant, 'Pool pump');
    await createSensor(listPlant, {
      name: 'Alpha power',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
      deviceUuid: pump,
      samplingIntervalSeconds: 10,
      connection: { vendorUuid: vendors.SIMULATOR, address: 'sim://pool/pump' },
    });
    await createSensor(listPlant, {
      name: 'Bravo energy',
      sensorTypeUuid: sensorTypes.ENERGY_METER,
      dataTypesCollectUuids: [dataTypes.ENERGY],
      flow: 'GRID',
      samplingIntervalSeconds: 900,
    });
    await createSensor(listPlant, {
      name: 'Charlie temperature',
      sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR,
      deviceUuid: pump,
      samplingIntervalSeconds: 300,
      connection: { vendorUuid: vendors.SIMULATOR, address: 'sim://pool/WATER' },
    });
    await createSensor(listPlant, {
      name: 'Delta irradiance',
      sensorTypeUuid: sensorTypes.PYRANOMETER,
      flow: 'PRODUCTION',
    });
  });

  const names = (body: { content: { name: string }[] }) => body.content.map((s) => s.name);

  it('lists the plant sensors sorted by name with the page envelope', async () => {
    const response = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
    });
    expect(response.status).toBe(200);
    const page = routes.listSensors.response.parse(response.body);
    expect(names(page)).toEqual([
      'Alpha power',
      'Bravo energy',
      'Charlie temperature',
      'Delta irradiance',
    ]);
    expect(page.page).toEqual({ number: 0, size: 20, totalElements: 4, totalPages: 1 });
    expect(page.content.every((sensor) => sensor.relationships === undefined)).toBe(true);
    expect(page.content[3]!.dataTypesCollectUuids).toEqual(
      inCodeOrder('IRRADIANCE', 'TEMPERATURE'),
    );
  });

  it('lists the nine seeded sensors of the demo plant among others', async () => {
    const response = await server.request('GET', sensorsPath(demoPlant), {
      token: tokens.manager,
      query: { search: 'sim://demo-home/', size: 200 },
    });
    expect(response.body.page.totalElements).toBe(9);
    expect(
      response.body.content.every((s: { plantUuid: string }) => s.plantUuid === demoPlant),
    ).toBe(true);
  });

  it.each([
    ['name', 'CHARLIE', ['Charlie temperature']],
    ['connection address', 'pool/water', ['Charlie temperature']],
    ['connection address or name', 'pool', ['Alpha power', 'Charlie temperature']],
    ['a literal %', '%', []],
  ])('searches by %s, case-insensitively', async (_what, search, expected) => {
    const response = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { search },
    });
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(expected);
  });

  it('filters by data types collected: any of those given, comma-separated or repeated', async () => {
    const single = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { dataTypesCollectUuid: dataTypes.TEMPERATURE },
    });
    expect(names(single.body)).toEqual(['Charlie temperature', 'Delta irradiance']);

    const commas = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { dataTypesCollectUuid: `${dataTypes.POWER},${dataTypes.ENERGY}` },
    });
    expect(names(commas.body)).toEqual(['Alpha power', 'Bravo energy']);

    const repeated = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { dataTypesCollectUuid: [dataTypes.ENERGY!, dataTypes.IRRADIANCE!] },
    });
    expect(names(repeated.body)).toEqual(['Bravo energy', 'Delta irradiance']);
    expect(repeated.body.page.totalElements).toBe(2);

    const none = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { dataTypesCollectUuid: dataTypes.CURRENT },
    });
    expect(none.body.content).toEqual([]);
  });

  it('filters by device', async () => {
    const response = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { deviceUuid: pump },
    });
    expect(names(response.body)).toEqual(['Alpha power', 'Charlie temperature']);
    const unknown = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { deviceUuid: MISSING_UUID },
    });
    expect(unknown.body.content).toEqual([]);
  });

  it('pages and sorts', async () => {
    const bySampling = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { sort: 'samplingIntervalSeconds,desc', size: 2 },
    });
    expect(names(bySampling.body)).toEqual(['Bravo energy', 'Charlie temperature']);
    expect(bySampling.body.page).toEqual({ number: 0, size: 2, totalElements: 4, totalPages: 2 });

    const second = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { sort: 'samplingIntervalSeconds,desc', size: 2, page: 1 },
    });
    expect(names(second.body)).toEqual(['Delta irradiance', 'Alpha power']);

    const byFlow = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { sort: ['flow', 'name,desc'] },
    });
    expect(byFlow.body.content.map((s: { flow: string }) => s.flow)).toEqual([
      'AMBIENT',
      'CONSUMPTION',
      'GRID',
      'PRODUCTION',
    ]);
  });

  it('includes the relationships of every sensor when asked', async () => {
    const response = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query: { includeRelationships: true },
    });
    expect(response.status).toBe(200);
    const page = routes.listSensors.response.parse(response.body);
    const [alpha, bravo, charlie] = page.content;
    expect(alpha!.relationships).toEqual({
      device: expect.objectContaining({
        deviceUuid: pump,
        name: 'Pool pump',
        plantUuid: listPlant,
      }),
      sensorType: expect.objectContaining({
        sensorTypeUuid: sensorTypes.POWER_METER,
        code: 'POWER_METER',
        name: 'Power meter',
        dataTypesCollectUuids: inCodeOrder('POWER', 'ENERGY', 'VOLTAGE', 'CURRENT'),
      }),
      dataTypesCollects: [
        { dataTypesCollectUuid: dataTypes.POWER, code: 'POWER', name: 'Power', unit: 'W' },
      ],
    });
    expect(bravo!.relationships!.device).toBeNull();
    expect(bravo!.relationships!.dataTypesCollects).toEqual([
      { dataTypesCollectUuid: dataTypes.ENERGY, code: 'ENERGY', name: 'Energy', unit: 'kWh' },
    ]);
    expect(charlie!.relationships!.dataTypesCollects.map((d) => d.unit)).toEqual(['°C']);
  });

  it.each([
    ['size', { size: 0 }],
    ['page', { page: 'first' }],
    ['sort', { sort: 'unknown' }],
    ['sort', { sort: 'connection,desc' }],
    ['includeRelationships', { includeRelationships: 'maybe' }],
    ['dataTypesCollectUuid', { dataTypesCollectUuid: 'power' }],
    ['deviceUuid', { deviceUuid: 'pump' }],
  ])('answers 400 naming %s for a bad query', async (field, query) => {
    const response = await server.request('GET', sensorsPath(listPlant), {
      token: tokens.manager,
      query,
    });
    expect(expectErrorBody(response, 400, sensorsPath(listPlant)).message).toContain(field);
  });

  it('answers 400 for a malformed plant uuid', async () => {
    expectErrorBody(await server.request('GET', sensorsPath('x'), { token: tokens.manager }), 400);
  });

  it('answers 401 without a token or with a garbage one', async () => {
    expectErrorBody(await server.request('GET', sensorsPath(listPlant)), 401);
    expectErrorBody(await server.request('GET', sensorsPath(listPlant), { token: 'a.b.c' }), 401);
  });

  it('answers 404 for an unknown plant and for a plant of another organization', async () => {
    expectErrorBody(
      await server.request('GET', sensorsPath(MISSING_UUID), { token: tokens.manager }),
      404,
    );
    expectErrorBody(
      await server.request('GET', sensorsPath(listPlant), { token: tokens.outsider }),
      404,
    );
  });
});

describe('GET /plants/{plantUuid}/sensors/{sensorUuid}', () => {
  let sensor: Awaited<ReturnType<typeof createSensor>>;

  beforeAll(async () => {
    sensor = await createSensor(siblingPlant, {
      name: 'Outdoor air',
      sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR,
    });
  });

  it('answers the sensor', async () => {
    const response = await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(response.status).toBe(200);
    expect(routes.getSensor.response.parse(response.body)).toEqual(sensor);
  });

  it('answers the sensor with its relationships', async () => {
    const response = await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.manager,
      query: { includeRelationships: 'true' },
    });
    expect(response.status).toBe(200);
    const answered = routes.getSensor.response.parse(response.body);
    expect(answered.relationships).toEqual({
      device: null,
      sensorType: expect.objectContaining({
        sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR,
        code: 'TEMPERATURE_SENSOR',
        dataTypesCollectUuids: [dataTypes.TEMPERATURE],
      }),
      dataTypesCollects: [
        {
          dataTypesCollectUuid: dataTypes.TEMPERATURE,
          code: 'TEMPERATURE',
          name: 'Temperature',
          unit: '°C',
        },
      ],
    });
  });

  it('answers a demo sensor linked to its device', async () => {
    const list = await server.request('GET', sensorsPath(demoPlant), {
      token: tokens.manager,
      query: { search: 'sim://demo-home/battery/soc' },
    });
    const soc = list.body.content[0];
    const response = await server.request('GET', sensorPath(demoPlant, soc.sensorUuid), {
      token: tokens.manager,
      query: { includeRelationships: true },
    });
    expect(response.body).toMatchObject({
      name: 'Battery state of charge',
      flow: 'STORAGE',
      deviceUuid: demoDevices['Home battery'],
      dataTypesCollectUuids: [dataTypes.STATE_OF_CHARGE],
      relationships: {
        device: { name: 'Home battery', serialNumber: 'BAT-10-004711' },
        sensorType: { code: 'BATTERY_MONITOR' },
        dataTypesCollects: [{ code: 'STATE_OF_CHARGE', unit: '%' }],
      },
    });
  });

  it('answers 404 for an unknown sensor and for a sensor of another plant', async () => {
    const unknown = await server.request('GET', sensorPath(siblingPlant, MISSING_UUID), {
      token: tokens.manager,
    });
    expect(expectErrorBody(unknown, 404).message).toContain(MISSING_UUID);
    expectErrorBody(
      await server.request('GET', sensorPath(demoPlant, sensor.sensorUuid), {
        token: tokens.manager,
      }),
      404,
    );
  });

  it('answers 404 for a plant of another organization', async () => {
    expectErrorBody(
      await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
        token: tokens.outsider,
      }),
      404,
    );
  });

  it('answers 400 for a malformed sensor uuid or includeRelationships', async () => {
    const badUuid = await server.request('GET', sensorPath(siblingPlant, 'abc'), {
      token: tokens.manager,
    });
    expect(expectErrorBody(badUuid, 400).message).toContain('sensorUuid');
    const badFlag = await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.manager,
      query: { includeRelationships: 'maybe' },
    });
    expect(expectErrorBody(badFlag, 400).message).toContain('includeRelationships');
  });

  it('answers 401 without a token or with a garbage one', async () => {
    const path = sensorPath(siblingPlant, sensor.sensorUuid);
    expectErrorBody(await server.request('GET', path), 401);
    expectErrorBody(await server.request('GET', path, { token: 'garbage' }), 401);
  });
});

describe('PUT /plants/{plantUuid}/sensors/{sensorUuid}', () => {
  let plant: string;
  let device: string;

  beforeAll(async () => {
    plant = await createPlant('installer');
    device = await createDevice(plant, 'Heat pump');
  });

  const powerSensor = (extra: Record<string, unknown> = {}) =>
    createSensor(plant, {
      name: 'Heat pump power',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
      deviceUuid: device,
      flow: 'CONSUMPTION',
      samplingIntervalSeconds: 30,
      connection: { vendorUuid: vendors.SIMULATOR, address: 'sim://hp' },
      metadata: { circuit: 3 },
      ...extra,
    });

  const put = (sensorUuid: string, body: unknown, query: Record<string, string> = {}) =>
    server.request('PUT', sensorPath(plant, sensorUuid), {
      token: tokens.installer,
      body,
      query,
    });

  it('merges the given fields and keeps the others', async () => {
    const sensor = await powerSensor();
    await sleep(5);
    const response = await put(sensor.sensorUuid, { name: 'Renamed', samplingIntervalSeconds: 5 });
    expect(response.status).toBe(200);
    const updated = routes.updateSensor.response.parse(response.body);
    expect(updated).toEqual({
      ...sensor,
      name: 'Renamed',
      samplingIntervalSeconds: 5,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(sensor.updatedAt));
    const read = await server.request('GET', sensorPath(plant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(read.body).toEqual(updated);
  });

  it('unlinks the device with deviceUuid null and removes the connection with null', async () => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, { deviceUuid: null, connection: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ deviceUuid: null, connection: null, name: sensor.name });
  });

  it('links a device of the plant, and answers 422 for a device of another plant', async () => {
    const sensor = await powerSensor({ deviceUuid: null });
    const linked = await put(sensor.sensorUuid, { deviceUuid: device });
    expect(linked.status).toBe(200);
    expect(linked.body.deviceUuid).toBe(device);

    const elsewhere = await put(sensor.sensorUuid, { deviceUuid: demoDevices['Heat pump'] });
    expect(expectErrorBody(elsewhere, 422).message).toContain('deviceUuid');
  });

  it('replaces the data types, keeping the flow', async () => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, {
      dataTypesCollectUuids: [dataTypes.VOLTAGE, dataTypes.CURRENT],
    });
    expect(response.status).toBe(200);
    expect(response.body.dataTypesCollectUuids).toEqual(inCodeOrder('VOLTAGE', 'CURRENT'));
    expect(response.body.flow).toBe('CONSUMPTION');
    const filtered = await server.request('GET', sensorsPath(plant), {
      token: tokens.manager,
      query: { dataTypesCollectUuid: dataTypes.VOLTAGE },
    });
    expect(filtered.body.content.map((s: { sensorUuid: string }) => s.sensorUuid)).toEqual([
      sensor.sensorUuid,
    ]);
  });

  it.each([
    ['an empty list', () => [], 'dataTypesCollectUuids'],
    ['an unknown data type', () => [MISSING_UUID], MISSING_UUID],
    ['a data type the type does not allow', () => [dataTypes.IRRADIANCE!], 'IRRADIANCE'],
  ])('answers 422 for %s and changes nothing', async (_what, uuids, named) => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, { dataTypesCollectUuids: uuids(), name: 'No' });
    const message = expectErrorBody(response, 422).message;
    expect(message).toContain(named === 'IRRADIANCE' ? dataTypes.IRRADIANCE : named);
    const read = await server.request('GET', sensorPath(plant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(read.body).toEqual(sensor);
  });

  it('changes the sensor type when the collected data types suit the new one', async () => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, { sensorTypeUuid: sensorTypes.ENERGY_METER });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      sensorTypeUuid: sensorTypes.ENERGY_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
    });
  });

  it('answers 422 naming the data type the new sensor type does not allow', async () => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, {
      sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR,
    });
    const error = expectErrorBody(response, 422);
    expect(error.message).toContain(dataTypes.POWER);
    expect(error.message).toContain('TEMPERATURE_SENSOR');
  });

  it('changes the sensor type together with suitable data types', async () => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, {
      sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR,
      dataTypesCollectUuids: [dataTypes.TEMPERATURE],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      sensorTypeUuid: sensorTypes.TEMPERATURE_SENSOR,
      dataTypesCollectUuids: [dataTypes.TEMPERATURE],
      flow: 'CONSUMPTION',
    });
  });

  it('answers 422 for an unknown sensor type', async () => {
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, { sensorTypeUuid: MISSING_UUID });
    expect(expectErrorBody(response, 422).message).toContain('sensorTypeUuid');
  });

  it('sets and clears signInverted, and keeps it when left out', async () => {
    const sensor = await powerSensor();
    expect(sensor.signInverted).toBe(false);
    const set = await put(sensor.sensorUuid, { signInverted: true });
    expect(set.status).toBe(200);
    expect(set.body.signInverted).toBe(true);
    const renamed = await put(sensor.sensorUuid, { name: 'Still inverted' });
    expect(renamed.body.signInverted).toBe(true);
    const read = await server.request('GET', sensorPath(plant, sensor.sensorUuid), {
      token: tokens.manager,
      query: { includeRelationships: true },
    });
    expect(read.body).toMatchObject({ signInverted: true, name: 'Still inverted' });
    const cleared = await put(sensor.sensorUuid, { signInverted: false });
    expect(cleared.body.signInverted).toBe(false);
  });

  it('answers 422 when signInverted would apply to other than power or current, changing nothing', async () => {
    const sensor = await powerSensor({ signInverted: true });
    const toEnergy = await put(sensor.sensorUuid, {
      sensorTypeUuid: sensorTypes.ENERGY_METER,
      dataTypesCollectUuids: [dataTypes.ENERGY],
    });
    expect(expectErrorBody(toEnergy, 422).message).toContain('signInverted');
    const read = await server.request('GET', sensorPath(plant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(read.body).toEqual(sensor);

    // Both together: no longer inverted, then an energy counter.
    const both = await put(sensor.sensorUuid, {
      sensorTypeUuid: sensorTypes.ENERGY_METER,
      dataTypesCollectUuids: [dataTypes.ENERGY],
      signInverted: false,
    });
    expect(both.status).toBe(200);
    const again = await put(sensor.sensorUuid, { signInverted: true });
    expect(expectErrorBody(again, 422).message).toContain('ENERGY');
    expect(
      expectErrorBody(await put(sensor.sensorUuid, { signInverted: 1 }), 400).message,
    ).toContain('signInverted');
  });

  describe('connection test', () => {
    it('tests a changed connection: 422 on failure, 200 when skipped', async () => {
      const sensor = await powerSensor();
      const failing = { vendorUuid: vendors.SIMULATOR, address: 'foo://x' };
      const refused = await put(sensor.sensorUuid, { connection: failing });
      expect(expectErrorBody(refused, 422).message).toContain('sim://');

      const skipped = await put(
        sensor.sensorUuid,
        { connection: failing },
        { ignoreConnectionsTest: 'true' },
      );
      expect(skipped.status).toBe(200);
      expect(skipped.body.connection).toEqual(failing);

      // Unchanged, the stored connection is not tested again.
      const unchanged = await put(sensor.sensorUuid, { connection: failing, name: 'Kept' });
      expect(unchanged.status).toBe(200);
      const untouched = await put(sensor.sensorUuid, { metadata: { circuit: 4 } });
      expect(untouched.status).toBe(200);
      expect(untouched.body.connection).toEqual(failing);

      const otherAddress = await put(sensor.sensorUuid, {
        connection: { vendorUuid: vendors.SIMULATOR, address: 'foo://y' },
      });
      expectErrorBody(otherAddress, 422);
    });

    it('tests a connection moved to another vendor', async () => {
      // The simulator refuses a modbus address: stored with the test skipped.
      const address = `modbus://127.0.0.1:${closedPort}`;
      const sensor = await createSensor(
        plant,
        {
          sensorTypeUuid: sensorTypes.POWER_METER,
          connection: { vendorUuid: vendors.SIMULATOR, address },
        },
        { ignoreConnectionsTest: 'true' },
      );
      const moved = await put(sensor.sensorUuid, {
        connection: { vendorUuid: vendors.FRONIUS, address },
      });
      expect(expectErrorBody(moved, 422).message).toContain(`127.0.0.1:${closedPort}`);
      const reachable = await put(sensor.sensorUuid, {
        connection: { vendorUuid: vendors.FRONIUS, address: `modbus://127.0.0.1:${openPort}` },
      });
      expect(reachable.status).toBe(200);
      expect(reachable.body.connection.vendorUuid).toBe(vendors.FRONIUS);
    });

    it('answers 422 for an unknown connection vendor', async () => {
      const sensor = await powerSensor();
      const response = await put(
        sensor.sensorUuid,
        { connection: { vendorUuid: MISSING_UUID, address: 'sim://x' } },
        { ignoreConnectionsTest: 'true' },
      );
      expect(expectErrorBody(response, 422).message).toContain('connection.vendorUuid');
    });
  });

  it.each([
    ['name', { name: null }],
    ['flow', { flow: 'UP' }],
    ['samplingIntervalSeconds', { samplingIntervalSeconds: 86_401 }],
    ['sensorTypeUuid', { sensorTypeUuid: null }],
    ['deviceUuid', { deviceUuid: 'x' }],
  ])('answers 400 naming %s for a bad body', async (field, body) => {
    const sensor = await powerSensor();
    expect(expectErrorBody(await put(sensor.sensorUuid, body), 400).message).toContain(field);
  });

  it('answers 400 for a malformed sensor uuid and a bad ignoreConnectionsTest', async () => {
    expect(expectErrorBody(await put('abc', { name: 'x' }), 400).message).toContain('sensorUuid');
    const sensor = await powerSensor();
    const response = await put(sensor.sensorUuid, { name: 'x' }, { ignoreConnectionsTest: 'yes!' });
    expect(expectErrorBody(response, 400).message).toContain('ignoreConnectionsTest');
  });

  it('answers 401 without a token or with a garbage one', async () => {
    const sensor = await powerSensor();
    const path = sensorPath(plant, sensor.sensorUuid);
    expectErrorBody(await server.request('PUT', path, { body: { name: 'x' } }), 401);
    expectErrorBody(
      await server.request('PUT', path, { body: { name: 'x' }, token: 'garbage' }),
      401,
    );
  });

  it('answers 403 to a manager', async () => {
    const sensor = await powerSensor();
    const response = await server.request('PUT', sensorPath(plant, sensor.sensorUuid), {
      token: tokens.manager,
      body: { name: 'x' },
    });
    expect(expectErrorBody(response, 403).message).toBe('Permission SENSORS UPDATE required');
  });

  it('answers 404 for an unknown sensor, a sensor of another plant, another organization', async () => {
    const sensor = await powerSensor();
    expectErrorBody(await put(MISSING_UUID, { name: 'x' }), 404);
    expectErrorBody(
      await server.request('PUT', sensorPath(siblingPlant, sensor.sensorUuid), {
        token: tokens.installer,
        body: { name: 'x' },
      }),
      404,
    );
    expectErrorBody(
      await server.request('PUT', sensorPath(plant, sensor.sensorUuid), {
        token: tokens.outsider,
        body: { name: 'x' },
      }),
      404,
    );
  });
});

describe('DELETE /plants/{plantUuid}/sensors/{sensorUuid}', () => {
  it('deletes the sensor with the data types it collects', async () => {
    const sensor = await createSensor(siblingPlant, { sensorTypeUuid: sensorTypes.POWER_METER });
    const response = await server.request('DELETE', sensorPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.installer,
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expectErrorBody(
      await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
        token: tokens.manager,
      }),
      404,
    );
    const collected = await server.server.context.db
      .selectFrom('sensor_data_types')
      .select('data_types_collect_uuid')
      .where('sensor_uuid', '=', sensor.sensorUuid)
      .execute();
    expect(collected).toEqual([]);
    expectErrorBody(
      await server.request('DELETE', sensorPath(siblingPlant, sensor.sensorUuid), {
        token: tokens.installer,
      }),
      404,
    );
  });

  it('keeps the device the sensor was linked to', async () => {
    const plant = await createPlant('installer');
    const device = await createDevice(plant, 'Meter');
    const sensor = await createSensor(plant, {
      sensorTypeUuid: sensorTypes.POWER_METER,
      deviceUuid: device,
    });
    await server.request('DELETE', sensorPath(plant, sensor.sensorUuid), {
      token: tokens.admin,
    });
    const read = await server.request('GET', `/plants/${plant}/devices/${device}`, {
      token: tokens.manager,
      query: { includeRelationships: true },
    });
    expect(read.status).toBe(200);
    expect(read.body.relationships.sensors).toEqual([]);
  });

  it('answers 404 for an unknown sensor, a sensor of another plant, another organization', async () => {
    const sensor = await createSensor(siblingPlant, { sensorTypeUuid: sensorTypes.POWER_METER });
    expectErrorBody(
      await server.request('DELETE', sensorPath(siblingPlant, MISSING_UUID), {
        token: tokens.installer,
      }),
      404,
    );
    expectErrorBody(
      await server.request('DELETE', sensorPath(demoPlant, sensor.sensorUuid), {
        token: tokens.installer,
      }),
      404,
    );
    expectErrorBody(
      await server.request('DELETE', sensorPath(siblingPlant, sensor.sensorUuid), {
        token: tokens.outsider,
      }),
      404,
    );
    const still = await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(still.status).toBe(200);
  });

  it('answers 400 for a malformed uuid', async () => {
    expectErrorBody(
      await server.request('DELETE', sensorPath(siblingPlant, 'x'), { token: tokens.installer }),
      400,
    );
  });

  it('answers 401 and 403', async () => {
    const sensor = await createSensor(siblingPlant, { sensorTypeUuid: sensorTypes.POWER_METER });
    const path = sensorPath(siblingPlant, sensor.sensorUuid);
    expectErrorBody(await server.request('DELETE', path), 401);
    expectErrorBody(await server.request('DELETE', path, { token: 'garbage' }), 401);
    const forbidden = await server.request('DELETE', path, { token: tokens.manager });
    expect(expectErrorBody(forbidden, 403).message).toBe('Permission SENSORS DELETE required');
  });
});

describe('POST /plants/{plantUuid}/sensors/{sensorUuid}/connection-test', () => {
  const testPath = (plantUuid: string, sensorUuid: string) =>
    `${sensorPath(plantUuid, sensorUuid)}/connection-test`;

  it('tests the stored connection again and answers the result, changing nothing', async () => {
    const address = `modbus://127.0.0.1:${openPort}`;
    const sensor = await createSensor(siblingPlant, {
      sensorTypeUuid: sensorTypes.POWER_METER,
      connection: { vendorUuid: vendors.FRONIUS, address },
    });
    const response = await server.request('POST', testPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ok: true,
      message: `Connected to 127.0.0.1:${openPort}`,
      address,
      testedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
    const read = await server.request('GET', sensorPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.manager,
    });
    expect(read.body.updatedAt).toBe(sensor.updatedAt);
  });

  it('a failing test is a result with the reason, not an error', async () => {
    const address = `modbus://127.0.0.1:${closedPort}`;
    const sensor = await createSensor(
      siblingPlant,
      {
        sensorTypeUuid: sensorTypes.POWER_METER,
        connection: { vendorUuid: vendors.FRONIUS, address },
      },
      { ignoreConnectionsTest: 'true' },
    );
    const response = await server.request('POST', testPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.installer,
    });
    expect(response.status).toBe(200);
    expect(response.body.ok).toBe(false);
    expect(response.body.message).toContain(`Cannot connect to 127.0.0.1:${closedPort}`);
  });

  it('a sensor without a connection answers ok: false', async () => {
    const sensor = await createSensor(siblingPlant, { sensorTypeUuid: sensorTypes.POWER_METER });
    const response = await server.request('POST', testPath(siblingPlant, sensor.sensorUuid), {
      token: tokens.installer,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      ok: false,
      message: 'The sensor has no connection to test',
      address: null,
    });
  });

  it('answers 401, 404 for another organization or plant, 400 for a malformed uuid', async () => {
    const sensor = await createSensor(siblingPlant, { sensorTypeUuid: sensorTypes.POWER_METER });
    expectErrorBody(await server.request('POST', testPath(siblingPlant, sensor.sensorUuid)), 401);
    expectErrorBody(
      await server.request('POST', testPath(siblingPlant, sensor.sensorUuid), {
        token: tokens.outsider,
      }),
      404,
    );
    expectErrorBody(
      await server.request('POST', testPath(demoPlant, sensor.sensorUuid), {
        token: tokens.installer,
      }),
      404,
    );
    expectErrorBody(
      await server.request('POST', testPath(siblingPlant, 'x'), { token: tokens.installer }),
      400,
    );
  });
});
