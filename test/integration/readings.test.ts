import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import type { Db } from '../../server/db/database.ts';
import { readingsOf, rollupsOf } from '../../server/measurements/readingsStore.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { testEngine } from '../support/testDatabases.ts';
import { expectErrorBody, MISSING_UUID, TestServer, type DemoRole } from '../support/testServer.ts';

/**
 * POST /plants/{plantUuid}/sensors/{sensorUuid}/readings over HTTP, on a fresh plant. The
 * rollups the metrics read are inspected in the server's own database.
 */

let server: TestServer;
let db: Db;
const tokens = {} as Record<DemoRole, string>;
let plantUuid: string;
let siblingPlantUuid: string;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;

const T0 = Date.UTC(2026, 5, 1, 0, 0); // 2026-06-01T00:00:00Z
const MIN = 60_000;
const EVER = [-8.64e15, 8.64e15] as const;

const readingsPath = (plant: string, sensor: string) =>
  `/plants/${plant}/sensors/${sensor}/readings`;
const iso = (ms: number) => new Date(ms).toISOString();

/** One reading a minute from `startMinute`, with the value `value(k)` for the k-th. */
const everyMinute = (count: number, value: (k: number) => number, startMinute = 0) =>
  Array.from({ length: count }, (_, k) => ({
    timestamp: iso(T0 + (startMinute + k) * MIN),
    value: value(k),
  }));

async function newSensor(
  codes: string[],
  options: { plant?: string; interval?: number; type?: string } = {},
): Promise<string> {
  const sensor = await createSensor(server, tokens.installer, options.plant ?? plantUuid, {
    name: `Sensor ${codes.join('+')}`,
    sensorTypeUuid: sensorTypes[options.type ?? 'POWER_METER'],
    dataTypesCollectUuids: codes.map((code) => dataTypes[code]),
    samplingIntervalSeconds: options.interval ?? 60,
  });
  return sensor.sensorUuid as string;
}

function post(sensorUuid: string, body: unknown, role: DemoRole = 'installer', plant = plantUuid) {
  return server.request('POST', readingsPath(plant, sensorUuid), { token: tokens[role], body });
}

async function accepted(sensorUuid: string, readings: unknown[]): Promise<number> {
  const response = await post(sensorUuid, { readings });
  const body = routes.ingestReadings.response.parse(expectStatus(response, 202, 'ingest'));
  return body.accepted;
}

/**
 * Waits until the ingestion request is held up by the delete's open transaction: on PostgreSQL
 * until it waits for the sensor's row lock (it read the sensor before the delete commits), on
 * SQLite for a while (its single connection makes every query of the request wait).
 */
