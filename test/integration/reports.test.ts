import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import {
  buildPlantReport,
  loadPlantReportInput,
  makeReport,
  reportPlants,
  type PlantReport,
  type ReportCall,
  type ReportSourceDeps,
} from '../../server/domain/reports/index.ts';
import { createPlant, createSensor, expectStatus } from '../support/entities.ts';
import {
  createTestDatabase,
  testEngine,
  testServerKeys,
  type TestDatabase,
} from '../support/testDatabases.ts';
import { TestServer } from '../support/testServer.ts';

/**
 * A report's numbers are the API's for the same period: March 2026 in Europe/Madrid (clocks go
 * forward on the 29th, a 23-hour day), on a server whose clock is pinned to 2026-04-10, read
 * with our extensions and again, after a restart on the same database, with only the
 * specification's routes (production then comes from the daily route, week by week).
 *
 * The expected consumption rests on February (4 whole weeks before March, 300 W, 600 W on
 * Sundays), availability on the production by the hour, and the data-health coverage on the
 * extension, which the specification-only server lacks.
 *
 * On a SQLite file, or with PLANTDESK_TEST_ENGINE=postgres on one PostgreSQL database: the
 * restart needs the same database.
 */

const ZONE = 'Europe/Madrid';
const NOW = Date.parse('2026-04-10T10:00:00Z');
const QUARTER = 900_000;
/** 2026-03-01 00:00 CET to 2026-04-01 00:00 CEST. */
const MARCH_START = Date.parse('2026-02-28T23:00:00Z');
const MARCH_END = Date.parse('2026-03-31T22:00:00Z');
/** The consumption meter is silent on 2026-03-10 from 00:00 to 12:00 local (CET). */
const SILENT_FROM = Date.parse('2026-03-09T23:00:00Z');
const SILENT_TO = Date.parse('2026-03-10T11:00:00Z');
const PERIOD = { kind: 'month', year: 2026, month: 3 } as const;
/** 2026-02-01 00:00 CET, a Sunday: February 2026 is exactly the 4 weeks before March. */
const FEBRUARY_START = Date.parse('2026-01-31T23:00:00Z');
const SUNDAY = 0;
const MADRID = { latitude: 40.42, longitude: -3.7 };

let directory: string | undefined;
let postgresDatabase: TestDatabase | undefined;
const keys = testServerKeys();
let server: TestServer;
let token: string;
let plantUuid: string;

class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function callOf(on: TestServer): ReportCall {
  return async (route, input) => {
    const definition = (routes as Record<string, { method: string; path: string }>)[route]!;
    const path = definition.path.replace(/\{(\w+)\}/g, (_, name: string) => input.params![name]!);
    const response = await on.request(definition.method, path, { token, query: input.query });
    if (response.status >= 400) throw new ApiError(response.status, JSON.stringify(response.body));
    return response.body;
  };
}

const depsOf = (on: TestServer): ReportSourceDeps => ({
  call: callOf(on),
  statusOf: (error) => (error instanceof ApiError ? error.status : undefined),
});

async function get(on: TestServer, path: string, query: Record<string, string>) {
  return expectStatus(await on.request('GET', path, { token, query }), 200, path);
}

async function ingest(
  sensorUuid: string,
  watts: (ms: number) => number | null,
  from = MARCH_START,
  to = MARCH_END,
) {
  const readings: { timestamp: string; value: number }[] = [];
  for (let at = from; at < to; at += QUARTER) {
    const value = watts(at);
    if (value !== null) readings.push({ timestamp: new Date(at).toISOString(), value });
  }
  const path = `/plants/${plantUuid}/sensors/${sensorUuid}/readings`;
  expectStatus(await server.request('POST', path, { token, body: { readings } }), 202, 'ingest');
}

const reportFrom = async (on: TestServer): Promise<PlantReport> => {
  const plant = await get(on, `/plants/${plantUuid}`, {});
  return buildPlantReport(
    await loadPlantReportInput(
      depsOf(on),
      {
        uuid: plantUuid,
        name: plant.name,
        timezone: plant.location.timezone,
        peakPowerKw: 5,
        location: MADRID,
      },
      PERIOD,
    ),
  );
};

/** The same database each time: a file, or a PostgreSQL URL. */
const sameDatabase = () => ({
  db: postgresDatabase ? postgresDatabase.url : join(directory!, 'plantdesk.db'),
  ...keys,
  now: () => new Date(NOW),
});

