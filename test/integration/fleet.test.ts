import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { createPlant, createSensor, expectStatus, demoAccountWith } from '../support/entities.ts';
import { expectErrorBody, newPlantBody, TestServer, type DemoRole } from '../support/testServer.ts';

/**
 * The fleet extensions over HTTP with known readings: `GET /plant-summaries` and
 * `GET /plants/{plantUuid}/sensor-statuses`. The server's clock is fixed at local noon in Rome on
 * the summer solstice, NOW = 2026-06-21T12:00+02:00.
 */

const NOW = Date.parse('2026-06-21T10:00:00Z');
const MIN = 60_000;
const LOCAL_MIDNIGHT = Date.parse('2026-06-20T22:00:00Z');

let server: TestServer;
const tokens = {} as Record<DemoRole | 'plantsOnly', string>;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;

const rome = {
  plant: '',
  pv: '',
  meter: '',
  silent: '',
  late: '',
  never: '',
  stuck: '',
};
let empty = '';
let outsiderPlant = '';

/** Readings a minute apart over [from, to), value(t) for the instant t. */
function minutes(from: number, to: number, value: (t: number) => number) {
  const readings: { timestamp: string; value: number }[] = [];
  for (let t = from; t < to; t += MIN)
    readings.push({ timestamp: new Date(t).toISOString(), value: value(t) });
  return readings;
}

async function ingest(
  plant: string,
  sensor: string,
  readings: { timestamp: string; value: number }[],
) {
  const response = await server.request('POST', `/plants/${plant}/sensors/${sensor}/readings`, {
    token: tokens.installer,
    body: { readings },
  });
  expectStatus(response, 202, 'ingest readings');
}

async function sensor(
  plant: string,
  name: string,
  flow: string,
  codes = ['POWER'],
  type = 'POWER_METER',
) {
  const created = await createSensor(server, tokens.installer, plant, {
    name,
    flow,
    sensorTypeUuid: sensorTypes[type],
    dataTypesCollectUuids: codes.map((code) => dataTypes[code]),
    samplingIntervalSeconds: 60,
  });
  return created.sensorUuid as string;
}

function plantsOnlyToken(): Promise<string> {
  return demoAccountWith(server, 'plants-only', ['PLANTS READ', 'SENSORS READ']);
}

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(NOW) });
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  tokens.plantsOnly = await plantsOnlyToken();
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');

  rome.plant = (
    await createPlant(server, tokens.installer, {
      name: 'Fleet Rome',
      externalIds: ['FLEET-ROME'],
      pv: { peakPowerKw: 5 },
    })
  ).plantUuid;
  rome.pv = await sensor(rome.plant, 'PV inverter', 'PRODUCTION');
  rome.meter = await sensor(rome.plant, 'House meter', 'CONSUMPTION');
  rome.silent = await sensor(rome.plant, 'Heat pump meter', 'CONSUMPTION');
  rome.late = await sensor(rome.plant, 'Wallbox meter', 'CONSUMPTION');
  rome.never = await sensor(rome.plant, 'Spare meter', 'CONSUMPTION');
  rome.stuck = await sensor(
    rome.plant,
    'Cellar temperature',
    'CONSUMPTION',
    ['TEMPERATURE'],
    'TEMPERATURE_SENSOR',
  );

  // PV: 0 W through the night, 2 kW from 06:00 local until now.
  const dawn = LOCAL_MIDNIGHT + 6 * 60 * MIN;
  await ingest(
    rome.plant,
    rome.pv,
    minutes(LOCAL_MIDNIGHT, NOW, (t) => (t < dawn ? 0 : 2000)),
  );
  // The house: 1 kW since midnight, so the last 24 hours are half covered.
  await ingest(
    rome.plant,
    rome.meter,
    minutes(LOCAL_MIDNIGHT, NOW, () => 1000),
  );
  // The heat pump stopped reporting at 09:00 local; the wallbox 4 minutes ago.
  await ingest(
    rome.plant,
    rome.silent,
    minutes(NOW - 4 * 60 * MIN, NOW - 3 * 60 * MIN, () => 500),
  );
  await ingest(
    rome.plant,
    rome.late,
    minutes(NOW - 30 * MIN, NOW - 3 * MIN, () => 7000),
  );
  // The cellar: 14.5 °C until two hours ago, then 15 °C every minute since.
  await ingest(
    rome.plant,
    rome.stuck,
    minutes(NOW - 3 * 60 * MIN, NOW, (t) => (t < NOW - 2 * 60 * MIN ? 14.5 : 15)),
  );

  empty = (await createPlant(server, tokens.installer, { name: 'Fleet Kathmandu' })).plantUuid;
  outsiderPlant = (
    await createPlant(server, tokens.outsider, newPlantBody({ name: 'Fleet Other' }))
  ).plantUuid;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

