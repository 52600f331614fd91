import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../api/index.ts';
import type { Db } from '../../server/db/database.ts';
import { DEMO_SENSORS } from '../../server/demo/demoPlant.ts';
import { ingest, readingsOf } from '../../server/measurements/readingsStore.ts';
import { readingSensorOf } from '../../server/measurements/readingSensors.ts';
import { simulateUpTo, Simulator } from '../../server/simulator/index.ts';
import { simulatedPlants } from '../../server/simulator/plantInventory.ts';
import { createDevice, createPlant, createSensor, expectStatus } from '../support/entities.ts';
import { expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * The simulator inside a real server: the demo plant's history at start, live ticks for any
 * plant with sim:// sensors (driven directly, with an injected clock), and sensors fed through
 * the readings endpoint left alone.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The server's clock: 2026-11-18 12:00 UTC (13:00 in Bolzano). */
const NOW = Date.UTC(2026, 10, 18, 12, 0);
const EVER = [-8.64e15, 8.64e15] as const;

let server: TestServer;
let db: Db;
let token: string;
let demoPlant: string;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;
let simulatorVendor: string;

/** Demo sensor key → uuid, by the address the seed gave it. */
async function demoSensorUuids(): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('sensors')
    .select(['sensor_uuid', 'connection_address'])
    .where('plant_uuid', '=', demoPlant)
    .execute();
  return Object.fromEntries(
    DEMO_SENSORS.map((sensor) => [
      sensor.key,
      rows.find((row) => row.connection_address === sensor.address)!.sensor_uuid,
    ]),
  );
}

const readings = (sensorUuid: string) => readingsOf(db, sensorUuid, ...EVER);

async function simSensor(
  plantUuid: string,
  body: { flow: string; dataTypes: string[]; address: string; interval?: number; type?: string },
): Promise<string> {
  const sensor = await createSensor(server, token, plantUuid, {
    name: `Simulated ${body.address}`,
    sensorTypeUuid: sensorTypes[body.type ?? 'POWER_METER'],
    dataTypesCollectUuids: body.dataTypes.map((code) => dataTypes[code]),
    flow: body.flow,
    samplingIntervalSeconds: body.interval ?? 60,
    connection: { vendorUuid: simulatorVendor, address: body.address },
  });
  return sensor.sensorUuid as string;
}

beforeAll(async () => {
  server = await TestServer.start({
    now: () => new Date(NOW),
    simulation: { historyDays: 2, live: false },
  });
  db = server.server.context.db;
  token = await server.tokenFor('admin');
  demoPlant = await server.demoPlantUuid();
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  simulatorVendor = (await server.catalog('/vendors', 'vendorUuid')).SIMULATOR!;
});

afterAll(() => server?.close());

