import { DateTime } from 'luxon';
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
 * The forecast routes over HTTP on plants in Europe/Rome with known ingested readings, the
 * server's clock fixed at Wednesday 2026-06-10 10:20 local time.
 */

const ZONE = 'Europe/Rome';
const NOW = Date.parse('2026-06-10T08:20:00Z');
const HOUR = 3_600_000;
/** The start of the current local hour, 10:00 CEST. */
const CURRENT_HOUR = Date.parse('2026-06-10T08:00:00Z');
const LOCATION = { latitude: 45.07, longitude: 7.69, timezone: ZONE };
const PV = { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 };
/** Solar noon at 7.69°E in June: 12:00 UTC − 7.69 × 4 min − the equation of time (~1 min). */
const SOLAR_NOON_UTC = Date.parse('2026-06-10T11:28:00Z');

const model = createPvModel({
  latitudeDeg: LOCATION.latitude,
  longitudeDeg: LOCATION.longitude,
  pv: PV,
});
const clearSkyKwh = (start: number) =>
  model.clearSkyEnergyKwh(start, start + HOUR, FORECAST_AMBIENT_C, CLEAR_SKY_STEP_MS);
/** Mornings at 40 % of clear sky, afternoons at 60 %. */
const ratioOf = (start: number) =>
  (start + HOUR / 2) % 86_400_000 < SOLAR_NOON_UTC % 86_400_000 ? 0.4 : 0.6;

/** A weekly consumption pattern in W, by local weekday (1 = Monday) and hour. */
const consumptionW = (weekday: number, hour: number) =>
  300 + 40 * hour + (weekday >= 6 ? 500 : 0) + (weekday === 3 ? 150 : 0);
const localOf = (ms: number) => DateTime.fromMillis(ms, { zone: ZONE });

let server: TestServer;
let admin: string;
let outsider: string;
let sensorTypes: Record<string, string>;
let dataTypes: Record<string, string>;
let deviceTypes: Record<string, string>;
let signatures: Record<
  string,
  { loadSignatureUuid: string; hourlyProfile: number[]; typicalDailyKwh: number }
>;
let measured: string; // pv, 7 days of production, 3 weeks of consumption, devices of every category
let shortHistory: string; // no pv, 2 days of consumption, a heat pump
let empty: string; // pv, nothing measured

async function sensor(plantUuid: string, flow: string, interval: number, deviceUuid?: string) {
  const body = {
    name: `${flow} meter`,
    sensorTypeUuid: sensorTypes.POWER_METER,
    dataTypesCollectUuids: [dataTypes.POWER],
    flow,
    samplingIntervalSeconds: interval,
    ...(deviceUuid && { deviceUuid }),
  };
  return (await createSensor(server, admin, plantUuid, body)).sensorUuid as string;
}