type Summary = ReturnType<typeof routes.listPlantSummaries.response.parse>['content'][number];

async function summaries(role: keyof typeof tokens, query: Record<string, string | number> = {}) {
  const response = await server.request('GET', '/plant-summaries', {
    token: tokens[role],
    query: { size: 200, ...query },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return routes.listPlantSummaries.response.parse(response.body);
}

const byName = (list: { content: Summary[] }, name: string) =>
  list.content.find((summary) => summary.name === name)!;

describe('GET /plant-summaries', () => {
  it("lists the organization's plants with today's figures, equal to the metrics routes'", async () => {
    const list = await summaries('manager');
    const names = list.content.map((summary) => summary.name);
    expect(names).toContain('Fleet Rome');
    expect(names).toContain('Fleet Kathmandu');
    expect(names).not.toContain('Fleet Other');

    const summary = byName(list, 'Fleet Rome');
    const daily = async (kind: 'productions' | 'consumptions') => {
      const response = await server.request('GET', `/plants/${rome.plant}/daily-power-${kind}`, {
        token: tokens.manager,
      });
      return (response.body.points as { value: number | null }[]).at(-1)!.value;
    };
    expect(summary).toMatchObject({
      plantUuid: rome.plant,
      externalIds: ['FLEET-ROME'],
      timezone: 'Europe/Rome',
      peakPowerKw: 5,
      localDate: '2026-06-21',
      lastReadingAt: new Date(NOW - MIN).toISOString(),
      sensorCounts: { total: 6, REPORTING: 3, LATE: 1, SILENT: 1, NEVER: 1 },
    });
    expect(summary.productionKwh).toBe(await daily('productions'));
    expect(summary.productionKwh).toBeCloseTo(12, 1);
    expect(summary.consumptionKwh).toBe(await daily('consumptions'));
    expect(summary.specificYieldKwhPerKwp).toBeCloseTo(summary.productionKwh! / 5, 3);
    expect(summary.expectedProductionKwh).toBeGreaterThan(0);
    expect(summary.productionPercentOfExpected).toBeCloseTo(
      (summary.productionKwh! / summary.expectedProductionKwh!) * 100,
      1,
    );

    const bare = byName(list, 'Fleet Kathmandu');
    expect(bare).toMatchObject({
      peakPowerKw: null,
      lastReadingAt: null,
      specificYieldKwhPerKwp: null,
      expectedProductionKwh: null,
      sensorCounts: { total: 0, REPORTING: 0, LATE: 0, SILENT: 0, NEVER: 0 },
    });
  });

  it('answers null figures, never a 403, without the metrics permissions', async () => {
    const summary = byName(await summaries('plantsOnly'), 'Fleet Rome');
    expect(summary).toMatchObject({
      productionKwh: null,
      consumptionKwh: null,
      specificYieldKwhPerKwp: null,
      status: null,
      performancePercent: null,
      sensorCounts: { total: 6 },
    });
  });

  it('sorts by computed figures, pages, searches and filters', async () => {
    const sorted = await summaries('manager', { sort: 'productionKwh,desc' });
    expect(sorted.content[0]!.productionKwh).toBeGreaterThanOrEqual(
      sorted.content[1]!.productionKwh ?? 0,
    );
    // Plants without a figure come last in either direction.
    const ascending = await summaries('manager', { sort: 'productionKwh,asc' });
    expect(ascending.content.at(-1)!.productionKwh).toBeNull();

    const paged = await summaries('manager', { size: 1, page: 1, sort: 'name,asc' });
    expect(paged.content).toHaveLength(1);
    expect(paged.page).toMatchObject({ number: 1, size: 1 });

    const searched = await summaries('manager', { search: 'fleet-rome' });
    expect(searched.content.map((summary) => summary.name)).toEqual(['Fleet Rome']);

    const status = byName(await summaries('manager'), 'Fleet Rome').status!;
    const filtered = await summaries('manager', { status });
    expect(filtered.content.every((summary) => summary.status === status)).toBe(true);
    expect(filtered.content.map((summary) => summary.name)).toContain('Fleet Rome');
  });

  it('answers 400 for an unknown status or sort property, 401 without a token', async () => {
    const badStatus = await server.request('GET', '/plant-summaries', {
      token: tokens.manager,
      query: { status: 'BROKEN' },
    });
    expect(expectErrorBody(badStatus, 400).message).toContain('status');
    const badSort = await server.request('GET', '/plant-summaries', {
      token: tokens.manager,
      query: { sort: 'secret,asc' },
    });
    expectErrorBody(badSort, 400);
    expectErrorBody(await server.request('GET', '/plant-summaries'), 401);
  });
});

describe('GET /plants/{plantUuid}/sensor-statuses', () => {
  it('tells reporting, late, silent and never apart, with the last value, its unit and age', async () => {
    const response = await server.request('GET', `/plants/${rome.plant}/sensor-statuses`, {
      token: tokens.manager,
    });
    expect(response.status).toBe(200);
    const body = routes.listSensorStatuses.response.parse(response.body);
    expect(body.evaluatedAt).toBe(new Date(NOW).toISOString());
    const byUuid = new Map(body.sensors.map((status) => [status.sensorUuid, status]));

    expect(byUuid.get(rome.meter)).toMatchObject({
      state: 'REPORTING',
      lastReadingAt: new Date(NOW - MIN).toISOString(),
      lastValue: 1000,
      unit: 'W',
      expectedIntervalSeconds: 60,
      lastChangedAt: new Date(LOCAL_MIDNIGHT).toISOString(),
    });
    expect(byUuid.get(rome.meter)!.coverage24h).toBeCloseTo(0.5, 2);
    expect(byUuid.get(rome.late)).toMatchObject({
      state: 'LATE',
      lastReadingAt: new Date(NOW - 4 * MIN).toISOString(),
    });
    expect(byUuid.get(rome.silent)).toMatchObject({
      state: 'SILENT',
      lastValue: 500,
      lastReadingAt: new Date(NOW - 3 * 60 * MIN - MIN).toISOString(),
    });
    expect(byUuid.get(rome.never)).toMatchObject({
      state: 'NEVER',
      lastReadingAt: null,
      lastValue: null,
      lastChangedAt: null,
      coverage24h: 0,
    });
    // Reporting the same value is not the same problem as not reporting.
    expect(byUuid.get(rome.stuck)).toMatchObject({
      state: 'REPORTING',
      lastValue: 15,
      unit: '°C',
      lastChangedAt: new Date(NOW - 2 * 60 * MIN).toISOString(),
      valueAtRest: false,
    });
    // PV at 2 kW is not at rest; its night zeros were.
    expect(byUuid.get(rome.pv)!.valueAtRest).toBe(false);
  });

  it('is the plant owner’s only: 404 for another organization, 403 without SENSORS READ', async () => {
    const other = await server.request('GET', `/plants/${rome.plant}/sensor-statuses`, {
      token: tokens.outsider,
    });
    expect(expectErrorBody(other, 404).message).toContain(rome.plant);
    const mine = await server.request('GET', `/plants/${outsiderPlant}/sensor-statuses`, {
      token: tokens.outsider,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.sensors).toEqual([]);
    const empties = await server.request('GET', `/plants/${empty}/sensor-statuses`, {
      token: tokens.manager,
    });
    expect(empties.body).toMatchObject({ timezone: 'Europe/Rome', sensors: [] });
  });
});

describe('GET /plants/{plantUuid}/sensor-statuses?recent=true', () => {
  it("adds each sensor's last 15 minutes, one point a minute at most, after signInverted", async () => {
    const plant = (await createPlant(server, tokens.installer, { name: 'Fleet live view' }))
      .plantUuid as string;
    const grid = await sensor(plant, 'Grid meter', 'GRID');
    const slow = await sensor(plant, 'Slow meter', 'CONSUMPTION');
    const idle = await sensor(plant, 'Unwired meter', 'CONSUMPTION');
    const put = await server.request('PUT', `/plants/${plant}/sensors/${grid}`, {
      token: tokens.installer,
      body: { signInverted: true },
    });
    expectStatus(put, 200, 'PUT signInverted');
    // Every 10 s, reported backwards: −(1000 + seconds before NOW) W.
    const fast: { timestamp: string; value: number }[] = [];
    for (let t = NOW - 20 * MIN; t < NOW; t += 10_000)
      fast.push({ timestamp: new Date(t).toISOString(), value: -(1000 + (NOW - t) / 1000) });
    await ingest(plant, grid, fast);
    await ingest(plant, slow, [
      { timestamp: new Date(NOW - 20 * MIN).toISOString(), value: 300 },
      { timestamp: new Date(NOW - 15 * MIN).toISOString(), value: 310 },
      { timestamp: new Date(NOW - 9 * MIN).toISOString(), value: 320 },
    ]);

    const plain = await server.request('GET', `/plants/${plant}/sensor-statuses`, {
      token: tokens.manager,
    });
    expect(plain.body.sensors.every((status: object) => !('recent' in status))).toBe(true);

    const response = await server.request('GET', `/plants/${plant}/sensor-statuses`, {
      token: tokens.manager,
      query: { recent: true },
    });
    const body = routes.listSensorStatuses.response.parse(response.body);
    const byUuid = new Map(body.sensors.map((status) => [status.sensorUuid, status]));
    // The last reading of each minute-long slice (NOW − (k+1) min, NOW − k min]: the one at its
    // end, or 10 s before NOW for the slice ending at NOW (no reading there yet).
    const ends = Array.from({ length: 15 }, (_, index) => 14 - index);
    expect(byUuid.get(grid)!.recent).toEqual(
      ends.map((k) => {
        const secondsBefore = k === 0 ? 10 : k * 60;
        return {
          at: new Date(NOW - secondsBefore * 1000).toISOString(),
          value: 1000 + secondsBefore,
        };
      }),
    );
    expect(byUuid.get(grid)!.lastValue).toBe(1010);
    // A sparser sensor keeps its own readings; NOW − 15 min is just outside the window.
    expect(byUuid.get(slow)!.recent).toEqual([
      { at: new Date(NOW - 9 * MIN).toISOString(), value: 320 },
    ]);
    expect(byUuid.get(idle)!.recent).toEqual([]);
    // Apart from `recent`, the same answer.
    const withoutRecent = body.sensors.map(({ recent: _recent, ...status }) => status);
    expect(withoutRecent).toEqual(plain.body.sensors);

    const bad = await server.request('GET', `/plants/${plant}/sensor-statuses`, {
      token: tokens.manager,
      query: { recent: 'sometimes' },
    });
    expect(expectErrorBody(bad, 400).message).toContain('recent');
  });
});

describe('a server without our extensions', () => {
  it('answers 404 for both routes and leaves them out of its OpenAPI document', async () => {
    const plain = await TestServer.start({ extensions: false });
    try {
      const token = await plain.tokenFor('admin');
      const plant = await plain.demoPlantUuid();
      expectErrorBody(await plain.request('GET', '/plant-summaries', { token }), 404);
      expectErrorBody(
        await plain.request('GET', `/plants/${plant}/sensor-statuses`, { token }),
        404,
      );
      // The specification's routes are all there.
      expect((await plain.request('GET', '/plants', { token })).status).toBe(200);
      const document = (await plain.request('GET', '/openapi.json')).body;
      expect(document.paths['/plant-summaries']).toBeUndefined();
      expect(document.paths['/plants']).toBeDefined();
    } finally {
      await plain.close();
    }
  });
});
