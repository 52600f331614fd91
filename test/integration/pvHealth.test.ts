import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../api/index.ts';
import { createPvModel } from '../../server/domain/index.ts';
import {
  CLEAR_SKY_STEP_MS,
  FORECAST_AMBIENT_C,
} from '../../server/forecasts/clearSkyProduction.ts';
import { createDevice, createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * GET /plants/{plantUuid}/pv-health over HTTP, on plants in Europe/Rome with known production
 * and irradiance. The server's clock: 2026-06-10 10:20 local; its thresholds: DEGRADED below
 * 90 % (the default is 80 %), to show they are configurable.
 */

const ZONE = 'Europe/Rome';
const NOW = Date.parse('2026-06-10T08:20:00Z');
const QUARTER = 900_000;
const DAY = 86_400_000;
/** 2026-06-03 00:00 CEST: the first of the default range, the last 7 full local days. */
const JUNE_3 = Date.parse('2026-06-02T22:00:00Z');
const LOCATION = { latitude: 45.07, longitude: 7.69, timezone: ZONE };
const PV = { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 10 };

let server: TestServer;
let admin: string;
let manager: string;
let outsider: string;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;
let withIrradiance: string;
let withoutIrradiance: string;
let unmeasured: string;

/** 08:00–16:00 local: 32 quarter-hours of each day. */
const isWorkingHours = (ms: number) => {
  const minutes = ((ms - JUNE_3) % DAY) / 60_000;
  return minutes >= 8 * 60 && minutes < 16 * 60;
};

async function sensor(plantUuid: string, type: string, dataType: string, flow: string) {
  const body = {
    name: `${dataType} ${flow}`,
    sensorTypeUuid: sensorTypes[type],
    dataTypesCollectUuids: [dataType === 'IRRADIANCE' ? dataTypes.IRRADIANCE : dataTypes.POWER],
    flow,
    samplingIntervalSeconds: 900,
  };
  return (await createSensor(server, admin, plantUuid, body)).sensorUuid as string;
}

/** A reading every quarter-hour of `days` days from `first`, holding for the quarter-hour. */
async function ingest(
  plantUuid: string,
  sensorUuid: string,
  first: number,
  days: number,
  value: (ms: number) => number,
) {
  const readings = Array.from({ length: days * 96 }, (_, index) => {
    const at = first + index * QUARTER;
    return { timestamp: new Date(at).toISOString(), value: value(at) };
  });
  const response = await server.request(
    'POST',
    `/plants/${plantUuid}/sensors/${sensorUuid}/readings`,
    {
      token: admin,
      body: { readings },
    },
  );
  expectStatus(response, 202, 'ingest');
}

const health = (plantUuid: string, query: Record<string, string> = {}, token = admin) =>
  server.request('GET', `/plants/${plantUuid}/pv-health`, { token, query });

beforeAll(async () => {
  server = await TestServer.start({
    now: () => new Date(NOW),
    pvHealth: { degradedBelowPercent: 90 },
  });
  admin = await server.tokenFor('admin');
  manager = await server.tokenFor('manager');
  outsider = await server.tokenFor('outsider');
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  const deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');

  // 2 kW under 500 W/m² from 08:00 to 16:00, 7 days. By hand, per day: E_AC = 16 kWh,
  // H_POA = 4 kWh/m², PR = (16 / 5) / (4 / 1) = 0.8, expected = 5 × 4 × 0.9 = 18 kWh.
  withIrradiance = (await createPlant(server, admin, { location: LOCATION, pv: PV })).plantUuid;
  await createDevice(server, admin, withIrradiance, {
    name: 'Inverter',
    deviceTypeUuid: deviceTypes.INVERTER,
    ratedPowerW: 5000,
  });
  const production = await sensor(withIrradiance, 'POWER_METER', 'POWER', 'PRODUCTION');
  const irradiance = await sensor(withIrradiance, 'PYRANOMETER', 'IRRADIANCE', 'AMBIENT');
  await ingest(withIrradiance, production, JUNE_3, 7, (ms) => (isWorkingHours(ms) ? 2000 : 0));
  await ingest(withIrradiance, irradiance, JUNE_3, 7, (ms) => (isWorkingHours(ms) ? 500 : 0));

  // 2026-06-04: 3 kW from 08:00 to 16:00; 2026-06-05: 0 W all day.
  withoutIrradiance = (await createPlant(server, admin, { location: LOCATION, pv: PV })).plantUuid;
  const inverter = await sensor(withoutIrradiance, 'POWER_METER', 'POWER', 'PRODUCTION');
  await ingest(withoutIrradiance, inverter, JUNE_3 + DAY, 2, (ms) =>
    ms < JUNE_3 + 2 * DAY && isWorkingHours(ms) ? 3000 : 0,
  );

  unmeasured = (await createPlant(server, admin, { location: LOCATION, pv: PV })).plantUuid;
  await sensor(unmeasured, 'POWER_METER', 'POWER', 'PRODUCTION');
});

afterAll(async () => {
  await server?.close();
});

describe('GET /plants/{plantUuid}/pv-health', () => {
  it('computes the IEC 61724-1 performance ratio from measured irradiance over the last 7 full days', async () => {
    const body = routes.pvHealth.response.parse(
      expectStatus(await health(withIrradiance), 200, 'health'),
    );
    expect(body).toMatchObject({
      plantUuid: withIrradiance,
      timezone: ZONE,
      from: '2026-06-03T00:00:00+02:00',
      to: '2026-06-10T00:00:00+02:00',
      energyProducedKwh: 112,
      expectedEnergyKwh: 126,
      performanceRatio: 0.8,
      performancePercent: 88.888889,
      // 88.9 % is healthy by default but below this server's 90 % threshold.
      status: 'DEGRADED',
    });
    expect(body.indicators).toEqual([
      {
        code: 'LOW_PERFORMANCE_RATIO',
        level: 'WARNING',
        message:
          'Produced 88.9 % of the expected energy (performance ratio 0.80); below 90 % counts as degraded',
      },
    ]);
  });

  it('reports a day without data as a gap, not as lost performance', async () => {
    const body = expectStatus(
      await health(withIrradiance, { startDate: '2026-06-09', endDate: '2026-06-10' }),
      200,
      'health',
    );
    expect(body).toMatchObject({
      from: '2026-06-09T00:00:00+02:00',
      to: '2026-06-11T00:00:00+02:00',
      energyProducedKwh: 16,
      expectedEnergyKwh: 18,
      performanceRatio: 0.8,
      status: 'DEGRADED',
    });
    expect(body.indicators.map((indicator: any) => indicator.code)).toEqual([
      'DATA_GAPS',
      'LOW_PERFORMANCE_RATIO',
    ]);
    expect(body.indicators[0].message).toBe(
      'Production data covers less than 90 % of daylight on 1 day: 2026-06-10',
    );
  });

  it('without an irradiance sensor expects clear sky × 0.6, has no PR, and faults on a day without production', async () => {
    const body = routes.pvHealth.response.parse(
      expectStatus(
        await health(withoutIrradiance, { startDate: '2026-06-04', endDate: '2026-06-05' }),
        200,
        'health',
      ),
    );
    const model = createPvModel({
      latitudeDeg: LOCATION.latitude,
      longitudeDeg: LOCATION.longitude,
      pv: PV,
    });
    let clearSky = 0;
    for (let at = JUNE_3 + DAY; at < JUNE_3 + 3 * DAY; at += QUARTER) {
      clearSky += model.clearSkyEnergyKwh(at, at + QUARTER, FORECAST_AMBIENT_C, CLEAR_SKY_STEP_MS);
    }
    expect(body.energyProducedKwh).toBe(24);
    expect(body.expectedEnergyKwh).toBeCloseTo(0.6 * clearSky, 5);
    expect(body.performancePercent).toBeCloseTo((24 / (0.6 * clearSky)) * 100, 4);
    expect(body.performanceRatio).toBeNull();
    expect(body.status).toBe('FAULT');
    expect(body.indicators).toEqual([
      {
        code: 'DAYS_WITHOUT_PRODUCTION',
        level: 'CRITICAL',
        message: 'No production on 1 day with daylight: 2026-06-05',
      },
      expect.objectContaining({ code: 'LOW_PERFORMANCE_RATIO', level: 'WARNING' }),
      {
        code: 'IRRADIANCE_SENSOR_MISSING',
        level: 'INFO',
        message:
          'No IRRADIANCE sensor: expected energy comes from the clear-sky model × a climatological clear-sky index of 0.6, and performanceRatio is not computed',
      },
    ]);
  });

  it('answers NO_DATA without production readings', async () => {
    const body = routes.pvHealth.response.parse(
      expectStatus(await health(unmeasured, {}, manager), 200, 'health'),
    );
    expect(body).toMatchObject({
      energyProducedKwh: 0,
      expectedEnergyKwh: null,
      performancePercent: null,
      performanceRatio: null,
      status: 'NO_DATA',
      indicators: [
        {
          code: 'NO_PRODUCTION_DATA',
          level: 'WARNING',
          message: 'No production data in the range',
        },
      ],
    });
  });
});

describe('PV health errors', () => {
  it('answers 400 naming a malformed date', async () => {
    const start = expectErrorBody(await health(withIrradiance, { startDate: '2026-6-1' }), 400);
    expect(start.message).toContain('startDate must be a date in the format yyyy-MM-dd');
    const end = expectErrorBody(await health(withIrradiance, { endDate: '2026-02-30' }), 400);
    expect(end.message).toContain('endDate must be a date in the format yyyy-MM-dd');
  });

  it('answers 422 for an inverted range or one over 366 days', async () => {
    const inverted = expectErrorBody(
      await health(withIrradiance, { startDate: '2026-06-05', endDate: '2026-06-01' }),
      422,
    );
    expect(inverted.message).toBe('startDate 2026-06-05 is after endDate 2026-06-01');
    const defaulted = expectErrorBody(
      await health(withIrradiance, { startDate: '2026-06-12' }),
      422,
    );
    expect(defaulted.message).toBe(
      'startDate 2026-06-12 is after endDate (default yesterday) 2026-06-09',
    );
    const long = expectErrorBody(
      await health(withIrradiance, { startDate: '2025-01-01', endDate: '2026-01-02' }),
      422,
    );
    expect(long.message).toContain('spans 367 days; at most 366 days are allowed');
  });

  it('answers 401 without a token and 404 for a plant of another organization', async () => {
    expectErrorBody(await health(withIrradiance, {}, ''), 401);
    expectErrorBody(await health(withIrradiance, {}, outsider), 404);
  });
});
