import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { expectErrorBody, MISSING_UUID, TestServer } from '../support/testServer.ts';

/**
 * GET /plants/{plantUuid}/data-health over HTTP (SQLite, and PostgreSQL through
 * vitest.postgres.config.ts), on a plant in Europe/Madrid around the spring DST change. The
 * server's clock: 2026-03-30 12:00 local (+02:00).
 */

const ZONE = 'Europe/Madrid';
const NOW = Date.parse('2026-03-30T10:00:00Z');
const MINUTE = 60_000;
const HOUR = 3_600_000;
/** 2026-03-28 00:00 CET. */
const MARCH_28 = Date.parse('2026-03-27T23:00:00Z');
/** 2026-03-29 00:00 CET: the 23-hour day. */
const MARCH_29 = Date.parse('2026-03-28T23:00:00Z');
/** 2026-03-30 00:00 CEST. */
const MARCH_30 = Date.parse('2026-03-29T22:00:00Z');
const LOCATION = { latitude: 40.42, longitude: -3.7, timezone: ZONE };

let server: TestServer;
let admin: string;
let outsider: string;
let plantUuid: string;
let meter: string;
let counter: string;

async function ingest(sensorUuid: string, readings: { at: number; value: number }[]) {
  for (let index = 0; index < readings.length; index += 10_000) {
    const batch = readings.slice(index, index + 10_000);
    const response = await server.request(
      'POST',
      `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
      {
        token: admin,
        body: {
          readings: batch.map(({ at, value }) => ({
            timestamp: new Date(at).toISOString(),
            value,
          })),
        },
      },
    );
    expectStatus(response, 202, 'ingest');
  }
}

const dataHealth = (query: Record<string, string> = {}, token = admin, plant = plantUuid) =>
  server.request('GET', `/plants/${plant}/data-health`, { token, query });

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(NOW) });
  admin = await server.tokenFor('admin');
  outsider = await server.tokenFor('outsider');
  const sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  const dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  plantUuid = (await createPlant(server, admin, { location: LOCATION })).plantUuid;
  meter = (
    await createSensor(server, admin, plantUuid, {
      name: 'Consumption',
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
      flow: 'CONSUMPTION',
      samplingIntervalSeconds: 60,
    })
  ).sensorUuid;
  counter = (
    await createSensor(server, admin, plantUuid, {
      name: 'Energy counter',
      sensorTypeUuid: sensorTypes.ENERGY_METER,
      dataTypesCollectUuids: [dataTypes.ENERGY],
      flow: 'CONSUMPTION',
      samplingIntervalSeconds: 900,
    })
  ).sensorUuid;
  // Every minute from March 28 until now, but for 04:00–06:00 (CEST) on March 29.
  const holeFrom = MARCH_29 + 3 * HOUR;
  const holeTo = holeFrom + 2 * HOUR;
  const readings: { at: number; value: number }[] = [];
  for (let at = MARCH_28; at <= NOW; at += MINUTE) {
    if (at >= holeFrom && at < holeTo) continue;
    readings.push({ at, value: 500 + ((at / MINUTE) % 37) });
  }
  await ingest(meter, readings);
  // A counter every quarter-hour of March 29, replaced by a new meter at 12:00 local.
  const counts: { at: number; value: number }[] = [];
  for (let at = MARCH_29; at < MARCH_30; at += 15 * MINUTE) {
    const quarter = (at - MARCH_29) / (15 * MINUTE);
    counts.push({ at, value: at < MARCH_29 + 11 * HOUR ? 1000 + quarter : quarter * 0.1 });
  }
  await ingest(counter, counts);
});

afterAll(async () => {
  await server?.close();
});

describe('GET /plants/{plantUuid}/data-health', () => {
  it('answers coverage per local day (23 hours on the spring day), gaps in local time and counter resets', async () => {
    const response = await dataHealth({ startDate: '2026-03-28', endDate: '2026-03-30' });
    const body = expectStatus(response, 200, 'data health');
    expect(body.timezone).toBe(ZONE);
    expect(body.from).toBe('2026-03-28T00:00:00+01:00');
    expect(body.to).toBe('2026-03-31T00:00:00+02:00');
    expect(body.days).toEqual([
      { date: '2026-03-28', hours: 24, elapsedHours: 24 },
      { date: '2026-03-29', hours: 23, elapsedHours: 23 },
      { date: '2026-03-30', hours: 24, elapsedHours: 12 },
    ]);
    const consumption = body.sensors.find((s: { sensorUuid: string }) => s.sensorUuid === meter);
    expect(consumption.dataType).toBe('POWER');
    // Two hours missing of 23; today is full so far.
    expect(consumption.coverage[0]).toBe(1);
    expect(consumption.coverage[1]).toBeCloseTo(21 / 23, 5);
    expect(consumption.coverage[2]).toBe(1);
    expect(consumption.gapCount).toBe(1);
    expect(consumption.gaps).toEqual([
      {
        start: '2026-03-29T03:59:00+02:00',
        end: '2026-03-29T06:00:00+02:00',
        durationSeconds: 7260,
      },
    ]);
    expect(consumption.frozen).toEqual([]);
    expect(consumption.suspicions).toEqual([]);

    const energy = body.sensors.find((s: { sensorUuid: string }) => s.sensorUuid === counter);
    expect(energy.dataType).toBe('ENERGY');
    expect(energy.counterIssues).toEqual([
      { kind: 'RESET', at: '2026-03-29T12:00:00+02:00', before: 1043, after: 4.4 },
    ]);
    expect(energy.coverage[0]).toBe(0);
    expect(energy.coverage[1]).toBe(1);
    // Silent since 00:00 today.
    expect(energy.gaps.at(-1)).toEqual({
      start: '2026-03-29T23:45:00+02:00',
      end: '2026-03-30T12:00:00+02:00',
      durationSeconds: 12.25 * 3600,
    });
  });

  it('defaults to the last 90 local days ending today', async () => {
    const body = expectStatus(await dataHealth(), 200, 'data health');
    expect(body.days).toHaveLength(90);
    expect(body.days.at(-1).date).toBe('2026-03-30');
    expect(body.days[0].date).toBe('2025-12-31');
    expect(body.sensors).toHaveLength(2);
    expect(body.sensors[0].coverage).toHaveLength(90);
  });

  it('leaves days to come without coverage', async () => {
    const body = expectStatus(
      await dataHealth({ startDate: '2026-03-30', endDate: '2026-04-01' }),
      200,
      'data health',
    );
    expect(body.sensors[0].coverage).toEqual([1, null, null]);
  });

  it('refuses bad ranges with the error body', async () => {
    const path = `/plants/${plantUuid}/data-health`;
    expect(
      expectErrorBody(await dataHealth({ startDate: '2026-02-30' }), 400, path).message,
    ).toMatch(/startDate must be a date in the format yyyy-MM-dd/);
    expect(
      expectErrorBody(
        await dataHealth({ startDate: '2026-03-30', endDate: '2026-03-01' }),
        422,
        path,
      ).message,
    ).toBe('startDate 2026-03-30 is after endDate 2026-03-01');
    expect(
      expectErrorBody(
        await dataHealth({ startDate: '2024-01-01', endDate: '2026-03-01' }),
        422,
        path,
      ).message,
    ).toMatch(/at most 366 days/);
    expectErrorBody(await dataHealth({}, admin, 'not-a-uuid'), 400);
  });

  it("hides another organization's plant and a missing one (404)", async () => {
    expectErrorBody(await dataHealth({}, outsider), 404);
    expectErrorBody(await dataHealth({}, admin, MISSING_UUID), 404);
  });
});

describe('a server without our extensions', () => {
  it('answers 404 for data-health (the desktop app then says the map is not offered)', async () => {
    const plain = await TestServer.start({ extensions: false });
    try {
      const token = await plain.tokenFor('admin');
      const plant = await plain.demoPlantUuid();
      const path = `/plants/${plant}/data-health`;
      expectErrorBody(await plain.request('GET', path, { token }), 404, path);
      const document = (await plain.request('GET', '/openapi.json')).body;
      expect(document.paths['/plants/{plantUuid}/data-health']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
