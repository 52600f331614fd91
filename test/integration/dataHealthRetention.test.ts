import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantDataHealth, SensorDataHealth } from '../../api/index.ts';
import { engineOf } from '../../server/db/engine.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { DEMO_ACCOUNTS, TestServer } from '../support/testServer.ts';

/**
 * Data health across raw retention (`rawRetentionDays`), SQLite and PostgreSQL: readings over
 * 26 local days in Europe/Madrid (the spring DST day among them), then the clock moves on and
 * retention drops the raw readings of the first 22 (on PostgreSQL, March's partition whole).
 * The same data answered before and after: the old days' coverage is the same, now counted from
 * the 15-minute rollups, and those days say so; the counter reset among them is no longer
 * assessed rather than found absent. The server's clock is pinned and moved by the test.
 */

const ZONE = 'Europe/Madrid';
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RETENTION_DAYS = 10;
/** 2026-03-20 00:00 CET to 2026-04-15 00:00 CEST, the days asked for. */
const FIRST = Date.parse('2026-03-19T23:00:00Z');
const END = Date.parse('2026-04-14T22:00:00Z');
const START_DATE = '2026-03-20';
const END_DATE = '2026-04-14';
/** While posting: the horizon lies before the first reading. */
const POSTING_CLOCK = FIRST + DAY;
/** After: the horizon is 2026-04-10T12:00Z, 14:00 local. */
const LATER_CLOCK = Date.parse('2026-04-20T12:00:00Z');
const HORIZON = LATER_CLOCK - RETENTION_DAYS * DAY;
/** Local midnight of a date in CET (March, before the 29th) or CEST (after). */
const cet = (iso: string) => Date.parse(`${iso}+01:00`);
const cest = (iso: string) => Date.parse(`${iso}+02:00`);

/** The meter's holes: two hours on bucket bounds, an hour of the 23-hour day, 7 minutes in a bucket. */
const METER_HOLES = [
  { start: cet('2026-03-22T10:00'), end: cet('2026-03-22T12:00') },
  { start: cest('2026-03-29T04:00'), end: cest('2026-03-29T05:00') },
  { start: cet('2026-03-25T08:03'), end: cet('2026-03-25T08:10') },
  { start: cest('2026-04-12T15:00'), end: cest('2026-04-12T16:30') },
];
/** The counter's: three hours; and it is reset to 0 on March 24 at noon. */
const COUNTER_HOLE = { start: cet('2026-03-23T06:00'), end: cet('2026-03-23T09:00') };
const COUNTER_RESET = cet('2026-03-24T12:00');

let clockMs = POSTING_CLOCK;
let server: TestServer;
let token: string;
let plantUuid: string;
let meter: string;
let counter: string;

function readings(
  stepMs: number,
  holes: { start: number; end: number }[],
  value: (at: number) => number,
) {
  const all: { timestamp: string; value: number }[] = [];
  for (let at = FIRST; at < END; at += stepMs) {
    if (holes.some((hole) => at >= hole.start && at < hole.end)) continue;
    all.push({ timestamp: new Date(at).toISOString(), value: value(at) });
  }
  return all;
}