describe('demo plant history at start', () => {
  it('gives every demo sensor 2 days of readings at 1-minute spacing, ending now', async () => {
    const uuids = await demoSensorUuids();
    expect(Object.keys(uuids)).toHaveLength(DEMO_SENSORS.length);
    for (const sensorUuid of Object.values(uuids)) {
      const rows = await readings(sensorUuid);
      expect(rows).toHaveLength(2 * 1440);
      expect(rows[0]!.takenAt).toBe(NOW - 2 * DAY + MIN);
      expect(rows.at(-1)!.takenAt).toBe(NOW);
      expect(
        rows.every((row, index) => index === 0 || row.takenAt - rows[index - 1]!.takenAt === MIN),
      ).toBe(true);
    }
  });

  it('keeps consumption = production + grid + storage at every sample', async () => {
    const uuids = await demoSensorUuids();
    const [pv, grid, battery, consumption] = await Promise.all(
      ['pv', 'grid', 'batteryPower', 'consumption'].map((key) => readings(uuids[key]!)),
    );
    let worst = 0;
    for (let index = 0; index < consumption!.length; index++) {
      expect(pv![index]!.takenAt).toBe(consumption![index]!.takenAt);
      const balance = pv![index]!.value + grid![index]!.value + battery![index]!.value;
      worst = Math.max(worst, Math.abs(balance - consumption![index]!.value));
    }
    expect(worst).toBeLessThanOrEqual(1e-9);
  });

  it('answers plausible November numbers for Bolzano through the metrics routes', async () => {
    const production = await server.request('GET', `/plants/${demoPlant}/daily-power-productions`, {
      token,
      query: { date: '2026-11-17' },
    });
    const series = routes.dailyProduction.response.parse(
      expectStatus(production, 200, 'production'),
    );
    const yesterday = series.points.at(-1)!;
    expect(yesterday.coverage).toBeCloseTo(1, 9);
    // 8.4 kWp facing south at 30°, in November: 0 (overcast) to ~35 kWh (clear).
    expect(yesterday.value).toBeGreaterThanOrEqual(0);
    expect(yesterday.value).toBeLessThanOrEqual(35);

    const hourly = await server.request('GET', `/plants/${demoPlant}/hourly-power-productions`, {
      token,
      query: { date: '2026-11-17' },
    });
    const hours = routes.hourlyProduction.response.parse(expectStatus(hourly, 200, 'hourly'));
    // Local midnight to 06:00 and 18:00 to midnight: dark in November.
    for (const index of [0, 1, 2, 3, 4, 5, 18, 19, 20, 21, 22, 23]) {
      expect(hours.points[index]!.value).toBe(0);
    }

    const consumption = await server.request(
      'GET',
      `/plants/${demoPlant}/daily-power-consumptions`,
      { token, query: { date: '2026-11-17' } },
    );
    const used = routes.dailyConsumption.response.parse(
      expectStatus(consumption, 200, 'consumption'),
    );
    // Base load, a heat pump in November and perhaps a car: 10 to 70 kWh.
    expect(used.points.at(-1)!.value).toBeGreaterThan(10);
    expect(used.points.at(-1)!.value).toBeLessThan(70);
  });
});

describe('live readings', () => {
  let plantUuid: string;
  let sensors: Record<'pv' | 'grid' | 'consumption' | 'temperature', string>;

  beforeAll(async () => {
    plantUuid = (
      await createPlant(server, token, {
        name: 'Simulated roof',
        location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
        pv: { peakPowerKw: 6, tiltDeg: 25, azimuthDeg: 170, lossesPercent: 12 },
      })
    ).plantUuid;
    sensors = {
      pv: await simSensor(plantUuid, {
        flow: 'PRODUCTION',
        dataTypes: ['POWER'],
        address: 'sim://roof/pv',
      }),
      grid: await simSensor(plantUuid, {
        flow: 'GRID',
        dataTypes: ['POWER'],
        address: 'sim://roof/grid',
      }),
      consumption: await simSensor(plantUuid, {
        flow: 'CONSUMPTION',
        dataTypes: ['POWER', 'ENERGY'],
        address: 'sim://roof/consumption',
      }),
      temperature: await simSensor(plantUuid, {
        flow: 'AMBIENT',
        dataTypes: ['TEMPERATURE'],
        type: 'TEMPERATURE_SENSOR',
        address: 'sim://roof/outdoor-temperature',
      }),
    };
  });

  it('a new plant with sim:// sensors gets its readings from the next tick on', async () => {
    for (const sensorUuid of Object.values(sensors))
      expect(await readings(sensorUuid)).toHaveLength(0);

    const first = await simulateUpTo(db, { nowMs: NOW + 5 * MIN + 20_000 });
    expect(first.plants).toBe(2); // the demo plant catches up as well
    for (const sensorUuid of Object.values(sensors)) {
      expect((await readings(sensorUuid)).map((row) => row.takenAt)).toEqual([NOW + 5 * MIN]);
    }

    await simulateUpTo(db, { nowMs: NOW + 8 * MIN });
    const pv = await readings(sensors.pv);
    expect(pv.map((row) => row.takenAt)).toEqual([5, 6, 7, 8].map((k) => NOW + k * MIN));
    // Early afternoon in Turin: daylight.
    expect(pv.every((row) => row.value >= 0 && row.value <= 6000)).toBe(true);
    const [grid, consumption] = [await readings(sensors.grid), await readings(sensors.consumption)];
    for (let index = 0; index < pv.length; index++) {
      expect(consumption[index]!.value).toBeCloseTo(pv[index]!.value + grid[index]!.value, 9);
    }
    const temperatures = await readings(sensors.temperature);
    expect(temperatures.every((row) => row.value > -25 && row.value < 30)).toBe(true);

    const demo = await demoSensorUuids();
    expect((await readings(demo.pv!)).at(-1)!.takenAt).toBe(NOW + 8 * MIN);
  });

  it('writes the same values again for the same seed, plant and minute', async () => {
    const before = await readings(sensors.consumption);
    await db.deleteFrom('readings').where('sensor_uuid', '=', sensors.consumption).execute();
    await simulateUpTo(db, { nowMs: NOW + 8 * MIN, historyDays: (4 * MIN) / DAY });
    const after = await readings(sensors.consumption);
    expect(after).toEqual(before);
  });

  it('catches up at most 90 days after a long stop', async () => {
    const hourly = await simSensor(plantUuid, {
      flow: 'CONSUMPTION',
      dataTypes: ['POWER'],
      address: 'sim://roof/hourly',
      interval: 3600,
    });
    const sensor = (await readingSensorOf(db, hourly))!;
    await ingest(db, sensor, [{ takenAt: NOW - 200 * DAY, value: 500 }]);
    await simulateUpTo(db, { nowMs: NOW + 8 * MIN });
    const rows = await readings(hourly);
    expect(rows).toHaveLength(1 + 90 * 24);
    expect(rows[1]!.takenAt).toBe(NOW - 90 * DAY + HOUR);
    expect(rows.at(-1)!.takenAt).toBe(NOW);
  });
});

