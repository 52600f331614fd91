import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { ingestMany } from '../../server/measurements/readingsStore.ts';
import { readingSensorOf } from '../../server/measurements/readingSensors.ts';
import {
  createDevice,
  createPlant,
  createSensor,
  expectStatus,
  demoAccountWith,
} from '../support/entities.ts';
import { expectErrorBody, TestServer, type DemoRole } from '../support/testServer.ts';

/**
 * The energy and history metrics over HTTP, with known readings ingested through
 * POST .../readings into plants in Europe/Rome and Asia/Kathmandu, and exact answers.
 * The server's clock is fixed at NOW: 2026-03-31T12:20+02:00 in Rome.
 */

const NOW = Date.parse('2026-03-31T10:20:00Z');
const MIN = 60_000;

let server: TestServer;
const tokens = {} as Record<DemoRole | 'consumptionOnly', string>;
let sensorTypes: Record<string, string>;
let deviceTypes: Record<string, string>;
let dataTypes: Record<string, string>;

/** Rome: a consumption meter, two device loads, PV, grid and battery. */
const rome = { plant: '', meter: '', heatPump: '', ev: '', pv: '', grid: '', battery: '' };
/** Kathmandu: no consumption sensor; consumption is the balance PV + grid + battery. */
const kathmandu = { plant: '', pv: '', grid: '', battery: '' };
/** Rome: two device-level consumption sensors and no plant-level one. */
const devices = { plant: '', first: '', second: '' };

type Series = ReturnType<typeof routes.dailyConsumption.response.parse>;
type Point = [timestamp: string, value: number | null, coverage: number];

const points = (series: Series): Point[] =>
  series.points.map((point) => [point.timestamp, point.value, point.coverage]);

/** `count` readings a minute apart from `start` (ISO), `value(k)` for the k-th. */
const everyMinute = (start: string, count: number, value: (k: number) => number) =>
  Array.from({ length: count }, (_, k) => ({
    timestamp: new Date(Date.parse(start) + k * MIN).toISOString(),
    value: value(k),
  }));

async function ingest(
  plant: string,
  sensor: string,
  readings: { timestamp: string; value: number }[],
) {
  for (let index = 0; index < readings.length; index += 10_000) {
    const response = await server.request('POST', `/plants/${plant}/sensors/${sensor}/readings`, {
      token: tokens.installer,
      body: { readings: readings.slice(index, index + 10_000) },
    });
    expectStatus(response, 202, 'ingest readings');
  }
}

async function device(plant: string, name: string, typeCode: string): Promise<string> {
  const created = await createDevice(server, tokens.installer, plant, {
    name,
    deviceTypeUuid: deviceTypes[typeCode],
  });
  return created.deviceUuid as string;
}

async function sensor(
  plant: string,
  name: string,
  flow: string,
  options: { device?: string; codes?: string[]; type?: string; interval?: number } = {},
): Promise<string> {
  const created = await createSensor(server, tokens.installer, plant, {
    name,
    flow,
    deviceUuid: options.device ?? null,
    sensorTypeUuid: sensorTypes[options.type ?? 'POWER_METER'],
    dataTypesCollectUuids: (options.codes ?? ['POWER']).map((code) => dataTypes[code]),
    samplingIntervalSeconds: options.interval ?? 60,
  });
  return created.sensorUuid as string;
}

async function get(
  path: string,
  query: Record<string, string> = {},
  role: keyof typeof tokens = 'manager',
) {
  return server.request('GET', path, { token: tokens[role], query });
}

async function series(
  route: keyof typeof routes,
  plant: string,
  query: Record<string, string> = {},
): Promise<Series> {
  const spec = routes[route];
  const response = await get(spec.path.replace('{plantUuid}', plant), query);
  return routes.dailyConsumption.response.parse(expectStatus(response, 200, route));
}

async function setUpRome(): Promise<void> {
  rome.plant = (await createPlant(server, tokens.installer, { name: 'Rome metrics' })).plantUuid;
  const plant = rome.plant;
  rome.meter = await sensor(plant, 'House meter', 'CONSUMPTION');
  rome.heatPump = await sensor(plant, 'Heat pump power', 'CONSUMPTION', {
    device: await device(plant, 'Heat pump', 'HEAT_PUMP'),
  });
  rome.ev = await sensor(plant, 'EV energy', 'CONSUMPTION', {
    device: await device(plant, 'Wallbox', 'EV_CHARGER'),
    codes: ['ENERGY'],
    type: 'ENERGY_METER',
    interval: 3600,
  });
  rome.pv = await sensor(plant, 'PV power', 'PRODUCTION', {
    device: await device(plant, 'Inverter', 'INVERTER'),
  });
  rome.grid = await sensor(plant, 'Grid meter', 'GRID');
  rome.battery = await sensor(plant, 'Battery power', 'STORAGE', {
    device: await device(plant, 'Battery', 'BATTERY'),
  });

  // The 23-hour day 2026-03-29: 1200 W from local midnight for 4 real hours (00:00+01:00 to
  // 05:00+02:00): 4.8 kWh.
  await ingest(
    plant,
    rome.meter,
    everyMinute('2026-03-28T23:00:00Z', 240, () => 1200),
  );
  // 2026-03-30: 1000 W for half an hour, 12:00 to 12:30: 0.5 kWh at coverage 0.5.
  await ingest(
    plant,
    rome.meter,
    everyMinute('2026-03-30T10:00:00Z', 30, () => 1000),
  );
  // 2026-03-31 (today): 600 W from 10:00 to 12:00: 1.2 kWh.
  await ingest(
    plant,
    rome.meter,
    everyMinute('2026-03-31T08:00:00Z', 120, () => 600),
  );
  // The 25-hour day 2026-10-25: 1200 W for 4 real hours from local midnight (00:00+02:00,
  // 01:00+02:00, 02:00+02:00, 02:00+01:00): 4.8 kWh.
  await ingest(
    plant,
    rome.meter,
    everyMinute('2026-10-24T22:00:00Z', 240, () => 1200),
  );

  // Today 10:00 to 12:00: heat pump 200 W (0.4 kWh); EV counter 100.0 → 100.3 → 100.5 kWh.
  await ingest(
    plant,
    rome.heatPump,
    everyMinute('2026-03-31T08:00:00Z', 120, () => 200),
  );
  await ingest(plant, rome.ev, [
    { timestamp: '2026-03-31T10:00:00+02:00', value: 100 },
    { timestamp: '2026-03-31T11:00:00+02:00', value: 100.3 },
    { timestamp: '2026-03-31T12:00:00+02:00', value: 100.5 },
  ]);
  // PV 1000 W for the first hour, 0 W for the second: 1 kWh.
  await ingest(
    plant,
    rome.pv,
    everyMinute('2026-03-31T08:00:00Z', 120, (k) => (k < 60 ? 1000 : 0)),
  );
  // Grid: each hour, 6 minutes of 500 W import then 54 minutes of 100 W export: 0.1 kWh
  // imported, though each first quarter-hour nets to only 0.035 kWh.
  await ingest(
    plant,
    rome.grid,
    everyMinute('2026-03-31T08:00:00Z', 120, (k) => (k % 60 < 6 ? 500 : -100)),
  );
  // Battery: charging 300 W for an hour, then discharging 250 W for an hour: 0.25 kWh.
  await ingest(
    plant,
    rome.battery,
    everyMinute('2026-03-31T08:00:00Z', 120, (k) => (k < 60 ? -300 : 250)),
  );
}