/** One reading at the start of each hour, holding for the hour (sampling interval 1 h). */
async function ingestHourly(
  plantUuid: string,
  sensorUuid: string,
  hours: number,
  watts: (start: number) => number,
) {
  const readings = Array.from({ length: hours }, (_, index) => {
    const start = CURRENT_HOUR - (hours - index) * HOUR;
    return { timestamp: new Date(start).toISOString(), value: watts(start) };
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

const get = (
  plantUuid: string,
  route: string,
  query: Record<string, string | number> = {},
  token = admin,
) => server.request('GET', `/plants/${plantUuid}/${route}`, { token, query });

beforeAll(async () => {
  server = await TestServer.start({ now: () => new Date(NOW) });
  admin = await server.tokenFor('admin');
  outsider = await server.tokenFor('outsider');
  sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
  dataTypes = await server.catalog('/data-types-collects', 'dataTypesCollectUuid');
  deviceTypes = await server.catalog('/device-types', 'deviceTypeUuid');
  const listed = await server.request('GET', '/load-signatures', {
    token: admin,
    query: { size: 200 },
  });
  signatures = Object.fromEntries(listed.body.content.map((entry: any) => [entry.code, entry]));

  measured = (await createPlant(server, admin, { location: LOCATION, pv: PV })).plantUuid;
  await ingestHourly(
    measured,
    await sensor(measured, 'PRODUCTION', 3600),
    7 * 24,
    (start) => ratioOf(start) * clearSkyKwh(start) * 1000,
  );
  await ingestHourly(measured, await sensor(measured, 'CONSUMPTION', 3600), 21 * 24, (start) =>
    consumptionW(localOf(start).weekday, localOf(start).hour),
  );
  const device = (body: Record<string, unknown>) => createDevice(server, admin, measured, body);
  await device({ name: 'Inverter', deviceTypeUuid: deviceTypes.INVERTER, ratedPowerW: 5000 });
  await device({
    name: 'Heat pump',
    deviceTypeUuid: deviceTypes.HEAT_PUMP,
    loadSignatureUuid: signatures.HEAT_PUMP_WINTER!.loadSignatureUuid,
  });
  await device({ name: 'Wallbox', deviceTypeUuid: deviceTypes.EV_CHARGER });
  await device({ name: 'Battery', deviceTypeUuid: deviceTypes.BATTERY, ratedPowerW: 5000 });
  await device({ name: 'Grid meter', deviceTypeUuid: deviceTypes.METER });

  shortHistory = (await createPlant(server, admin, { location: LOCATION })).plantUuid;
  await ingestHourly(shortHistory, await sensor(shortHistory, 'CONSUMPTION', 3600), 48, () => 500);
  await createDevice(server, admin, shortHistory, {
    name: 'Heat pump',
    deviceTypeUuid: deviceTypes.HEAT_PUMP,
    loadSignatureUuid: signatures.HEAT_PUMP_WINTER!.loadSignatureUuid,
  });
  await createDevice(server, admin, shortHistory, {
    name: 'Inverter',
    deviceTypeUuid: deviceTypes.INVERTER,
  });
  await createDevice(server, admin, shortHistory, {
    name: 'Grid meter',
    deviceTypeUuid: deviceTypes.METER,
  });

  empty = (await createPlant(server, admin, { location: LOCATION, pv: PV })).plantUuid;
});

afterAll(async () => {
  await server?.close();
});

const hourStarts = (count: number, first = CURRENT_HOUR + HOUR) =>
  Array.from({ length: count }, (_, index) => first + index * HOUR);
const localText = (ms: number) => localOf(ms).toISO({ suppressMilliseconds: true })!;

describe('GET /plants/{plantUuid}/predict-power-production', () => {
  it('answers 48 hourly points from the next local hour, clear sky × the recent clear-sky index', async () => {
    const response = await get(measured, 'predict-power-production');
    const body = routes.predictProduction.response.parse(expectStatus(response, 200, 'forecast'));
    expect(body).toMatchObject({
      plantUuid: measured,
      timezone: ZONE,
      unit: 'kWh',
      from: '2026-06-10T11:00:00+02:00',
      to: '2026-06-12T11:00:00+02:00',
    });
    expect(body.method).toMatch(
      /^clear-sky\(ineichen\)\+spa\+hay-davies\+pvwatts × clear-sky-index\(recent/,
    );
    expect(body.points.map((point) => point.timestamp)).toEqual(hourStarts(48).map(localText));

    // The index relaxes from the recent one to the week's (between the morning's 0.4 and the
    // afternoon's 0.6) over 48 h; the interval is those two ratios.
    const [, recent, week] = /recent, half-life 3h: ([\d.]+) → 7d: ([\d.]+), over 48h\)$/
      .exec(body.method)!
      .map(Number);
    // Mostly this morning's hours; yesterday afternoon's weigh a little.
    expect(recent).toBeGreaterThan(0.4);
    expect(recent).toBeLessThan(0.45);
    expect(week).toBeGreaterThan(0.45);
    expect(week).toBeLessThan(0.55);
    body.points.forEach((point, position) => {
      const start = hourStarts(48)[position]!;
      const clearSky = clearSkyKwh(start);
      const hoursAhead = (start + HOUR / 2 - NOW) / HOUR;
      const index = week! + (recent! - week!) * Math.exp(-hoursAhead / 48);
      expect(point.value).toBeCloseTo(clearSky * index, 2);
      expect(point.lower).toBeCloseTo(clearSky * 0.4, 5);
      expect(point.upper).toBeCloseTo(clearSky * 0.6, 5);
      expect(point.value).toBeGreaterThanOrEqual(point.lower);
      expect(point.value).toBeLessThanOrEqual(point.upper);
    });
    // Midnight and 03:00 local: nothing; 13:00: most of the day.
    const at = (text: string) => body.points.find((point) => point.timestamp === text)!;
    expect(at('2026-06-11T00:00:00+02:00')).toMatchObject({ value: 0, lower: 0, upper: 0 });
    expect(at('2026-06-11T03:00:00+02:00')).toMatchObject({ value: 0, lower: 0, upper: 0 });
    expect(at('2026-06-11T13:00:00+02:00').value).toBeGreaterThan(1.5);
  });

  it('honours hours (1..168) and falls back to a climatological index without history', async () => {
    const response = await get(empty, 'predict-power-production', { hours: 168 });
    const body = routes.predictProduction.response.parse(expectStatus(response, 200, 'forecast'));
    expect(body.points).toHaveLength(168);
    expect(body.to).toBe('2026-06-17T11:00:00+02:00');
    expect(body.method).toContain('climatological-clear-sky-index(0.60)');
    body.points.forEach((point, position) => {
      const clearSky = clearSkyKwh(hourStarts(168)[position]!);
      expect(point.value).toBeCloseTo(0.6 * clearSky, 5);
      expect(point.lower).toBeCloseTo(0.1 * clearSky, 5);
      expect(point.upper).toBeCloseTo(clearSky, 5);
    });
    const one = await get(empty, 'predict-power-production', { hours: 1 });
    expect(expectStatus(one, 200, 'forecast').points).toHaveLength(1);
  });

  it('answers 422 naming pv for a plant without PV settings', async () => {
    const body = expectErrorBody(await get(shortHistory, 'predict-power-production'), 422);
    expect(body.message).toBe(
      `Plant ${shortHistory} has no pv settings (pv.peakPowerKw, pv.tiltDeg, pv.azimuthDeg, pv.lossesPercent): the production forecast needs them`,
    );
  });
});

describe('GET /plants/{plantUuid}/predict-power-consumption', () => {
  it('recovers the weekly pattern from three weeks of history', async () => {
    const response = await get(measured, 'predict-power-consumption');
    const body = routes.predictConsumption.response.parse(expectStatus(response, 200, 'forecast'));
    expect(body.method).toMatch(
      /^weekly-seasonal\(same weekday-hour, 8w\) \+ daily-profile\(14d\), α=1\.0/,
    );
    expect(body.points).toHaveLength(48);
    body.points.forEach((point, position) => {
      const local = localOf(hourStarts(48)[position]!);
      const expected = consumptionW(local.weekday, local.hour) / 1000;
      expect(point.timestamp).toBe(localText(hourStarts(48)[position]!));
      expect(point.value).toBeCloseTo(expected, 6);
      // A noiseless history leaves no residual: the interval is the forecast itself.
      expect(point.lower).toBeCloseTo(expected, 6);
      expect(point.upper).toBeCloseTo(expected, 6);
    });
  });

  it('falls back to the load signatures with less than two weeks of history', async () => {
    const response = await get(shortHistory, 'predict-power-consumption', { hours: 24 });
    const body = routes.predictConsumption.response.parse(expectStatus(response, 200, 'forecast'));
    expect(body.method).toBe(
      'load-signatures(HEAT_PUMP_WINTER+HOUSEHOLD_BASE) × typical daily kWh, interval from their errors (history 2.0 of 14.0 days)',
    );
    const base = signatures.HOUSEHOLD_BASE!;
    const heatPump = signatures.HEAT_PUMP_WINTER!;
    body.points.forEach((point, position) => {
      const hour = localOf(hourStarts(24)[position]!).hour;
      const expected =
        base.hourlyProfile[hour]! * base.typicalDailyKwh +
        heatPump.hourlyProfile[hour]! * heatPump.typicalDailyKwh;
      expect(point.value).toBeCloseTo(expected, 6);
      expect(point.lower).toBeLessThanOrEqual(point.value);
      expect(point.upper).toBeGreaterThanOrEqual(point.value);
      expect(point.lower).toBeGreaterThanOrEqual(0);
    });
  });
});

describe('GET /plants/{plantUuid}/predict', () => {
  const tomorrow = hourStarts(24, Date.parse('2026-06-10T22:00:00Z'));

  it('answers the next local day per device type', async () => {
    const response = await get(measured, 'predict');
    const body = routes.predictByDeviceType.response.parse(expectStatus(response, 200, 'predict'));
    expect(body).toMatchObject({
      plantUuid: measured,
      date: '2026-06-11',
      timezone: ZONE,
      unit: 'kWh',
    });
    expect(Object.keys(body.series).sort()).toEqual([
      'BATTERY',
      'EV_CHARGER',
      'HEAT_PUMP',
      'INVERTER',
      'METER',
    ]);
    // The battery has no sensor: no net energy expected, within ± its rated power (5 kW).
    expect(body.method).toContain('BATTERY: no storage history: net 0 within ± rated power');
    body.series.BATTERY!.forEach((point) =>
      expect(point).toMatchObject({ value: 0, lower: -5, upper: 5 }),
    );
    expect(body.method).toContain('EV_CHARGER: load-signatures(EV_EVENING_CHARGING)');
    expect(body.method).toContain('HEAT_PUMP: load-signatures(HEAT_PUMP_WINTER)');
    for (const points of Object.values(body.series)) {
      expect(points.map((point) => point.timestamp)).toEqual(tomorrow.map(localText));
    }

    const ev = signatures.EV_EVENING_CHARGING!;
    body.series.EV_CHARGER!.forEach((point, hour) => {
      expect(point.value).toBeCloseTo(ev.hourlyProfile[hour]! * ev.typicalDailyKwh, 6);
    });

    // The inverter is the plant's only producer: its series is the production forecast.
    const production = await get(measured, 'predict-power-production', { hours: 38 });
    const byTime = new Map(production.body.points.map((point: any) => [point.timestamp, point]));
    body.series.INVERTER!.forEach((point) => expect(point).toEqual(byTime.get(point.timestamp)));

    // The grid meter: consumption − production, bounds crossed.
    const consumption = await get(measured, 'predict-power-consumption', { hours: 38 });
    const consumed = new Map(consumption.body.points.map((point: any) => [point.timestamp, point]));
    body.series.METER!.forEach((point) => {
      const used: any = consumed.get(point.timestamp);
      const made: any = byTime.get(point.timestamp);
      expect(point.value).toBeCloseTo(used.value - made.value, 5);
      expect(point.lower).toBeCloseTo(used.lower - made.upper, 5);
      expect(point.upper).toBeCloseTo(used.upper - made.lower, 5);
    });
    expect(body.series.METER!.some((point) => point.value < 0)).toBe(true); // export at noon
  });

  it('forecasts a battery from its own last two weeks, hour by hour, signed', async () => {
    const plant = (await createPlant(server, admin, { location: LOCATION, pv: PV })).plantUuid;
    const battery = await createDevice(server, admin, plant, {
      name: 'Battery',
      deviceTypeUuid: deviceTypes.BATTERY,
      ratedPowerW: 4000,
    });
    const storage = await sensor(plant, 'STORAGE', 3600, battery.deviceUuid);
    // Charging 2 kW at 12:00–14:00 local, discharging 1.5 kW at 19:00–21:00, idle otherwise.
    await ingestHourly(plant, storage, 14 * 24, (start) => {
      const hour = localOf(start).hour;
      return hour >= 12 && hour < 14 ? -2000 : hour >= 19 && hour < 21 ? 1500 : 0;
    });
    const body = expectStatus(await get(plant, 'predict'), 200, 'predict');
    const points = body.series.BATTERY as { timestamp: string; value: number }[];
    const at = (hour: number) =>
      points.find((point) => localOf(Date.parse(point.timestamp)).hour === hour)!;
    expect(at(12).value).toBeCloseTo(-2, 6);
    expect(at(13).value).toBeCloseTo(-2, 6);
    expect(at(19).value).toBeCloseTo(1.5, 6);
    expect(at(3).value).toBeCloseTo(0, 6);
    expect(body.method).toContain('BATTERY: daily-profile(14d)');
  });

  it('keeps only consumer device types with consumerOnly=true', async () => {
    const body = expectStatus(
      await get(measured, 'predict', { consumerOnly: 'true' }),
      200,
      'predict',
    );
    expect(Object.keys(body.series).sort()).toEqual(['EV_CHARGER', 'HEAT_PUMP']);
    const all = expectStatus(
      await get(measured, 'predict', { consumerOnly: 'false' }),
      200,
      'predict',
    );
    expect(Object.keys(all.series)).toHaveLength(5);
  });

  it('leaves producers out without pv settings; the grid is then consumption alone', async () => {
    const body = routes.predictByDeviceType.response.parse(
      expectStatus(await get(shortHistory, 'predict'), 200, 'predict'),
    );
    expect(Object.keys(body.series).sort()).toEqual(['HEAT_PUMP', 'METER']);
    expect(body.method).toContain('INVERTER: no pv settings');
    const consumption = await get(shortHistory, 'predict-power-consumption', { hours: 38 });
    const consumed = new Map(consumption.body.points.map((point: any) => [point.timestamp, point]));
    body.series.METER!.forEach((point) => expect(point).toEqual(consumed.get(point.timestamp)));
  });

  it('answers no series for a plant without devices', async () => {
    const body = routes.predictByDeviceType.response.parse(
      expectStatus(await get(empty, 'predict'), 200, 'predict'),
    );
    expect(body.series).toEqual({});
    expect(body.method).toBe('no device types to forecast');
  });
});

describe('forecast errors', () => {
  it('answers 400 for hours out of range or not an integer', async () => {
    for (const hours of ['0', '169', 'abc', '1.5']) {
      const body = expectErrorBody(await get(measured, 'predict-power-production', { hours }), 400);
      expect(body.message).toContain('hours must be an integer from 1 to 168');
    }
    expectErrorBody(await get(measured, 'predict-power-consumption', { hours: 0 }), 400);
    expectErrorBody(await get(measured, 'predict', { consumerOnly: 'maybe' }), 400);
  });

  it('answers 401 without a token and 404 for a plant of another organization', async () => {
    for (const route of ['predict-power-production', 'predict-power-consumption', 'predict']) {
      expectErrorBody(await get(measured, route, {}, ''), 401);
      expectErrorBody(await get(measured, route, {}, outsider), 404);
    }
  });
});