describe('what a plant simulates', () => {
  it('reads the demo plant: PV with the inverter limit, the battery, every load and each channel', async () => {
    const plant = (await simulatedPlants(db, 1)).find(
      (entry) => entry.config.plantUuid === demoPlant,
    )!;
    expect(plant.config.pv).toEqual({
      peakPowerKw: 8.4,
      tiltDeg: 30,
      azimuthDeg: 180,
      lossesPercent: 14,
      inverterLimitW: 8000,
    });
    expect(plant.config.battery).toEqual({ capacityKwh: 10, maxPowerW: 5000 });
    expect(plant.config.loads.map((load) => load.kind).sort()).toEqual([
      'ev',
      'heatPump',
      'household',
    ]);
    const uuids = await demoSensorUuids();
    const channelOf = (key: string) =>
      plant.sensors.find((entry) => entry.sensor.sensorUuid === uuids[key])!.channel;
    expect(channelOf('pv')).toEqual({ source: 'pv' });
    expect(channelOf('batteryPower')).toEqual({ source: 'battery' });
    expect(channelOf('batterySoc')).toEqual({ source: 'soc' });
    expect(channelOf('grid')).toEqual({ source: 'grid' });
    expect(channelOf('consumption')).toEqual({ source: 'consumption' });
    expect(channelOf('outdoorTemperature')).toEqual({ source: 'temperature' });
    expect(channelOf('irradiance')).toEqual({ source: 'irradiance' });
    expect(channelOf('heatPump')).toMatchObject({ source: 'load' });
    expect(channelOf('evCharger')).toMatchObject({ source: 'load' });
  });

  it('takes battery capacity from metadata and a consumer device’s load from its signature', async () => {
    const deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
    const signatures = await server.catalog('/load-signatures', 'loadSignatureUuid');
    const plantUuid = (await createPlant(server, token, { name: 'Boiler and battery' })).plantUuid;
    await createDevice(server, token, plantUuid, {
      name: 'Small battery',
      deviceTypeUuid: deviceTypes.BATTERY,
      ratedPowerW: 2500,
      metadata: { capacityKwh: 5.1 },
    });
    const boiler = await createDevice(server, token, plantUuid, {
      name: 'Boiler',
      deviceTypeUuid: deviceTypes.WATER_HEATER,
      ratedPowerW: 2000,
      loadSignatureUuid: signatures.WATER_HEATER_MORNING,
    });
    await simSensor(plantUuid, {
      flow: 'STORAGE',
      dataTypes: ['STATE_OF_CHARGE'],
      type: 'BATTERY_MONITOR',
      address: 'sim://b/battery/soc',
    });
    const boilerSensor = await createSensor(server, token, plantUuid, {
      sensorTypeUuid: sensorTypes.POWER_METER,
      dataTypesCollectUuids: [dataTypes.POWER],
      flow: 'CONSUMPTION',
      deviceUuid: boiler.deviceUuid,
      connection: { vendorUuid: simulatorVendor, address: 'sim://b/boiler' },
    });
    const plant = (await simulatedPlants(db, 1)).find(
      (entry) => entry.config.plantUuid === plantUuid,
    )!;
    expect(plant.config.battery).toEqual({ capacityKwh: 5.1, maxPowerW: 2500 });
    // No PV settings and no production sensor: no array; the irradiance plane faces south.
    expect(plant.config.pv).toBeNull();
    expect(plant.config.loads.find((load) => load.key === boiler.deviceUuid)).toMatchObject({
      kind: 'profile',
      typicalDailyKwh: 4,
      ratedPowerW: 2000,
    });
    expect(
      plant.sensors.find((entry) => entry.sensor.sensorUuid === boilerSensor.sensorUuid)!.channel,
    ).toEqual({ source: 'load', loadKey: boiler.deviceUuid });
  });
});