async function setUpKathmandu(): Promise<void> {
  kathmandu.plant = (
    await createPlant(server, tokens.installer, {
      name: 'Kathmandu metrics',
      location: { latitude: 27.7, longitude: 85.3, timezone: 'Asia/Kathmandu' },
    })
  ).plantUuid;
  const plant = kathmandu.plant;
  kathmandu.pv = await sensor(plant, 'PV power', 'PRODUCTION', {
    device: await device(plant, 'Inverter', 'INVERTER'),
  });
  kathmandu.grid = await sensor(plant, 'Grid meter', 'GRID');
  kathmandu.battery = await sensor(plant, 'Battery power', 'STORAGE', {
    device: await device(plant, 'Battery', 'BATTERY'),
  });
  // 2026-03-29 from 10:00+05:45 (04:15Z), one reading a minute:
  //   PV 2000 W 10:00–12:00, then 0 W to 13:00;
  //   grid −500 W 10:00–11:00, +300 W 11:00–12:30, then silent;
  //   battery −500 W 10:00–11:00, 0 W 11:00–12:00, +400 W 12:00–13:00.
  // Balance: 10:00 1000 W, 11:00 2300 W, 12:00 700 W over the half hour the grid is known.
  const start = '2026-03-29T04:15:00Z';
  await ingest(
    plant,
    kathmandu.pv,
    everyMinute(start, 180, (k) => (k < 120 ? 2000 : 0)),
  );
  await ingest(
    plant,
    kathmandu.grid,
    everyMinute(start, 150, (k) => (k < 60 ? -500 : 300)),
  );
  await ingest(
    plant,
    kathmandu.battery,
    everyMinute(start, 180, (k) => (k < 60 ? -500 : k < 120 ? 0 : 400)),
  );
}

async function setUpDeviceLoads(): Promise<void> {
  devices.plant = (await createPlant(server, tokens.installer, { name: 'Device loads' })).plantUuid;
  const plant = devices.plant;
  devices.first = await sensor(plant, 'Heat pump power', 'CONSUMPTION', {
    device: await device(plant, 'Heat pump', 'HEAT_PUMP'),
  });
  devices.second = await sensor(plant, 'Boiler power', 'CONSUMPTION', {
    device: await device(plant, 'Boiler', 'WATER_HEATER'),
  });
  // 2026-03-31 08:00–09:00: the heat pump 500 W all hour, the boiler 1000 W for half of it.
  await ingest(
    plant,
    devices.first,
    everyMinute('2026-03-31T06:00:00Z', 60, () => 500),
  );
  await ingest(
    plant,
    devices.second,
    everyMinute('2026-03-31T06:00:00Z', 30, () => 1000),
  );
}

/** A demo-organization account with only PLANT_POWER_CONSUMPTION READ. */
function consumptionOnlyToken(): Promise<string> {
  return demoAccountWith(server, 'consumption-only', ['PLANT_POWER_CONSUMPTION READ']);
}

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(NOW) });
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  tokens.consumptionOnly = await consumptionOnlyToken();
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  await setUpRome();
  await setUpKathmandu();
  await setUpDeviceLoads();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const nulls = (timestamps: string[]): Point[] =>
  timestamps.map((timestamp) => [timestamp, null, 0]);