async function untilIngestionWaits(): Promise<void> {
  if (testEngine() !== 'postgres') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return;
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await sql<{ waiting: string }>`
      select count(*) as waiting from pg_locks where not granted`.execute(db);
    if (Number(rows[0]!.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('The ingestion never waited for the sensor delete');
}

const rollups = (sensorUuid: string) => rollupsOf(db, [sensorUuid], ...EVER);
const readingCount = async (sensorUuid: string) =>
  (await readingsOf(db, sensorUuid, ...EVER)).length;
/** Bucket start in minutes after T0 → [energy kWh, covered seconds, sample count]. */
const summary = async (sensorUuid: string) =>
  Object.fromEntries(
    (await rollups(sensorUuid)).map((rollup) => [
      (rollup.bucketStart - T0) / MIN,
      [rollup.energyKwh, rollup.coveredSeconds, rollup.sampleCount],
    ]),
  );

beforeAll(async () => {
  server = await TestServer.start();
  db = server.server.context.db;
  for (const role of ['admin', 'installer', 'manager', 'outsider'] as const) {
    tokens[role] = await server.tokenFor(role);
  }
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  plantUuid = (await createPlant(server, tokens.installer)).plantUuid;
  siblingPlantUuid = (await createPlant(server, tokens.installer)).plantUuid;
});

afterAll(async () => {
  await server?.close();
});

describe('POST /plants/{plantUuid}/sensors/{sensorUuid}/readings', () => {
  it('answers 202 with the count and rolls 1 kW for 1 h up into four buckets of 0.25 kWh', async () => {
    const sensor = await newSensor(['POWER', 'ENERGY']);
    expect(
      await accepted(
        sensor,
        everyMinute(60, () => 1000),
      ),
    ).toBe(60);
    expect(await rollups(sensor)).toEqual(
      [0, 15, 30, 45].map((minute) => ({
        sensorUuid: sensor,
        bucketStart: T0 + minute * MIN,
        energyKwh: 0.25,
        meanValue: 1000,
        minValue: 1000,
        maxValue: 1000,
        sampleCount: 15,
        coveredSeconds: 900,
      })),
    );
    expect(await readingCount(sensor)).toBe(60);
  });

  it('is idempotent: re-sending the batch changes neither readings nor rollups', async () => {
    const sensor = await newSensor(['POWER']);
    const batch = everyMinute(45, (k) => 100 + 10 * k);
    await accepted(sensor, batch);
    const first = await rollups(sensor);
    expect(await accepted(sensor, batch)).toBe(45);
    expect(await accepted(sensor, [...batch].reverse())).toBe(45);
    expect(await rollups(sensor)).toEqual(first);
    expect(await readingCount(sensor)).toBe(45);
  });

  it('replaces a reading sent again with another value, whatever the offset it is written with', async () => {
    const sensor = await newSensor(['POWER']);
    await accepted(
      sensor,
      everyMinute(15, () => 400),
    );
    // 00:05Z written as 02:05+02:00: 400 W → 1000 W for that minute, +600 W × 60 s = 0.01 kWh.
    await accepted(sensor, [{ timestamp: '2026-06-01T02:05:00+02:00', value: 1000 }]);
    const [bucket] = await rollups(sensor);
    expect(bucket!.energyKwh).toBeCloseTo(0.1 + 0.01, 12); // 400 W × 900 s = 0.1 kWh
    expect(bucket!.maxValue).toBe(1000);
    expect(await readingCount(sensor)).toBe(15);
  });

  it('integrates an ENERGY counter with a reset: 10 → 12 → 1 → 3 kWh is 5 kWh', async () => {
    const sensor = await newSensor(['ENERGY'], { type: 'ENERGY_METER', interval: 900 });
    // Readings at 05′, 20′, 35′, 50′: each increase spreads over the 15 minutes up to the next
    // reading, two thirds in the reading's bucket and one third in the next.
    await accepted(sensor, [
      { timestamp: iso(T0 + 5 * MIN), value: 10 },
      { timestamp: iso(T0 + 20 * MIN), value: 12 },
      { timestamp: iso(T0 + 35 * MIN), value: 1 },
      { timestamp: iso(T0 + 50 * MIN), value: 3 },
    ]);
    const stored = await rollups(sensor);
    const energies = stored.map((rollup) => rollup.energyKwh!);
    expect(energies[0]).toBeCloseTo(4 / 3, 12); // 2 × 10/15
    expect(energies[1]).toBeCloseTo(4 / 3, 12); // 2 × 5/15 + 1 × 10/15
    expect(energies[2]).toBeCloseTo(5 / 3, 12); // 1 × 5/15 + 2 × 10/15
    expect(energies[3]).toBeCloseTo(2 / 3, 12); // 2 × 5/15
    expect(energies.reduce((sum, energy) => sum + energy, 0)).toBeCloseTo(5, 12);
    expect(stored.map((rollup) => rollup.coveredSeconds)).toEqual([600, 900, 900, 300]);
  });

  it('updates the neighbouring buckets when a later batch fills a gap', async () => {
    const sensor = await newSensor(['POWER']);
    await accepted(
      sensor,
      everyMinute(10, () => 1200),
    ); // 00′–09′
    await accepted(
      sensor,
      everyMinute(10, () => 1200, 40),
    ); // 40′–49′
    // 1200 W × 60 s = 0.02 kWh a minute. The last reading before the gap holds one minute.
    expect(await summary(sensor)).toEqual({
      0: [0.2, 600, 10],
      30: [0.1, 300, 5],
      45: [0.1, 300, 5],
    });
    await accepted(
      sensor,
      everyMinute(30, () => 1200, 10),
    ); // 10′–39′
    expect(await summary(sensor)).toEqual({
      0: [0.3, 900, 15],
      15: [0.3, 900, 15],
      30: [0.3, 900, 15],
      45: [0.1, 300, 5],
    });
  });

  it('rolls up a level sensor without energy', async () => {
    const sensor = await newSensor(['STATE_OF_CHARGE'], { type: 'BATTERY_MONITOR', interval: 300 });
    // 0′ 40 % holds to 10′, 10′ 70 % for one interval: (40 × 600 + 70 × 300) / 900 = 50 %.
    await accepted(sensor, [
      { timestamp: iso(T0), value: 40 },
      { timestamp: iso(T0 + 10 * MIN), value: 70 },
    ]);
    const [bucket] = await rollups(sensor);
    expect(bucket).toMatchObject({ energyKwh: null, minValue: 40, maxValue: 70 });
    expect(bucket!.meanValue).toBeCloseTo(50, 12);
  });

  it('deletes the readings and rollups with their sensor', async () => {
    const sensor = await newSensor(['POWER']);
    await accepted(
      sensor,
      everyMinute(30, () => 500),
    );
    expect(await readingCount(sensor)).toBe(30);
    const deleted = await server.request('DELETE', `/plants/${plantUuid}/sensors/${sensor}`, {
      token: tokens.installer,
    });
    expect(deleted.status).toBe(204);
    expect(await readingCount(sensor)).toBe(0);
    expect(await rollups(sensor)).toEqual([]);
  });

  it('deletes the readings and rollups with their plant', async () => {
    const plant = (await createPlant(server, tokens.installer)).plantUuid;
    const sensor = await newSensor(['POWER'], { plant });
    const response = await post(
      sensor,
      { readings: everyMinute(30, () => 500) },
      'installer',
      plant,
    );
    expectStatus(response, 202, 'ingest');
    expect(await readingCount(sensor)).toBe(30);
    const deleted = await server.request('DELETE', `/plants/${plant}`, { token: tokens.admin });
    expect(deleted.status).toBe(204);
    expect(await readingCount(sensor)).toBe(0);
    expect(await rollups(sensor)).toEqual([]);
  });

  it('answers 404 and writes nothing for a sensor deleted while its readings arrive', async () => {
    const sensor = await newSensor(['POWER']);
    let ingesting: Promise<{ status: number }> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sensors').where('sensor_uuid', '=', sensor).execute();
      ingesting = post(sensor, { readings: everyMinute(30, () => 500) });
      await untilIngestionWaits();
    });
    const response = await ingesting!;
    expect(response.status).toBe(404);
    expect(await readingCount(sensor)).toBe(0);
    expect(await rollups(sensor)).toEqual([]);
  });

  it('accepts 10,000 readings in one request', async () => {
    const sensor = await newSensor(['POWER']);
    expect(
      await accepted(
        sensor,
        everyMinute(10_000, (k) => k % 500),
      ),
    ).toBe(10_000);
    expect(await readingCount(sensor)).toBe(10_000);
  });
});