async function ingest(sensorUuid: string, all: { timestamp: string; value: number }[]) {
  for (let index = 0; index < all.length; index += 10_000) {
    const response = await server.request(
      'POST',
      `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
      { token, body: { readings: all.slice(index, index + 10_000) } },
    );
    expectStatus(response, 202, 'post readings');
  }
}

async function dataHealth(): Promise<PlantDataHealth> {
  const response = await server.request('GET', `/plants/${plantUuid}/data-health`, {
    token,
    query: { startDate: START_DATE, endDate: END_DATE },
  });
  return expectStatus(response, 200, 'data health') as PlantDataHealth;
}

const sensorOf = (health: PlantDataHealth, sensorUuid: string): SensorDataHealth =>
  health.sensors.find((sensor) => sensor.sensorUuid === sensorUuid)!;

async function freshToken(): Promise<string> {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.email.startsWith('installer@'))!;
  const response = await server.login(account.email, account.password);
  return expectStatus(response, 200, 'login').accessToken as string;
}

beforeAll(async () => {
  server = await TestServer.start({
    now: () => new Date(clockMs),
    rawRetentionDays: RETENTION_DAYS,
  });
  token = await server.tokenFor('installer');
  plantUuid = (
    await createPlant(server, token, {
      location: { latitude: 40.42, longitude: -3.7, timezone: ZONE },
    })
  ).plantUuid;
  const sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  const dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  const sensor = async (name: string, type: string, dataType: string, seconds: number) =>
    (
      await createSensor(server, token, plantUuid, {
        name,
        flow: 'CONSUMPTION',
        sensorTypeUuid: sensorTypes[type],
        dataTypesCollectUuids: [dataTypes[dataType]],
        samplingIntervalSeconds: seconds,
      })
    ).sensorUuid as string;
  meter = await sensor('House meter', 'POWER_METER', 'POWER', 60);
  counter = await sensor('Energy counter', 'ENERGY_METER', 'ENERGY', 900);
  // Noise a meter reads: never frozen.
  await ingest(
    meter,
    readings(MINUTE, METER_HOLES, (at) => 300 + ((at / MINUTE) % 97)),
  );
  await ingest(
    counter,
    readings(15 * MINUTE, [COUNTER_HOLE], (at) =>
      at < COUNTER_RESET ? 5000 + (at - FIRST) / HOUR : (at - COUNTER_RESET) / HOUR,
    ),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('data health across raw retention', () => {
  it("answers the old days' coverage from the rollups as the raw readings did", async () => {
    clockMs = LATER_CLOCK;
    token = await freshToken();
    const before = await dataHealth();
    expect(before.days).toHaveLength(26);
    for (const sensor of before.sensors) {
      expect(sensor.resolution).toEqual(before.days.map(() => 'raw'));
      expect(sensor.rawFrom).toBeNull();
    }
    expect(sensorOf(before, counter).counterIssues.map((issue) => Date.parse(issue.at))).toEqual([
      COUNTER_RESET,
    ]);

    const result = await server.server.rawRetention!.run();
    expect(result.horizonMs).toBe(HORIZON);
    expect(result.readingsDeleted).toBeGreaterThan(0);
    if (engineOf(server.server.context.db) === 'postgres') {
      expect(result.partitionsDropped).toEqual(['readings_2026_03']);
    }
    const after = await dataHealth();

    // 2026-04-10 is the day of the horizon (14:00 local): up to it on rollups, raw after.
    const onRollups = before.days.map((day) => day.date <= '2026-04-10');
    expect(onRollups.filter(Boolean)).toHaveLength(22);
    for (const sensorUuid of [meter, counter]) {
      const old = sensorOf(before, sensorUuid);
      const now = sensorOf(after, sensorUuid);
      expect(now.coverage, now.name).toEqual(old.coverage);
      expect(now.coverageTotal, now.name).toBe(old.coverageTotal);
      expect(now.gapCount, now.name).toBe(old.gapCount);
      expect(now.resolution).toEqual(onRollups.map((rollups) => (rollups ? '15min' : 'raw')));
      expect(Date.parse(now.rawFrom!)).toBe(HORIZON);
    }
    // The days with holes are really short of data, both times.
    const meterCoverage = sensorOf(after, meter).coverage;
    expect(meterCoverage[2]).toBeCloseTo(22 / 24, 6);
    expect(meterCoverage[9]).toBeCloseTo(22 / 23, 6);
    expect(meterCoverage[5]).toBeCloseTo(1 - 7 / (24 * 60), 6);
    expect(meterCoverage[23]).toBeCloseTo(1 - 1.5 / 24, 6);
    // The reset lies in the dropped raw readings: not assessed (resolution 15min), not found.
    expect(sensorOf(after, counter).counterIssues).toEqual([]);
    expect(sensorOf(after, counter).gaps.map((gap) => gap.durationSeconds)).toEqual(
      sensorOf(before, counter).gaps.map((gap) => gap.durationSeconds),
    );
  });
});