describe('daily consumption and production', () => {
  it('answers the 7 local days ending with the reference day, a 23-hour day among them', async () => {
    const body = await series('dailyConsumption', rome.plant, { date: '2026-03-31' });
    expect(body).toMatchObject({
      plantUuid: rome.plant,
      timezone: 'Europe/Rome',
      unit: 'kWh',
      from: '2026-03-25T00:00:00+01:00',
      to: '2026-04-01T00:00:00+02:00',
    });
    expect(points(body)).toEqual([
      ...nulls([
        '2026-03-25T00:00:00+01:00',
        '2026-03-26T00:00:00+01:00',
        '2026-03-27T00:00:00+01:00',
        '2026-03-28T00:00:00+01:00',
      ]),
      ['2026-03-29T00:00:00+01:00', 4.8, 0.173913], // 4 of 23 hours
      ['2026-03-30T00:00:00+02:00', 0.5, 0.020833], // half an hour of 24
      ['2026-03-31T00:00:00+02:00', 1.2, 0.083333], // 2 of 24 hours
    ]);
  });

  it('defaults to the 7 days ending today in the plant zone', async () => {
    const today = await series('dailyConsumption', rome.plant);
    expect(today).toEqual(await series('dailyConsumption', rome.plant, { date: '2026-03-31' }));
  });

  it('covers a 25-hour day with its coverage over 25 hours', async () => {
    const body = await series('dailyConsumption', rome.plant, { date: '2026-10-25' });
    expect(body.to).toBe('2026-10-26T00:00:00+01:00');
    expect(points(body).at(-1)).toEqual(['2026-10-25T00:00:00+02:00', 4.8, 0.16]);
  });

  it('answers production from the PV sensor', async () => {
    const body = await series('dailyProduction', rome.plant, { date: '2026-03-31' });
    expect(points(body).at(-1)).toEqual(['2026-03-31T00:00:00+02:00', 1, 0.083333]);
    expect(body.points.slice(0, 6).every((point) => point.value === null)).toBe(true);
  });

  it('derives consumption from PV + grid + battery, as known as its least-known input', async () => {
    const body = await series('dailyConsumption', kathmandu.plant, { date: '2026-03-29' });
    expect(body.from).toBe('2026-03-23T00:00:00+05:45');
    // 1.0 + 2.3 + 0.35 kWh: from 12:30 the grid is silent, so the balance is unknown there
    // (PV and battery alone are not consumption); the grid has 2.5 of 24 hours.
    expect(points(body).at(-1)).toEqual(['2026-03-29T00:00:00+05:45', 3.65, 0.104167]);
    const production = await series('dailyProduction', kathmandu.plant, { date: '2026-03-29' });
    expect(points(production).at(-1)).toEqual(['2026-03-29T00:00:00+05:45', 4, 0.125]);
  });

  it('sums device-level consumption sensors, with their mean coverage', async () => {
    const body = await series('dailyConsumption', devices.plant, { date: '2026-03-31' });
    // 0.5 + 0.5 kWh; coverage (1 h + 0.5 h) / 2 sensors / 24 h.
    expect(points(body).at(-1)).toEqual(['2026-03-31T00:00:00+02:00', 1, 0.03125]);
  });

  it('answers only nulls for a plant without energy sensors', async () => {
    const empty = (await createPlant(server, tokens.installer)).plantUuid;
    const body = await series('dailyProduction', empty, { date: '2026-03-31' });
    expect(body.points).toHaveLength(7);
    expect(body.points.every((point) => point.value === null && point.coverage === 0)).toBe(true);
  });
});

describe('hourly consumption and production', () => {
  it('answers the 24 hours ending at the end of a 23-hour day', async () => {
    const body = await series('hourlyConsumption', rome.plant, { date: '2026-03-29' });
    expect(body.from).toBe('2026-03-28T23:00:00+01:00');
    expect(body.to).toBe('2026-03-30T00:00:00+02:00');
    expect(body.points).toHaveLength(24);
    expect(points(body).slice(0, 6)).toEqual([
      ['2026-03-28T23:00:00+01:00', null, 0],
      ['2026-03-29T00:00:00+01:00', 1.2, 1],
      ['2026-03-29T01:00:00+01:00', 1.2, 1],
      ['2026-03-29T03:00:00+02:00', 1.2, 1],
      ['2026-03-29T04:00:00+02:00', 1.2, 1],
      ['2026-03-29T05:00:00+02:00', null, 0],
    ]);
    expect(points(body).at(-1)).toEqual(['2026-03-29T23:00:00+02:00', null, 0]);
  });

  it('leaves the first hour out of a 25-hour day', async () => {
    const body = await series('hourlyConsumption', rome.plant, { date: '2026-10-25' });
    expect(body.from).toBe('2026-10-25T01:00:00+02:00');
    expect(points(body).slice(0, 4)).toEqual([
      ['2026-10-25T01:00:00+02:00', 1.2, 1],
      ['2026-10-25T02:00:00+02:00', 1.2, 1],
      ['2026-10-25T02:00:00+01:00', 1.2, 1],
      ['2026-10-25T03:00:00+01:00', null, 0],
    ]);
  });

  it('answers a partly covered hour with its coverage', async () => {
    const body = await series('hourlyConsumption', rome.plant, { date: '2026-03-30' });
    expect(points(body)[12]).toEqual(['2026-03-30T12:00:00+02:00', 0.5, 0.5]);
  });

  it('defaults to the 24 hours ending with the current hour', async () => {
    const body = await series('hourlyProduction', rome.plant);
    expect(body.from).toBe('2026-03-30T13:00:00+02:00');
    expect(body.to).toBe('2026-03-31T13:00:00+02:00');
    expect(points(body).slice(-3)).toEqual([
      ['2026-03-31T10:00:00+02:00', 1, 1],
      ['2026-03-31T11:00:00+02:00', 0, 1],
      ['2026-03-31T12:00:00+02:00', null, 0],
    ]);
  });

  it('answers Kathmandu hours at +05:45 with the balance per hour', async () => {
    const body = await series('hourlyConsumption', kathmandu.plant, { date: '2026-03-29' });
    expect(body.from).toBe('2026-03-29T00:00:00+05:45');
    expect(points(body).slice(9, 14)).toEqual([
      ['2026-03-29T09:00:00+05:45', null, 0],
      ['2026-03-29T10:00:00+05:45', 1, 1],
      ['2026-03-29T11:00:00+05:45', 2.3, 1],
      ['2026-03-29T12:00:00+05:45', 0.35, 0.5],
      ['2026-03-29T13:00:00+05:45', null, 0],
    ]);
    const production = await series('hourlyProduction', kathmandu.plant, { date: '2026-03-29' });
    expect(production.points.slice(10, 13).map((point) => point.value)).toEqual([2, 2, 0]);
  });
});