beforeAll(async () => {
  if (testEngine() === 'postgres') postgresDatabase = await createTestDatabase();
  else directory = await mkdtemp(join(tmpdir(), 'plantdesk-reports-'));
  server = await TestServer.start(sameDatabase());
  token = await server.tokenFor('admin');
  const sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  const dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  plantUuid = (
    await createPlant(server, token, {
      location: { latitude: 40.42, longitude: -3.7, timezone: ZONE },
      pv: { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 10 },
    })
  ).plantUuid;
  const meter = async (flow: string) =>
    (
      await createSensor(server, token, plantUuid, {
        name: flow,
        sensorTypeUuid: sensorTypes.POWER_METER,
        dataTypesCollectUuids: [dataTypes.POWER],
        flow,
        samplingIntervalSeconds: 900,
      })
    ).sensorUuid as string;
  const production = await meter('PRODUCTION');
  const consumption = await meter('CONSUMPTION');
  // 2 kW from 10:00 to 16:00 UTC, every day.
  await ingest(production, (ms) => {
    const hour = new Date(ms).getUTCHours();
    return hour >= 10 && hour < 16 ? 2000 : 0;
  });
  await ingest(consumption, (ms) => (ms >= SILENT_FROM && ms < SILENT_TO ? null : 400));
  // February: 600 W on (local) Sundays, 300 W on other days.
  await ingest(
    consumption,
    (ms) => (new Date(ms + 3_600_000).getUTCDay() === SUNDAY ? 600 : 300),
    FEBRUARY_START,
    MARCH_START,
  );
});