describe('readings: malformed bodies (400)', () => {
  let sensor: string;
  beforeAll(async () => {
    sensor = await newSensor(['POWER']);
  });

  async function rejected(body: unknown, ...fragments: string[]) {
    const path = readingsPath(plantUuid, sensor);
    const error = expectErrorBody(await post(sensor, body), 400, path);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
    expect(await readingCount(sensor)).toBe(0);
    return error;
  }

  it('names the index of a timestamp that is not ISO 8601 with an offset', async () => {
    const readings = everyMinute(5, () => 1);
    readings[3] = { timestamp: '2026-06-01T00:03:00', value: 1 };
    await rejected({ readings }, 'readings.3.timestamp');
    readings[3] = { timestamp: '2026-02-30T00:00:00Z', value: 1 };
    await rejected({ readings }, 'readings.3.timestamp');
    readings[3] = { timestamp: 'yesterday', value: 1 };
    await rejected({ readings }, 'readings.3.timestamp');
  });

  it('names the index of a value that is missing, not a number or not finite', async () => {
    const readings: unknown[] = everyMinute(3, () => 1);
    readings[1] = { timestamp: iso(T0 + MIN) };
    await rejected({ readings }, 'readings.1.value');
    readings[1] = { timestamp: iso(T0 + MIN), value: '12' };
    await rejected({ readings }, 'readings.1.value');
    const rawBody = `{"readings":[{"timestamp":"${iso(T0)}","value":1e400}]}`;
    const response = await server.request('POST', readingsPath(plantUuid, sensor), {
      token: tokens.installer,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(expectErrorBody(response, 400).message).toContain('readings.0.value');
  });

  it('names both indexes of two readings at one instant', async () => {
    const readings = everyMinute(4, () => 1);
    readings[3] = { timestamp: '2026-06-01T02:01:00+02:00', value: 2 }; // = readings[1]
    const error = await rejected({ readings }, 'readings.3.timestamp', 'readings.1.timestamp');
    expect(error.message).toContain('same instant');
  });

  it('refuses an empty batch, more than 10,000 readings and a body without readings', async () => {
    await rejected({ readings: [] }, 'readings');
    await rejected({ readings: everyMinute(10_001, () => 1) }, 'readings', '10000');
    await rejected({}, 'readings');
    await rejected({ readings: 'many' }, 'readings');
  });

  it('refuses a body that is not JSON and a malformed sensor uuid', async () => {
    const response = await server.request('POST', readingsPath(plantUuid, sensor), {
      token: tokens.installer,
      rawBody: '{"readings": [',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorBody(response, 400);
    const malformed = await post('not-a-uuid', { readings: everyMinute(1, () => 1) });
    expect(expectErrorBody(malformed, 400).message).toContain('sensorUuid');
  });
});

describe('readings: impossible values (422), nothing written', () => {
  it.each([
    ['a negative ENERGY counter', ['ENERGY'], 'ENERGY_METER', -0.5, 'ENERGY'],
    [
      'a STATE_OF_CHARGE above 100',
      ['STATE_OF_CHARGE'],
      'BATTERY_MONITOR',
      100.5,
      'STATE_OF_CHARGE',
    ],
    ['a STATE_OF_CHARGE below 0', ['STATE_OF_CHARGE'], 'BATTERY_MONITOR', -1, 'STATE_OF_CHARGE'],
    [
      'a TEMPERATURE below absolute zero',
      ['TEMPERATURE'],
      'TEMPERATURE_SENSOR',
      -300,
      'absolute zero',
    ],
    ['a power beyond 1e12', ['POWER'], 'POWER_METER', 2e12, 'magnitude'],
  ])('refuses %s, naming its index', async (_what, codes, type, value, named) => {
    const sensor = await newSensor(codes, { type });
    const readings = everyMinute(6, () => 50);
    readings[4] = { timestamp: readings[4]!.timestamp, value };
    const response = await post(sensor, { readings });
    const error = expectErrorBody(response, 422, readingsPath(plantUuid, sensor));
    expect(error.message).toContain('readings.4.value');
    expect(error.message).toContain(named);
    expect(await readingCount(sensor)).toBe(0);
    expect(await rollups(sensor)).toEqual([]);
  });

  it('accepts the limits: 0 and 100 % charge, a counter at 0, negative power', async () => {
    const soc = await newSensor(['STATE_OF_CHARGE'], { type: 'BATTERY_MONITOR' });
    expect(
      await accepted(
        soc,
        everyMinute(2, (k) => k * 100),
      ),
    ).toBe(2);
    const counter = await newSensor(['ENERGY'], { type: 'ENERGY_METER' });
    expect(
      await accepted(
        counter,
        everyMinute(1, () => 0),
      ),
    ).toBe(1);
    const grid = await newSensor(['POWER']);
    expect(
      await accepted(
        grid,
        everyMinute(15, () => -3000),
      ),
    ).toBe(15);
    const [bucket] = await rollups(grid);
    expect(bucket!.energyKwh).toBe(-0.75); // export: -3000 W × 900 s
  });
});

describe('readings: authentication, permission and visibility', () => {
  let sensor: string;
  let siblingSensor: string;
  const body = { readings: everyMinute(1, () => 1) };
  beforeAll(async () => {
    sensor = await newSensor(['POWER']);
    siblingSensor = await newSensor(['POWER'], { plant: siblingPlantUuid });
  });

  it('answers 401 without a token', async () => {
    const path = readingsPath(plantUuid, sensor);
    const response = await server.request('POST', path, { body });
    expectErrorBody(response, 401, path);
  });

  it('answers 403 to a manager (every READ, no READINGS CREATE)', async () => {
    const error = expectErrorBody(await post(sensor, body, 'manager'), 403);
    expect(error.message).toBe('Permission READINGS CREATE required');
  });

  it('answers 404 for an unknown sensor, one of another plant, and a foreign plant', async () => {
    const unknown = expectErrorBody(await post(MISSING_UUID, body), 404);
    expect(unknown.message).toContain(MISSING_UUID);
    const elsewhere = expectErrorBody(await post(siblingSensor, body), 404);
    expect(elsewhere.message).toContain(siblingSensor);
    // The outsider has READINGS CREATE, but the plant belongs to another organization.
    const foreign = expectErrorBody(await post(sensor, body, 'outsider'), 404);
    expect(foreign.message).toContain(plantUuid);
    const noPlant = expectErrorBody(await post(sensor, body, 'installer', MISSING_UUID), 404);
    expect(noPlant.message).toContain(MISSING_UUID);
    expect(await readingCount(sensor)).toBe(0);
    expect(await readingCount(siblingSensor)).toBe(0);
  });

  it('lets the admin and the installer write', async () => {
    expect(await accepted(sensor, body.readings)).toBe(1);
    const response = await post(sensor, body, 'admin');
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ accepted: 1 });
  });
});

describe('rollups after a change of what the readings mean', () => {
  // 96 readings a quarter-hour apart through 2026-06-01 (UTC).
  const everyQuarterHour = (value: (k: number) => number) =>
    Array.from({ length: 96 }, (_, k) => ({ timestamp: iso(T0 + k * 15 * MIN), value: value(k) }));

  // Each test's sensor is the only production sensor of a plant of its own in UTC.
  let plant: string;
  beforeEach(async () => {
    plant = (
      await createPlant(server, tokens.installer, {
        location: { latitude: 51.5, longitude: 0, timezone: 'UTC' },
      })
    ).plantUuid;
  });

  async function ingestInPlant(sensor: string, readings: unknown[]): Promise<void> {
    expectStatus(await post(sensor, { readings }, 'installer', plant), 202, 'ingest');
  }

  async function productionOn(): Promise<[number | null, number]> {
    const response = await server.request('GET', `/plants/${plant}/daily-power-productions`, {
      token: tokens.manager,
      query: { date: '2026-06-01' },
    });
    const body = routes.dailyProduction.response.parse(expectStatus(response, 200, 'daily'));
    const last = body.points.at(-1)!;
    expect(last.timestamp).toBe('2026-06-01T00:00:00+00:00');
    return [last.value, last.coverage];
  }

  async function put(sensor: string, body: Record<string, unknown>): Promise<void> {
    const response = await server.request('PUT', `/plants/${plant}/sensors/${sensor}`, {
      token: tokens.installer,
      body,
    });
    routes.updateSensor.response.parse(expectStatus(response, 200, 'update sensor'));
  }

  async function productionSensor(codes: string[], interval: number): Promise<string> {
    const sensor = await createSensor(server, tokens.installer, plant, {
      name: 'PV meter',
      flow: 'PRODUCTION',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: codes.map((code) => dataTypes[code]),
      samplingIntervalSeconds: interval,
    });
    return sensor.sensorUuid as string;
  }

  it('recomputes them with a new sampling interval', async () => {
    const sensor = await productionSensor(['POWER'], 60);
    await ingestInPlant(
      sensor,
      everyQuarterHour(() => 1000),
    );
    // Every 15 minutes with a 60 s interval: each sample holds one minute, 96 × 1 kW × 1 min.
    expect(await productionOn()).toEqual([1.6, 0.066667]);
    await put(sensor, { samplingIntervalSeconds: 900 });
    // Each sample now holds to the next, the last one for 15 minutes: 24 kWh all day.
    expect(await productionOn()).toEqual([24, 1]);
    await put(sensor, { samplingIntervalSeconds: 60 });
    expect(await productionOn()).toEqual([1.6, 0.066667]);
    await put(sensor, { name: 'PV meter (renamed)' });
    expect(await productionOn()).toEqual([1.6, 0.066667]);
  });

  it('recomputes them with new data types, hence a new primary data type', async () => {
    const sensor = await productionSensor(['POWER', 'ENERGY'], 900);
    await ingestInPlant(
      sensor,
      everyQuarterHour((k) => k * 0.25),
    );
    // As POWER: k × 0.25 W for 15 minutes each, 0.0625 Wh × (0 + 1 + … + 95) = 0.285 kWh.
    expect(await productionOn()).toEqual([0.285, 1]);
    await put(sensor, { dataTypesCollectUuids: [dataTypes.ENERGY] });
    // As an ENERGY counter: 0 → 23.75 kWh from 00:00 to 23:45; nothing known after 23:45.
    expect(await productionOn()).toEqual([23.75, 0.989583]);
    await put(sensor, { dataTypesCollectUuids: [dataTypes.ENERGY, dataTypes.POWER] });
    expect(await productionOn()).toEqual([0.285, 1]);
  });
});