describe('summary of daily consumption', () => {
  const expected: Point[] = [
    ['2026-03-28T00:00:00+01:00', null, 0],
    ['2026-03-29T00:00:00+01:00', 4.8, 0.173913],
    ['2026-03-30T00:00:00+02:00', 0.5, 0.020833],
    ['2026-03-31T00:00:00+02:00', 1.2, 0.083333],
  ];

  it('answers one point per local day from startDate to endDate inclusive', async () => {
    const body = await series('summaryConsumption', rome.plant, {
      startDate: '2026-03-28',
      endDate: '2026-03-31',
    });
    expect(points(body)).toEqual(expected);
    expect(body.to).toBe('2026-04-01T00:00:00+02:00');
  });

  it('ends today without endDate', async () => {
    const body = await series('summaryConsumption', rome.plant, { startDate: '2026-03-28' });
    expect(points(body)).toEqual(expected);
  });

  it('answers 366 days, not 367', async () => {
    const body = await series('summaryConsumption', rome.plant, {
      startDate: '2025-03-31',
      endDate: '2026-03-31',
    });
    expect(body.points).toHaveLength(366);
    const response = await get(`/plants/${rome.plant}/summary-daily-power-consumptions`, {
      startDate: '2025-03-30',
      endDate: '2026-03-31',
    });
    expect(expectErrorBody(response, 422).message).toBe(
      'The range from startDate 2025-03-30 to endDate 2026-03-31 spans 367 days; at most 366 days are allowed',
    );
  });

  it('answers 422 for a startDate after endDate, or after today without endDate', async () => {
    const path = `/plants/${rome.plant}/summary-daily-power-consumptions`;
    const inverted = await get(path, { startDate: '2026-03-31', endDate: '2026-03-30' });
    expect(expectErrorBody(inverted, 422).message).toBe(
      'startDate 2026-03-31 is after endDate 2026-03-30',
    );
    const future = await get(path, { startDate: '2026-04-01' });
    expect(expectErrorBody(future, 422).message).toBe(
      'startDate 2026-04-01 is after endDate (default today) 2026-03-31',
    );
  });
});

describe('summary of daily production (extension)', () => {
  const path = (plant: string) => `/plants/${plant}/summary-daily-power-productions`;

  it('answers the PV energy of each local day from startDate to endDate inclusive', async () => {
    const body = await series('summaryProduction', rome.plant, {
      startDate: '2026-03-28',
      endDate: '2026-03-31',
    });
    expect(body).toMatchObject({
      plantUuid: rome.plant,
      timezone: 'Europe/Rome',
      unit: 'kWh',
      from: '2026-03-28T00:00:00+01:00',
      to: '2026-04-01T00:00:00+02:00',
    });
    expect(points(body)).toEqual([
      ...nulls([
        '2026-03-28T00:00:00+01:00',
        '2026-03-29T00:00:00+01:00',
        '2026-03-30T00:00:00+02:00',
      ]),
      ['2026-03-31T00:00:00+02:00', 1, 0.083333], // 1000 W for 1 of 24 hours, 0 W for another
    ]);
    const nepal = await series('summaryProduction', kathmandu.plant, {
      startDate: '2026-03-29',
      endDate: '2026-03-30',
    });
    expect(points(nepal)).toEqual([
      ['2026-03-29T00:00:00+05:45', 4, 0.125], // 2000 W for 2 hours, 0 W for a third
      ['2026-03-30T00:00:00+05:45', null, 0],
    ]);
  });

  it('answers the days the 7-day production route answers, and ends today without endDate', async () => {
    const week = await series('dailyProduction', rome.plant, { date: '2026-03-31' });
    const summary = await series('summaryProduction', rome.plant, { startDate: '2026-03-25' });
    expect(summary).toEqual(week);
  });

  it('answers 366 days, not 367', async () => {
    const body = await series('summaryProduction', rome.plant, {
      startDate: '2025-03-31',
      endDate: '2026-03-31',
    });
    expect(body.points).toHaveLength(366);
    const response = await get(path(rome.plant), {
      startDate: '2025-03-30',
      endDate: '2026-03-31',
    });
    expect(expectErrorBody(response, 422).message).toBe(
      'The range from startDate 2025-03-30 to endDate 2026-03-31 spans 367 days; at most 366 days are allowed',
    );
  });

  it('answers 422 for a startDate after endDate, or after today without endDate', async () => {
    const inverted = await get(path(rome.plant), {
      startDate: '2026-03-31',
      endDate: '2026-03-30',
    });
    expect(expectErrorBody(inverted, 422).message).toBe(
      'startDate 2026-03-31 is after endDate 2026-03-30',
    );
    const future = await get(path(rome.plant), { startDate: '2026-04-01' });
    expect(expectErrorBody(future, 422).message).toBe(
      'startDate 2026-04-01 is after endDate (default today) 2026-03-31',
    );
  });

  it('answers 400 for a malformed date, 403 without PLANT_POWER_PRODUCTION READ, 404 for another organization', async () => {
    const malformed = await get(path(rome.plant), { startDate: '31.03.2026' });
    expect(expectErrorBody(malformed, 400).message).toContain(
      'startDate must be a date in the format yyyy-MM-dd',
    );
    const query = { startDate: '2026-03-28' };
    const forbidden = await get(path(rome.plant), query, 'consumptionOnly');
    expect(expectErrorBody(forbidden, 403).message).toBe(
      'Permission PLANT_POWER_PRODUCTION READ required',
    );
    expectErrorBody(await get(path(rome.plant), query, 'outsider'), 404);
  });
});