afterAll(async () => {
  await server?.close();
  await postgresDatabase?.drop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

const sum = (points: { value: number | null }[]) =>
  points.reduce((total, point) => total + (point.value ?? 0), 0);

describe('a report over March 2026 in Europe/Madrid', () => {
  let withExtensions: PlantReport;

  it('has the API’s daily energies, PV health and coverage for the same period', async () => {
    withExtensions = await reportFrom(server);
    const query = { startDate: '2026-03-01', endDate: '2026-03-31' };
    const production = await get(
      server,
      `/plants/${plantUuid}/summary-daily-power-productions`,
      query,
    );
    const consumption = await get(
      server,
      `/plants/${plantUuid}/summary-daily-power-consumptions`,
      query,
    );
    const health = await get(server, `/plants/${plantUuid}/pv-health`, query);

    expect(withExtensions.from).toBe('2026-03-01T00:00:00+01:00');
    expect(withExtensions.to).toBe('2026-04-01T00:00:00+02:00');
    expect(withExtensions.days).toHaveLength(31);
    expect(withExtensions.production?.kwh).toBeCloseTo(sum(production.points), 9);
    expect(withExtensions.consumption?.kwh).toBeCloseTo(sum(consumption.points), 9);
    // 12 kWh a day, and the 23-hour day too (production hours are in UTC).
    expect(withExtensions.production?.kwh).toBeCloseTo(31 * 12, 6);
    expect(withExtensions.production?.kwh).toBeCloseTo(health.energyProducedKwh, 3);
    expect(health.expectedEnergyKwh).toBeGreaterThan(0);
    expect(withExtensions.expectedProductionKwh).toBe(health.expectedEnergyKwh);
    expect(withExtensions.performancePercent).toBe(health.performancePercent);
    expect(withExtensions.performanceRatio).toBe(health.performanceRatio);
    expect(withExtensions.healthStatus).toBe(health.status);
    expect(withExtensions.specificYield).toBeCloseTo((31 * 12) / 5, 2);

    // Coverage: each day's as the API answers it, weighted by the day's hours (743 in March).
    const tenth = consumption.points.find((p: { timestamp: string }) =>
      p.timestamp.startsWith('2026-03-10'),
    );
    expect(tenth.coverage).toBeCloseTo(0.5, 6);
    expect(withExtensions.consumption?.coverage).toBeCloseTo((743 - 12) / 743, 4);
    expect(withExtensions.production?.coverage).toBe(1);
    expect(withExtensions.days.find((d) => d.day === '2026-03-10')?.consumptionCoverage).toBe(
      tenth.coverage,
    );
  });

  it('expects consumption from the API’s answers for the same weekdays of the 4 weeks before', async () => {
    const answer = (startDate: string, endDate: string) =>
      get(server, `/plants/${plantUuid}/summary-daily-power-consumptions`, { startDate, endDate });
    const february = await answer('2026-02-01', '2026-02-28');
    const march = await answer('2026-03-01', '2026-03-31');
    // Energy per hour by weekday from February's answer, times each March day's hours.
    const hoursOf = (series: { to: string; points: { timestamp: string }[] }, index: number) =>
      (Date.parse(series.points[index + 1]?.timestamp ?? series.to) -
        Date.parse(series.points[index]!.timestamp)) /
      3_600_000;
    const rate = new Map<number, { kwh: number; hours: number }>();
    february.points.forEach((point: { timestamp: string; value: number }, index: number) => {
      const weekday = new Date(`${point.timestamp.slice(0, 10)}T12:00:00Z`).getUTCDay();
      const slot = rate.get(weekday) ?? { kwh: 0, hours: 0 };
      rate.set(weekday, {
        kwh: slot.kwh + point.value,
        hours: slot.hours + hoursOf(february, index),
      });
    });
    const expected = march.points.reduce(
      (total: number, point: { timestamp: string }, index: number) => {
        const slot = rate.get(new Date(`${point.timestamp.slice(0, 10)}T12:00:00Z`).getUTCDay())!;
        return total + (slot.kwh / slot.hours) * hoursOf(march, index);
      },
      0,
    );
    expect(withExtensions.expectedConsumption.basis).toBe('WEEKS_BEFORE');
    expect(withExtensions.expectedConsumption.expectedKwh).toBeCloseTo(expected, 3);
    // 5 Sundays (the 29th of 23 h) at 0.6 kWh/h, 26 other days at 0.3 kWh/h.
    expect(expected).toBeCloseTo(0.6 * (4 * 24 + 23) + 26 * 24 * 0.3, 6);
    expect(withExtensions.expectedConsumption.differencePercent).toBeCloseTo(
      ((sum(march.points) - expected) / expected) * 100,
      1,
    );
    expect(withExtensions.expectedConsumption.daysUsed).toBe(28);
  });

  it('measures availability against daylight from the API’s production by the hour', async () => {
    const hourly = await get(server, `/plants/${plantUuid}/sensor-history-productions`, {
      startDate: '2026-03-01T00:00',
      endDate: '2026-04-01T00:00',
      granularity: 'hours',
    });
    expect(hourly.points).toHaveLength(743);
    const producing = hourly.points.filter(
      (point: { value: number | null }) => (point.value ?? 0) > 0,
    );
    // 10:00 to 16:00 UTC, every day, in full daylight in Madrid in March.
    expect(producing).toHaveLength(31 * 6);
    const availability = withExtensions.availability;
    expect(availability.producingHours).toBe(producing.length);
    expect(availability.unknownHours).toBe(0);
    // About 12 h from sunrise to sunset a day in March at 40° N, less the 50 minutes or so with
    // the sun under 5°, which is not daylight for availability.
    expect(availability.daylightHours / 31).toBeGreaterThan(10.3);
    expect(availability.daylightHours / 31).toBeLessThan(11.9);
    expect(availability.ratio).toBeCloseTo(186 / availability.daylightHours, 3);
    // The same day by the specification's hourly energy route: 6 producing hours on the 23-hour day.
    const spring = await get(server, `/plants/${plantUuid}/hourly-power-productions`, {
      date: '2026-03-29',
    });
    expect(spring.points.filter((point: { value: number }) => point.value > 0)).toHaveLength(6);
  });

  it('shows the data-health map’s coverage of the energy sensors and its findings', async () => {
    const health = await get(server, `/plants/${plantUuid}/data-health`, {
      startDate: '2026-03-01',
      endDate: '2026-03-31',
    });
    const coverageOf = (flow: string) =>
      health.sensors.find((sensor: { flow: string }) => sensor.flow === flow).coverageTotal;
    expect(withExtensions.dataHealth).toEqual({
      productionCoverage: coverageOf('PRODUCTION'),
      consumptionCoverage: coverageOf('CONSUMPTION'),
      findings: {
        gaps: sum(health.sensors.map((s: { gapCount: number }) => ({ value: s.gapCount }))),
        counterIssues: 0,
        frozen: sum(health.sensors.map((s: { frozenCount: number }) => ({ value: s.frozenCount }))),
      },
      sensors: 2,
    });
    // The silent half day of the consumption meter.
    expect(withExtensions.dataHealth?.consumptionCoverage).toBeCloseTo((743 - 12) / 743, 3);
    expect(withExtensions.dataHealth?.findings.gaps).toBeGreaterThanOrEqual(1);
  });

  it('puts the same plant report in the fleet report, every plant read page by page', async () => {
    const deps = depsOf(server);
    const plants = await reportPlants(deps);
    expect(plants.map((plant) => plant.uuid)).toContain(plantUuid);
    const { fleet, failed } = await makeReport(deps, plants, PERIOD);
    expect(failed).toEqual([]);
    expect(fleet.plants.find((plant) => plant.plant.uuid === plantUuid)).toEqual(withExtensions);
    expect(fleet.ranking[0]).toMatchObject({ plantUuid, rank: 1 });
  });

  it('is the same report against a server with only the specification’s routes', async () => {
    await server.close();
    server = await TestServer.start({ ...sameDatabase(), extensions: false });
    token = await server.tokenFor('admin');
    expect(
      (
        await server.request('GET', `/plants/${plantUuid}/summary-daily-power-productions`, {
          token,
          query: { startDate: '2026-03-01' },
        })
      ).status,
    ).toBe(404);
    // Without the data-health map the report keeps the metrics' coverage and says so.
    expect(
      (await server.request('GET', `/plants/${plantUuid}/data-health`, { token })).status,
    ).toBe(404);
    expect(await reportFrom(server)).toEqual({ ...withExtensions, dataHealth: null });
  });
});