describe('sensors fed through the readings endpoint', () => {
  let plantUuid: string;

  beforeAll(async () => {
    plantUuid = (await createPlant(server, token, { name: 'Fed by a test suite' })).plantUuid;
  });

  const post = (sensorUuid: string, readings: { timestamp: string; value: number }[]) =>
    server.request('POST', `/plants/${plantUuid}/sensors/${sensorUuid}/readings`, {
      token,
      body: { readings },
    });

  it('are never simulated again, even at a sim:// address', async () => {
    const fed = await simSensor(plantUuid, {
      flow: 'CONSUMPTION',
      dataTypes: ['POWER'],
      address: 'sim://suite/consumption',
    });
    const known = [0, 1, 2].map((k) => ({
      timestamp: new Date(NOW - DAY + k * MIN).toISOString(),
      value: 1000 + k,
    }));
    expect((await post(fed, known)).status).toBe(202);
    await simulateUpTo(db, { nowMs: NOW + 10 * MIN });
    expect((await readings(fed)).map((row) => row.value)).toEqual([1000, 1001, 1002]);
    const marked = await db
      .selectFrom('externally_fed_sensors')
      .selectAll()
      .where('sensor_uuid', '=', fed)
      .executeTakeFirst();
    expect(marked?.first_fed_at).toBe(new Date(NOW).toISOString());
  });

  it('a rejected batch does not count: the sensor stays simulated', async () => {
    const counter = await simSensor(plantUuid, {
      flow: 'PRODUCTION',
      dataTypes: ['ENERGY'],
      type: 'ENERGY_METER',
      address: 'sim://suite/pv',
    });
    const response = await post(counter, [{ timestamp: new Date(NOW).toISOString(), value: -1 }]);
    expectErrorBody(response, 422);
    await simulateUpTo(db, { nowMs: NOW + 12 * MIN });
    const rows = await readings(counter);
    expect(rows.map((row) => row.takenAt)).toEqual([NOW + 12 * MIN]);
    expect(rows[0]!.value).toBeGreaterThanOrEqual(0);
  });
});