describe('power history', () => {
  const history = (plant: string, query: Record<string, string>, kind = 'consumptions') =>
    series(kind === 'consumptions' ? 'historyConsumption' : 'historyProduction', plant, query);

  it('averages power per local hour by default', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-31T09:00',
      endDate: '2026-03-31T12:00',
    });
    expect(body).toMatchObject({
      unit: 'W',
      from: '2026-03-31T09:00:00+02:00',
      to: '2026-03-31T12:00:00+02:00',
    });
    expect(points(body)).toEqual([
      ['2026-03-31T09:00:00+02:00', null, 0],
      ['2026-03-31T10:00:00+02:00', 600, 1],
      ['2026-03-31T11:00:00+02:00', 600, 1],
    ]);
  });

  it('averages over the covered time only', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-30T12:00',
      endDate: '2026-03-30T13:00',
      granularity: 'hours',
    });
    expect(points(body)).toEqual([['2026-03-30T12:00:00+02:00', 1000, 0.5]]);
  });

  it('starts the buckets at the local hour holding startDate and ends with the one before endDate', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-31T10:30',
      endDate: '2026-03-31T11:10',
    });
    expect(points(body)).toEqual([
      ['2026-03-31T10:00:00+02:00', 600, 1],
      ['2026-03-31T11:00:00+02:00', 600, 1],
    ]);
  });

  it('averages per local day, 23-hour days included', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-29T00:00',
      endDate: '2026-04-01T00:00',
      granularity: 'days',
    });
    expect(points(body)).toEqual([
      ['2026-03-29T00:00:00+01:00', 1200, 0.173913],
      ['2026-03-30T00:00:00+02:00', 1000, 0.020833],
      ['2026-03-31T00:00:00+02:00', 600, 0.083333],
    ]);
  });

  it('answers minutes from the raw readings', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-30T12:28',
      endDate: '2026-03-30T12:32',
      granularity: 'minutes',
    });
    // The last reading, at 12:29, holds one sampling interval.
    expect(points(body)).toEqual([
      ['2026-03-30T12:28:00+02:00', 1000, 1],
      ['2026-03-30T12:29:00+02:00', 1000, 1],
      ['2026-03-30T12:30:00+02:00', null, 0],
      ['2026-03-30T12:31:00+02:00', null, 0],
    ]);
  });

  it('answers the raw samples for seconds', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-31T10:00',
      endDate: '2026-03-31T10:03',
      granularity: 'seconds',
    });
    expect(body.from).toBe('2026-03-31T10:00:00+02:00');
    expect(body.to).toBe('2026-03-31T10:03:00+02:00');
    expect(points(body)).toEqual([
      ['2026-03-31T10:00:00+02:00', 600, 1],
      ['2026-03-31T10:01:00+02:00', 600, 1],
      ['2026-03-31T10:02:00+02:00', 600, 1],
    ]);
  });

  it('answers the derived balance at each granularity in Kathmandu', async () => {
    const hours = await history(kathmandu.plant, {
      startDate: '2026-03-29T10:00',
      endDate: '2026-03-29T13:00',
    });
    // 12:00: PV 0 W + grid 300 W (its mean over its covered half hour) + battery 400 W.
    expect(points(hours)).toEqual([
      ['2026-03-29T10:00:00+05:45', 1000, 1],
      ['2026-03-29T11:00:00+05:45', 2300, 1],
      ['2026-03-29T12:00:00+05:45', 700, 0.5],
    ]);
    const minutes = await history(kathmandu.plant, {
      startDate: '2026-03-29T12:28',
      endDate: '2026-03-29T12:31',
      granularity: 'minutes',
    });
    expect(points(minutes)).toEqual([
      ['2026-03-29T12:28:00+05:45', 700, 1],
      ['2026-03-29T12:29:00+05:45', 700, 1],
      ['2026-03-29T12:30:00+05:45', null, 0],
    ]);
    const seconds = await history(kathmandu.plant, {
      startDate: '2026-03-29T10:59',
      endDate: '2026-03-29T11:01',
      granularity: 'seconds',
    });
    expect(points(seconds)).toEqual([
      ['2026-03-29T10:59:00+05:45', 1000, 1],
      ['2026-03-29T11:00:00+05:45', 2300, 1],
    ]);
    const days = await history(kathmandu.plant, {
      startDate: '2026-03-29T00:00',
      endDate: '2026-03-30T00:00',
      granularity: 'days',
    });
    // The balance over the 2.5 h where every term is measured: 3.65 kWh / 2.5 h.
    expect(points(days)).toEqual([['2026-03-29T00:00:00+05:45', 1460, 0.104167]]);
  });

  it('answers production history from the PV sensor', async () => {
    const body = await history(
      rome.plant,
      { startDate: '2026-03-31T10:00', endDate: '2026-03-31T12:00' },
      'productions',
    );
    expect(points(body).map((point) => point[1])).toEqual([1000, 0]);
  });

  it('answers an empty series for equal startDate and endDate', async () => {
    const body = await history(rome.plant, {
      startDate: '2026-03-31T10:00',
      endDate: '2026-03-31T10:00',
    });
    expect(body.points).toEqual([]);
    expect(body.from).toBe('2026-03-31T10:00:00+02:00');
  });

  it('answers 422 for startDate after endDate', async () => {
    const response = await get(`/plants/${rome.plant}/sensor-history-consumptions`, {
      startDate: '2026-03-31T10:01',
      endDate: '2026-03-31T10:00',
    });
    expect(expectErrorBody(response, 422).message).toBe(
      'startDate 2026-03-31T10:01 is after endDate 2026-03-31T10:00',
    );
  });

  it('answers 422 naming a coarser granularity beyond 100,000 points', async () => {
    const path = `/plants/${rome.plant}/sensor-history-consumptions`;
    const minutes = await get(path, {
      startDate: '2026-01-01T00:00',
      endDate: '2026-03-31T00:00',
      granularity: 'minutes',
    });
    expect(expectErrorBody(minutes, 422).message).toBe(
      'Granularity minutes gives 128100 points from startDate 2026-01-01T00:00 to endDate ' +
        '2026-03-31T00:00, more than the maximum of 100000; use a coarser granularity: hours (2135 points)',
    );
    const days = await get(path, {
      startDate: '1980-01-01T00:00',
      endDate: '2300-01-01T00:00',
      granularity: 'days',
    });
    expect(expectErrorBody(days, 422).message).toMatch(
      /more than the maximum of 100000; shorten the range$/,
    );
  });

  it('counts the raw samples for seconds', async () => {
    const plant = (await createPlant(server, tokens.installer)).plantUuid;
    const pv = await sensor(plant, 'Fast PV', 'PRODUCTION', { interval: 1 });
    const db = server.server.context.db;
    const start = Date.parse('2026-03-30T00:00:00Z');
    const count = 100_001;
    await ingestMany(db, [
      {
        sensor: (await readingSensorOf(db, pv))!,
        takenAt: Array.from({ length: count }, (_, k) => start + k * 1000),
        values: Array.from({ length: count }, () => 100),
      },
    ]);
    const path = `/plants/${plant}/sensor-history-productions`;
    const range = { startDate: '2026-03-30T02:00', endDate: '2026-03-31T06:00' };
    const tooMany = await get(path, { ...range, granularity: 'seconds' });
    expect(expectErrorBody(tooMany, 422).message).toBe(
      'Granularity seconds gives 100001 points from startDate 2026-03-30T02:00 to endDate ' +
        '2026-03-31T06:00, more than the maximum of 100000; use a coarser granularity: minutes (1680 points)',
    );
    const fewer = await get(path, {
      startDate: '2026-03-30T02:00',
      endDate: '2026-03-30T03:00',
      granularity: 'seconds',
    });
    expect(expectStatus(fewer, 200, 'seconds').points).toHaveLength(3600);
  }, 30_000);
});

describe('energy breakdown', () => {
  const breakdown = async (plant: string, startDate: string, endDate: string) => {
    const response = await get(`/plants/${plant}/sensor-history-energy`, { startDate, endDate });
    return routes.energyBreakdown.response.parse(expectStatus(response, 200, 'breakdown'));
  };
  const shares = (
    entries: { name: string; sensorUuid: string | null; energyKwh: number; percentage: number }[],
  ) => entries.map((entry) => [entry.name, entry.sensorUuid, entry.energyKwh, entry.percentage]);
  const total = (entries: { percentage: number }[]) =>
    entries.reduce((sum, entry) => sum + entry.percentage, 0);

  it('splits loads with Unmeasured and sources with exact grid import, percentages summing to 100', async () => {
    const body = await breakdown(rome.plant, '2026-03-31T10:00', '2026-03-31T12:00');
    expect(body).toMatchObject({
      plantUuid: rome.plant,
      timezone: 'Europe/Rome',
      unit: 'kWh',
      from: '2026-03-31T10:00:00+02:00',
      to: '2026-03-31T12:00:00+02:00',
    });
    expect(shares(body.loads)).toEqual([
      ['EV energy', rome.ev, 0.5, 41.67],
      ['Heat pump power', rome.heatPump, 0.4, 33.33],
      ['Unmeasured', null, 0.3, 25],
    ]);
    expect(body.loads[0]).toMatchObject({ deviceTypeCode: 'EV_CHARGER' });
    expect(body.loads[2]).toMatchObject({ deviceUuid: null, deviceTypeCode: null });
    expect(shares(body.sources)).toEqual([
      ['PV power', rome.pv, 1, 74.07],
      ['Grid import', rome.grid, 0.1, 7.41],
      ['Battery discharge', rome.battery, 0.25, 18.52],
    ]);
    expect(body.sources.map((source) => source.deviceTypeCode)).toEqual([
      'INVERTER',
      null,
      'BATTERY',
    ]);
    expect(total(body.loads)).toBeCloseTo(100, 9);
    expect(total(body.sources)).toBeCloseTo(100, 9);
  });

  it('nets import per quarter-hour over ranges longer than 31 days', async () => {
    const body = await breakdown(rome.plant, '2026-03-01T00:00', '2026-04-15T00:00');
    // The meter: 4.8 + 0.5 + 1.2 kWh; the loads 0.4 + 0.5 kWh.
    expect(body.loads.map((load) => load.energyKwh)).toEqual([0.5, 0.4, 5.6]);
    // Each hour's first quarter nets to 6 min × 500 W − 9 min × 100 W = 0.035 kWh.
    expect(body.sources.map((source) => source.energyKwh)).toEqual([1, 0.07, 0.25]);
    expect(total(body.sources)).toBeCloseTo(100, 9);
  });

  it('widens the range to whole quarter-hours', async () => {
    const body = await breakdown(rome.plant, '2026-03-31T10:05', '2026-03-31T11:50');
    expect(body.from).toBe('2026-03-31T10:00:00+02:00');
    expect(body.to).toBe('2026-03-31T12:00:00+02:00');
  });

  it('has no Unmeasured energy when device-level sensors are the consumption', async () => {
    const body = await breakdown(devices.plant, '2026-03-31T08:00', '2026-03-31T09:00');
    expect(shares(body.loads)).toEqual([
      ['Boiler power', devices.second, 0.5, 50],
      ['Heat pump power', devices.first, 0.5, 50],
      ['Unmeasured', null, 0, 0],
    ]);
    expect(body.sources).toEqual([]);
  });

  it('answers the balance as Unmeasured when no consumption is metered', async () => {
    const body = await breakdown(kathmandu.plant, '2026-03-29T10:00', '2026-03-29T13:00');
    expect(shares(body.loads)).toEqual([['Unmeasured', null, 3.65, 100]]);
    // Import 300 W × 1.5 h; discharge 400 W × 1 h.
    expect(shares(body.sources)).toEqual([
      ['PV power', kathmandu.pv, 4, 82.47],
      ['Grid import', kathmandu.grid, 0.45, 9.28],
      ['Battery discharge', kathmandu.battery, 0.4, 8.25],
    ]);
  });

  it('answers 0 percentages when nothing was measured', async () => {
    const body = await breakdown(rome.plant, '2020-01-01T00:00', '2020-01-02T00:00');
    expect(body.loads.map((load) => [load.energyKwh, load.percentage])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  it('answers 422 for startDate after endDate', async () => {
    const response = await get(`/plants/${rome.plant}/sensor-history-energy`, {
      startDate: '2026-03-31T12:00',
      endDate: '2026-03-31T10:00',
    });
    expect(expectErrorBody(response, 422).message).toBe(
      'startDate 2026-03-31T12:00 is after endDate 2026-03-31T10:00',
    );
  });
});

describe('a balance with partial coverage', () => {
  // UTC, 2026-05-01: PV 2000 W from 00:00 to 12:00 only, grid import 500 W all day. The
  // balance is known only while both are: 12 h × 2500 W = 30 kWh at coverage 0.5.
  let plant: string;
  let pv: string;
  beforeAll(async () => {
    plant = (
      await createPlant(server, tokens.installer, {
        name: 'UTC balance',
        location: { latitude: 51.5, longitude: 0, timezone: 'UTC' },
      })
    ).plantUuid;
    pv = await sensor(plant, 'PV power', 'PRODUCTION');
    const grid = await sensor(plant, 'Grid meter', 'GRID');
    await ingest(
      plant,
      pv,
      everyMinute('2026-05-01T00:00:00+00:00', 720, () => 2000),
    );
    await ingest(
      plant,
      grid,
      everyMinute('2026-05-01T00:00:00+00:00', 1440, () => 500),
    );
  });

  it('counts only the quarter-hours where every term is measured, day equal to its hours', async () => {
    const daily = await series('dailyConsumption', plant, { date: '2026-05-01' });
    expect(points(daily).at(-1)).toEqual(['2026-05-01T00:00:00+00:00', 30, 0.5]);
    const hourly = await series('hourlyConsumption', plant, { date: '2026-05-01' });
    expect(points(hourly)).toEqual(
      Array.from({ length: 24 }, (_, hour): Point => [
        `2026-05-01T${String(hour).padStart(2, '0')}:00:00+00:00`,
        hour < 12 ? 2.5 : null,
        hour < 12 ? 1 : 0,
      ]),
    );
    const summary = await series('summaryConsumption', plant, {
      startDate: '2026-04-30',
      endDate: '2026-05-02',
    });
    expect(points(summary)).toEqual([
      ['2026-04-30T00:00:00+00:00', null, 0],
      ['2026-05-01T00:00:00+00:00', 30, 0.5],
      ['2026-05-02T00:00:00+00:00', null, 0],
    ]);
  });

  it('answers the same balance as Unmeasured and as mean power', async () => {
    const response = await get(`/plants/${plant}/sensor-history-energy`, {
      startDate: '2026-05-01T00:00',
      endDate: '2026-05-02T00:00',
    });
    const body = routes.energyBreakdown.response.parse(expectStatus(response, 200, 'breakdown'));
    expect(body.loads.map((load) => [load.name, load.energyKwh])).toEqual([['Unmeasured', 30]]);
    expect(body.sources.map((source) => [source.name, source.energyKwh])).toEqual([
      ['PV power', 24],
      ['Grid import', 12],
    ]);
    const days = await series('historyConsumption', plant, {
      startDate: '2026-05-01T00:00',
      endDate: '2026-05-02T00:00',
      granularity: 'days',
    });
    expect(points(days)).toEqual([['2026-05-01T00:00:00+00:00', 2500, 0.5]]);
  });
});

describe('an energy counter across a long gap', () => {
  // New York: counter 1000 kWh at 2026-03-10 00:00 local, 2872 kWh at 2026-10-30 00:00 local,
  // nothing between: +1872 kWh over 234 local days of 24 h, 8 kWh a day.
  let plant: string;
  beforeAll(async () => {
    plant = (
      await createPlant(server, tokens.installer, {
        name: 'New York counter',
        location: { latitude: 40.7, longitude: -74, timezone: 'America/New_York' },
      })
    ).plantUuid;
    const meter = await sensor(plant, 'House energy', 'CONSUMPTION', {
      codes: ['ENERGY'],
      type: 'ENERGY_METER',
      interval: 900,
    });
    await ingest(plant, meter, [
      { timestamp: '2026-03-10T00:00:00-04:00', value: 1000 },
      { timestamp: '2026-10-30T00:00:00-04:00', value: 2872 },
    ]);
  });

  it('spreads the increase evenly over every day of the gap', async () => {
    const summary = await series('summaryConsumption', plant, {
      startDate: '2026-09-01',
      endDate: '2026-10-30',
    });
    expect(summary.points).toHaveLength(60);
    expect(points(summary).slice(0, 59)).toEqual(
      Array.from({ length: 59 }, (_, day): Point => {
        const date = new Date(Date.UTC(2026, 8, 1 + day)).toISOString().slice(0, 10);
        return [`${date}T00:00:00-04:00`, 8, 1];
      }),
    );
    expect(points(summary).at(-1)).toEqual(['2026-10-30T00:00:00-04:00', null, 0]);
    const march = await series('summaryConsumption', plant, {
      startDate: '2026-03-09',
      endDate: '2026-03-11',
    });
    expect(points(march)).toEqual([
      ['2026-03-09T00:00:00-04:00', null, 0],
      ['2026-03-10T00:00:00-04:00', 8, 1],
      ['2026-03-11T00:00:00-04:00', 8, 1],
    ]);
  });
});

describe('fresh answers after changes', () => {
  // The handlers remember answers (metricsCache.ts) until the database is written to.
  let plant: string;
  let meter: string;
  const today = () => series('dailyConsumption', plant, { date: '2026-03-31' });
  const lastValue = async () => (await today()).points.at(-1)!.value;

  beforeAll(async () => {
    plant = (await createPlant(server, tokens.installer, { name: 'Changing plant' })).plantUuid;
    meter = await sensor(plant, 'Meter', 'CONSUMPTION');
    await ingest(
      plant,
      meter,
      everyMinute('2026-03-31T08:00:00Z', 60, () => 1200),
    );
  });

  it('answers a remembered answer exactly as it computed it, as JSON', async () => {
    const path = `/plants/${plant}/daily-power-consumptions`;
    const first = await get(path, { date: '2026-03-30' });
    const again = await get(path, { date: '2026-03-30' });
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(again.body).toEqual(first.body);
    routes.dailyConsumption.response.parse(again.body);
  });

  it('sees new readings', async () => {
    expect(await lastValue()).toBe(1.2);
    await ingest(
      plant,
      meter,
      everyMinute('2026-03-31T09:00:00Z', 60, () => 600),
    );
    expect(await lastValue()).toBe(1.8);
  });

  it("sees a sensor's new flow, a new sensor and a deleted one", async () => {
    const path = `/plants/${plant}/sensors/${meter}`;
    const update = await server.request('PUT', path, {
      token: tokens.installer,
      body: { flow: 'PRODUCTION' },
    });
    expectStatus(update, 200, 'update sensor');
    expect(await lastValue()).toBeNull();
    const other = await sensor(plant, 'Second meter', 'CONSUMPTION');
    await ingest(
      plant,
      other,
      everyMinute('2026-03-31T08:00:00Z', 30, () => 1000),
    );
    expect(await lastValue()).toBe(0.5);
    expectStatus(
      await server.request('DELETE', `/plants/${plant}/sensors/${other}`, {
        token: tokens.installer,
      }),
      204,
      'delete sensor',
    );
    expect(await lastValue()).toBeNull();
  });

  it('sees a device deleted from under its sensor', async () => {
    const heater = await device(plant, 'Heater', 'WATER_HEATER');
    const load = await sensor(plant, 'Heater power', 'CONSUMPTION', { device: heater });
    const plantMeter = await sensor(plant, 'Main meter', 'CONSUMPTION');
    await ingest(
      plant,
      load,
      everyMinute('2026-03-31T12:00:00Z', 60, () => 300),
    );
    // The plant-level meter has no readings that day: the day has no consumption.
    expect(await lastValue()).toBeNull();
    expectStatus(
      await server.request('DELETE', `/plants/${plant}/devices/${heater}`, {
        token: tokens.installer,
      }),
      204,
      'delete device',
    );
    // Now both are plant-level CONSUMPTION sensors, summed.
    expect(await lastValue()).toBe(0.3);
    expect(plantMeter).toBeTruthy();
  });
});

describe('errors', () => {
  const daily = () => `/plants/${rome.plant}/daily-power-consumptions`;
  const historyPath = () => `/plants/${rome.plant}/sensor-history-consumptions`;

  it('answers 400 naming the parameter and the format', async () => {
    const cases: [string, Record<string, string>, string][] = [
      [daily(), { date: '2026-3-31' }, 'date must be a date in the format yyyy-MM-dd'],
      [daily(), { date: '2026-02-30' }, 'date must be a date in the format yyyy-MM-dd'],
      [
        `/plants/${rome.plant}/summary-daily-power-consumptions`,
        { startDate: '31.03.2026' },
        'startDate must be a date in the format yyyy-MM-dd',
      ],
      [
        historyPath(),
        { startDate: '2026-03-31 10:00', endDate: '2026-03-31T11:00' },
        "startDate must be a date-time in the format yyyy-MM-dd'T'HH:mm",
      ],
      [
        historyPath(),
        { startDate: '2026-03-31T10:00', endDate: '2026-03-31T24:00' },
        "endDate must be a date-time in the format yyyy-MM-dd'T'HH:mm",
      ],
      [
        historyPath(),
        { startDate: '2026-03-31T10:00', endDate: '2026-03-31T11:00', granularity: 'weeks' },
        'granularity must be one of seconds, minutes, hours, days',
      ],
      [`/plants/${rome.plant}/sensor-history-energy`, { endDate: '2026-03-31T11:00' }, 'startDate'],
    ];
    for (const [path, query, message] of cases) {
      const body = expectErrorBody(await get(path, query), 400);
      expect(body.message, JSON.stringify(query)).toContain(message);
    }
  });

  it('answers 401 without a token', async () => {
    expectErrorBody(await server.request('GET', daily(), { token: null }), 401);
  });

  it('answers 403 naming the missing permission', async () => {
    const production = await get(
      `/plants/${rome.plant}/daily-power-productions`,
      {},
      'consumptionOnly',
    );
    expect(expectErrorBody(production, 403).message).toBe(
      'Permission PLANT_POWER_PRODUCTION READ required',
    );
    const energy = await get(
      `/plants/${rome.plant}/sensor-history-energy`,
      { startDate: '2026-03-31T10:00', endDate: '2026-03-31T12:00' },
      'consumptionOnly',
    );
    expect(expectErrorBody(energy, 403).message).toBe(
      'Permission PLANT_POWER_PRODUCTION READ required',
    );
    expectStatus(await get(daily(), {}, 'consumptionOnly'), 200, 'consumption allowed');
  });

  it("answers 404 for another organization's plant", async () => {
    for (const path of [daily(), `/plants/${rome.plant}/hourly-power-productions`]) {
      expectErrorBody(await get(path, {}, 'outsider'), 404);
    }
  });
});