describe('restart', () => {
  it('catches up from the last reading, without a gap, and keeps its history', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'plantdesk-simulator-'));
    const file = join(directory, 'plantdesk.db');
    try {
      const first = await TestServer.start({
        db: file,
        now: () => new Date(NOW),
        simulation: { historyDays: 1, live: false },
      });
      const plant = await first.demoPlantUuid();
      await first.close();

      const second = await TestServer.start({
        db: file,
        now: () => new Date(NOW + 45 * MIN),
        simulation: { live: false },
      });
      try {
        const secondDb = second.server.context.db;
        const sensor = await secondDb
          .selectFrom('sensors')
          .select('sensor_uuid')
          .where('plant_uuid', '=', plant)
          .where('connection_address', '=', 'sim://demo-home/pv')
          .executeTakeFirstOrThrow();
        const rows = await readingsOf(secondDb, sensor.sensor_uuid, ...EVER);
        expect(rows).toHaveLength(1440 + 45);
        expect(rows.at(-1)!.takenAt).toBe(NOW + 45 * MIN);
        expect(
          rows.every((row, index) => index === 0 || row.takenAt - rows[index - 1]!.takenAt === MIN),
        ).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('live: a newly connected sensor', () => {
  it('gets its reading of the current minute within seconds, not at the next minute', async () => {
    const own = await TestServer.start({ simulation: false });
    // The clock stands 20 s into a minute: the next minute tick is 40 s away.
    const simulator = new Simulator(own.server.context.db, {
      now: () => new Date(NOW + 20_000),
      newSensorCheckMs: 50,
      onError: (error) => {
        throw error;
      },
    });
    try {
      const ownToken = await own.tokenFor('installer');
      const vendor = (await own.catalog('/vendors', 'vendorUuid')).SIMULATOR!;
      const types = await own.catalog('/sensor-types', 'sensorTypeUuid');
      const kinds = await own.catalog('/data-types-collects', 'dataTypesCollectUuid');
      const plant = await createPlant(own, ownToken, { name: 'Commissioned just now' });
      simulator.startLive();
      // The first check notes what is connected (the demo plant's sensors) without a pass.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const passes = vi.spyOn(simulator, 'catchUp');

      const sensor = await createSensor(own, ownToken, plant.plantUuid, {
        name: 'Inverter output',
        sensorTypeUuid: types.POWER_METER,
        dataTypesCollectUuids: [kinds.POWER],
        flow: 'PRODUCTION',
        connection: { vendorUuid: vendor, address: 'sim://commissioned/pv' },
      });
      const ownReadings = () =>
        readingsOf(own.server.context.db, sensor.sensorUuid as string, ...EVER);
      await vi.waitFor(
        async () => {
          expect(await ownReadings()).toHaveLength(1);
        },
        { timeout: 5_000, interval: 50 },
      );
      expect((await ownReadings())[0]!.takenAt).toBe(NOW);
      expect(passes).toHaveBeenCalledTimes(1);

      // Nothing new connected: the checks that follow run no pass (at most a minute tick of
      // the real clock falls in this window).
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(passes.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      await simulator.stop();
      await own.close();
    }
  });
});

describe('a reversed current transformer (REVERSED_CT) recorded with signInverted', () => {
  it('stores the readings the right way round, and a later setting turns the history too', async () => {
    const plantUuid = (
      await createPlant(server, token, {
        name: 'Reversed CT',
        location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
        pv: { peakPowerKw: 6, tiltDeg: 25, azimuthDeg: 170, lossesPercent: 12 },
      })
    ).plantUuid as string;
    const reversed = { simulation: { fault: { kind: 'REVERSED_CT' } } };
    const grid = async (address: string, extra: Record<string, unknown> = {}) =>
      (
        await createSensor(server, token, plantUuid, {
          name: `Grid ${address}`,
          sensorTypeUuid: sensorTypes.POWER_METER,
          dataTypesCollectUuids: [dataTypes.POWER],
          flow: 'GRID',
          samplingIntervalSeconds: 60,
          connection: { vendorUuid: simulatorVendor, address },
          ...extra,
        })
      ).sensorUuid as string;
    await simSensor(plantUuid, {
      flow: 'PRODUCTION',
      dataTypes: ['POWER'],
      address: 'sim://ct/pv',
    });
    const right = await grid('sim://ct/grid');
    const fixed = await grid('sim://ct/grid-fixed', { metadata: reversed, signInverted: true });
    const broken = await grid('sim://ct/grid-broken', { metadata: reversed });

    await simulateUpTo(db, { nowMs: NOW + 20 * MIN, historyDays: (15 * MIN) / DAY });
    const expected = await readings(right);
    expect(expected).toHaveLength(15);
    expect(expected.some((row) => row.value !== 0)).toBe(true);
    const values = async (sensorUuid: string) =>
      (await readings(sensorUuid)).map(({ takenAt, value }) => ({ takenAt, value }));
    const rightValues = expected.map(({ takenAt, value }) => ({ takenAt, value }));
    expect(await values(fixed)).toEqual(rightValues);
    expect(await values(broken)).toEqual(
      rightValues.map(({ takenAt, value }) => ({ takenAt, value: 0 - value })),
    );

    // Recorded later: what is stored turns, and what comes next arrives the right way round.
    const put = await server.request('PUT', `/plants/${plantUuid}/sensors/${broken}`, {
      token,
      body: { signInverted: true },
    });
    expectStatus(put, 200, 'PUT signInverted');
    await simulateUpTo(db, { nowMs: NOW + 25 * MIN });
    const later = await values(right);
    expect(later).toHaveLength(20);
    expect(await values(broken)).toEqual(later);
    expect(await values(fixed)).toEqual(later);
  });
});
