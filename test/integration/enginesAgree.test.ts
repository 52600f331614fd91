import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestServer, type DemoRole } from '../support/testServer.ts';

/**
 * Both engines answer alike, byte for byte: a server on SQLite (in memory) and one on PostgreSQL
 * are given the same data through the API, at the same instants of one shared clock, then asked
 * the same questions. The only thing told apart is the ids each server generates: every uuid
 * PostgreSQL's server answers is mapped to the SQLite server's uuid of the same entity (paired
 * where both answered it in the same place), and the bodies are then compared as text.
 *
 * Runs in the `postgres` project only (it needs a PostgreSQL; see vitest.config.ts).
 */

const START = Date.parse('2026-03-31T10:20:00Z');
let clockMs = START;
/** One clock for both servers, moved by the test only: both stamp alike. */
const now = () => new Date(clockMs);
const MIN = 60_000;

let sqlite: TestServer;
let postgres: TestServer;
/** PostgreSQL's uuid → SQLite's uuid of the same entity, and back. */
const toSqlite = new Map<string, string>();
const toPostgres = new Map<string, string>();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const IS_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/** Records the uuid pairs of two answers that put the same entities in the same places. */
function pairIds(fromSqlite: unknown, fromPostgres: unknown): void {
  if (typeof fromSqlite === 'string' && typeof fromPostgres === 'string') {
    if (!IS_UUID.test(fromSqlite) || !IS_UUID.test(fromPostgres)) return;
    if (!toSqlite.has(fromPostgres) && !toPostgres.has(fromSqlite)) {
      toSqlite.set(fromPostgres, fromSqlite);
      toPostgres.set(fromSqlite, fromPostgres);
    }
    return;
  }
  if (Array.isArray(fromSqlite) && Array.isArray(fromPostgres)) {
    const [a, b] = [keyed(fromSqlite), keyed(fromPostgres)];
    a.forEach((item, index) => pairIds(item, b[index]));
    return;
  }
  if (isObject(fromSqlite) && isObject(fromPostgres)) {
    for (const key of Object.keys(fromSqlite)) pairIds(fromSqlite[key], fromPostgres[key]);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Seeded catalogs and accounts pair by their natural key, whatever order a list gives. */
function keyed(items: unknown[]): unknown[] {
  const key = (item: unknown) =>
    isObject(item) ? String(item.code ?? item.email ?? item.name ?? '') : '';
  return items.every((item) => key(item) !== '')
    ? [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    : items;
}

const translate = (text: string, map: Map<string, string>) =>
  text.replace(UUID, (id) => map.get(id.toLowerCase()) ?? id);

async function raw(
  server: TestServer,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(new URL(path, server.url), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json')
    ? (JSON.parse(text) as unknown)
    : text;
  return { status: response.status, text, json };
}

/**
 * The same request to both servers, written with SQLite's ids; answers SQLite's answer after
 * checking that PostgreSQL's, its ids mapped, is the same text.
 */
async function both(
  method: string,
  path: string,
  options: { role?: DemoRole; body?: unknown } = {},
): Promise<Answer> {
  const role = options.role ?? 'installer';
  // Each write a second apart: every createdAt differs, so no order falls back on the ids.
  if (method !== 'GET') clockMs += 1_000;
  const onSqlite = await raw(sqlite, method, path, await sqlite.tokenFor(role), options.body);
  const pgBody =
    options.body === undefined
      ? undefined
      : (JSON.parse(translate(JSON.stringify(options.body), toPostgres)) as unknown);
  const onPostgres = await raw(
    postgres,
    method,
    translate(path, toPostgres),
    await postgres.tokenFor(role),
    pgBody,
  );
  pairIds(onSqlite.json, onPostgres.json);
  const expected = `${onSqlite.status} ${onSqlite.text}`;
  const actual = `${onPostgres.status} ${translate(onPostgres.text, toSqlite)}`;
  if (actual !== expected) expect.fail(`${method} ${path}: ${firstDifference(expected, actual)}`);
  return onSqlite;
}

/** Where two long bodies part, with some context: the whole bodies would hide it. */
function firstDifference(onSqlite: string, onPostgres: string): string {
  let at = 0;
  while (at < onSqlite.length && onSqlite[at] === onPostgres[at]) at++;
  const around = (text: string) => text.slice(Math.max(0, at - 160), at + 80);
  return `the bodies differ at character ${at}:\n  SQLite:     …${around(onSqlite)}…\n  PostgreSQL: …${around(onPostgres)}…`;
}

function expectAnswer(answer: Answer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer.json;
}

const created = async (path: string, body: unknown, what: string): Promise<any> =>
  expectAnswer(await both('POST', path, { body }), 201, what);

// ── The data ───────────────────────────────────────────────────────────────────

/** Names that sort differently by byte, by case and by accent; zones with DST and odd offsets. */
const PLANTS = [
  {
    name: 'Alpha Rome',
    timezone: 'Europe/Rome',
    lat: 41.9,
    lon: 12.5,
    ids: ['EXT-rome-1', 'Shared-7'],
  },
  { name: 'zeta Kathmandu', timezone: 'Asia/Kathmandu', lat: 27.7, lon: 85.3, ids: ['ext-KTM'] },
  { name: 'Élan New York', timezone: 'America/New_York', lat: 40.7, lon: -74, ids: [] },
  {
    name: 'émile Lord Howe',
    timezone: 'Australia/Lord_Howe',
    lat: -31.5,
    lon: 159.1,
    ids: ['ÉXT-lh'],
  },
  { name: 'beta Kolkata', timezone: 'Asia/Kolkata', lat: 22.6, lon: 88.4, ids: ['Shared-70'] },
  { name: '_under % score', timezone: 'UTC', lat: 0, lon: 0, ids: ['100%_real'] },
  { name: 'Zürich Über', timezone: 'Europe/Zurich', lat: 47.4, lon: 8.5, ids: ['zrh'] },
];

/** Readings five minutes apart, values whose sums depend on the order they are added in. */
const STEP = 5 * MIN;
const PER_DAY = 288;
const everyStep = (start: string, count: number, value: (k: number) => number) =>
  Array.from({ length: count }, (_, k) => ({
    timestamp: new Date(Date.parse(start) + k * STEP).toISOString(),
    value: value(k),
  }));
const awkward = (scale: number) => (k: number) =>
  Math.round((scale * (1 + Math.sin(k / 7)) + (k % 3) * 0.1 + 1 / 3) * 1e6) / 1e6;

/** Local midnight of the spring DST day (or an ordinary day) per zone, as UTC. */
const READING_WINDOWS: Record<string, string> = {
  'Europe/Rome': '2026-03-28T23:00:00Z',
  'Asia/Kathmandu': '2026-03-29T18:15:00Z',
  'America/New_York': '2026-03-08T05:00:00Z',
  'Australia/Lord_Howe': '2026-04-04T13:00:00Z',
  'Asia/Kolkata': '2026-03-29T18:30:00Z',
  UTC: '2026-03-30T00:00:00Z',
  'Europe/Zurich': '2026-03-28T23:00:00Z',
};

const plantIds: Record<string, string> = {};

async function catalogs() {
  const codes = async (path: string, idField: string) => {
    const answer = await both('GET', `${path}?size=200`, { role: 'admin' });
    return Object.fromEntries(
      (answer.json as { content: Record<string, string>[] }).content.map((entry) => [
        entry.code,
        entry[idField]!,
      ]),
    );
  };
  return {
    sensorTypes: await codes('/sensor-types', 'sensorTypeUuid'),
    deviceTypes: await codes('/device-types', 'deviceTypeUuid'),
    dataTypes: await codes('/data-types-collects', 'dataTypesCollectUuid'),
    loadSignatures: await codes('/load-signatures', 'loadSignatureUuid'),
  };
}

async function seed(): Promise<void> {
  for (const role of ['admin', 'installer', 'manager', 'operator', 'outsider'] as const)
    await both('GET', '/auth/me', { role });
  const reference = await catalogs();
  await both('GET', '/vendors?size=200', { role: 'admin' });
  await both('GET', '/plants?size=200', { role: 'admin' });

  for (const [index, plant] of PLANTS.entries()) {
    const body = {
      name: plant.name,
      externalIds: plant.ids,
      location: { latitude: plant.lat, longitude: plant.lon, timezone: plant.timezone },
      pv: { peakPowerKw: 3 + index * 0.7, tiltDeg: 25 + index, azimuthDeg: 170 + index * 3 },
      metadata: { index, note: `plant ${index}` },
    };
    const { plantUuid } = await created('/plants', body, 'create plant');
    plantIds[plant.name] = plantUuid as string;
    const sensor = async (name: string, flow: string, device: string | null) =>
      (
        await created(
          `/plants/${plantUuid}/sensors`,
          {
            name,
            flow,
            deviceUuid: device,
            sensorTypeUuid: reference.sensorTypes.POWER_METER,
            dataTypesCollectUuids: [reference.dataTypes.POWER],
            samplingIntervalSeconds: 300,
          },
          'create sensor',
        )
      ).sensorUuid as string;
    const device = async (name: string, type: string, ratedPowerW: number) =>
      (
        await created(
          `/plants/${plantUuid}/devices`,
          { name, deviceTypeUuid: reference.deviceTypes[type], ratedPowerW, model: `M-${name}` },
          'create device',
        )
      ).deviceUuid as string;
    const inverter = await device('Inverter', 'INVERTER', 5000 + index);
    const heatPump = await device('heat pump', 'HEAT_PUMP', 2000);
    await device('Battery', 'BATTERY', 3000);
    const sensors = {
      meter: await sensor('House meter', 'CONSUMPTION', null),
      pv: await sensor('PV power', 'PRODUCTION', inverter),
      grid: await sensor('grid meter', 'GRID', null),
      heat: await sensor('Heat pump power', 'CONSUMPTION', heatPump),
    };
    // Two local days from the zone's midnight (its DST day where it has one), and today.
    const from = READING_WINDOWS[plant.timezone]!;
    const ingest = async (sensorUuid: string, readings: { timestamp: string; value: number }[]) =>
      expectAnswer(
        await both('POST', `/plants/${plantUuid}/sensors/${sensorUuid}/readings`, {
          body: { readings },
        }),
        202,
        'ingest readings',
      );
    await ingest(sensors.meter, everyStep(from, 2 * PER_DAY, awkward(900 + index)));
    await ingest(
      sensors.pv,
      everyStep(from, 2 * PER_DAY, (k) => Math.max(0, awkward(2500)(k) - 1200)),
    );
    await ingest(
      sensors.grid,
      everyStep(from, 2 * PER_DAY, (k) => awkward(400)(k) - 450),
    );
    await ingest(sensors.heat, everyStep(from, PER_DAY, awkward(300)));
    await ingest(sensors.meter, everyStep('2026-03-31T06:00:00Z', 52, awkward(700)));
    await ingest(sensors.pv, everyStep('2026-03-31T06:00:00Z', 52, awkward(1700)));
  }
  // Past the last write, within the access tokens' lifetime.
  clockMs += MIN;
}

beforeAll(async () => {
  sqlite = await TestServer.start({ now }, 'sqlite');
  postgres = await TestServer.start({ now }, 'postgres');
  await seed();
}, 240_000);

afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
});

// ── The questions ──────────────────────────────────────────────────────────────

const plantOf = (name: string) => plantIds[name]!;

/** A question both must answer 200 to, so that agreeing on an error proves nothing less. */
const ok = async (path: string, options: { role?: DemoRole } = {}): Promise<any> =>
  expectAnswer(await both('GET', path, options), 200, `GET ${path}`);

describe('both engines answer byte for byte alike', () => {
  test('plant lists: sorts by every column either way, searches, pages', async () => {
    const queries = [
      '',
      'sort=name,asc',
      'sort=name,desc',
      'sort=createdAt,desc&sort=name,asc',
      'sort=updatedAt,asc',
      'size=2&page=1&sort=name,asc',
      'size=3&page=5',
      'search=a',
      'search=ÉLAN',
      'search=über',
      'search=shared-7',
      'search=%25',
      'search=_',
      'search=ext',
      'search=nothing-like-it',
    ];
    for (const query of queries) await ok(`/plants?${query}`);
    for (const name of Object.keys(plantIds)) await ok(`/plants/${plantOf(name)}`);
  });

  test('devices, sensors and catalogs, sorted', async () => {
    const plant = plantOf('Alpha Rome');
    for (const sort of ['name,asc', 'name,desc', 'ratedPowerW,desc', 'model,asc', 'createdAt,asc'])
      await ok(`/plants/${plant}/devices?sort=${sort}`);
    // A sort whose values tie falls back on the uuids, which differ: a second key breaks them.
    for (const sort of ['name,asc', 'flow,desc&sort=name,asc', 'createdAt,desc'])
      await ok(`/plants/${plant}/sensors?sort=${sort}`);
    for (const path of [
      '/sensor-types',
      '/device-types',
      '/load-signatures',
      '/vendors',
      '/data-types-collects',
    ])
      for (const sort of ['', '&sort=name,asc', '&sort=code,desc'])
        await ok(`${path}?size=200${sort}`, { role: 'admin' });
  });

  test('metrics: daily, hourly, summaries and history in every zone, DST days included', async () => {
    for (const plant of PLANTS) {
      const id = plantOf(plant.name);
      const day = READING_WINDOWS[plant.timezone]!;
      const localDates = [
        dayAfter(day, 0, plant.timezone),
        dayAfter(day, 1, plant.timezone),
        '2026-03-31',
      ];
      for (const kind of ['consumption', 'production']) {
        const [first, , last] = [...localDates].sort();
        for (const date of localDates) {
          await ok(`/plants/${id}/daily-power-${kind}s?date=${date}`);
          await ok(`/plants/${id}/hourly-power-${kind}s?date=${date}`);
        }
        await ok(`/plants/${id}/summary-daily-power-${kind}s?startDate=${first}&endDate=${last}`);
        await ok(
          `/plants/${id}/sensor-history-${kind}s?startDate=${localDates[0]}T00:00&endDate=${localDates[1]}T23:59`,
        );
      }
      await ok(
        `/plants/${id}/sensor-history-energy?startDate=${localDates[0]}T00:00&endDate=${localDates[1]}T23:00`,
      );
    }
  });

  test('PV health, forecasts and fleet summaries', async () => {
    for (const plant of PLANTS) {
      const id = plantOf(plant.name);
      await ok(`/plants/${id}/pv-health`);
      await ok(`/plants/${id}/predict-power-consumption`);
      await ok(`/plants/${id}/predict-power-production`);
      await ok(`/plants/${id}/predict`);
      await ok(`/plants/${id}/sensor-statuses`);
    }
    for (const query of [
      '',
      'sort=name,asc',
      'sort=productionKwh,desc&sort=name,asc',
      'sort=status,asc&sort=name,asc',
      'search=e',
      'size=2&page=1',
    ])
      await ok(`/plant-summaries?${query}`);
  });

  test('errors', async () => {
    const rome = plantOf('Alpha Rome');
    await both('GET', '/plants/7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f');
    await both('GET', `/plants/${rome}`, { role: 'outsider' });
    await both('GET', '/plants?sort=secret,asc');
    await both('GET', '/plants?size=0');
    await both('GET', `/plants/${rome}/daily-power-consumptions?date=2026-02-30`);
    await both(
      'GET',
      `/plants/${rome}/sensor-history-consumptions?startDate=2026-03-31T10:01&endDate=2026-03-31T10:00`,
    );
    await both('POST', '/plants', { body: { name: '' } });
    await both('DELETE', `/plants/${rome}`, { role: 'operator' });
  });

  test('live readings and a grid meter turned by signInverted, and back (extensions)', async () => {
    for (const plant of PLANTS)
      await ok(`/plants/${plantOf(plant.name)}/sensor-statuses?recent=true`);
    const id = plantOf('Alpha Rome');
    const sensors = await ok(`/plants/${id}/sensors?sort=name,asc`);
    const grid = sensors.content.find((sensor: { flow: string }) => sensor.flow === 'GRID');
    const gridPath = `/plants/${id}/sensors/${grid.sensorUuid}`;
    const day = READING_WINDOWS['Europe/Rome']!;
    const [first, second] = [dayAfter(day, 0, 'Europe/Rome'), dayAfter(day, 1, 'Europe/Rome')];
    for (const signInverted of [true, false]) {
      expectAnswer(
        await both('PUT', gridPath, { body: { signInverted } }),
        200,
        'PUT signInverted',
      );
      await ok(`${gridPath}?includeRelationships=true`);
      await ok(`/plants/${id}/sensor-statuses?recent=true`);
      await ok(`/plants/${id}/daily-power-consumptions?date=${second}`);
      await ok(`/plants/${id}/hourly-power-consumptions?date=${first}`);
      await ok(
        `/plants/${id}/summary-daily-power-consumptions?startDate=${first}&endDate=${second}`,
      );
      for (const granularity of ['minutes', 'hours', 'days'])
        await ok(
          `/plants/${id}/sensor-history-consumptions?startDate=${first}T00:00&endDate=${second}T23:59&granularity=${granularity}`,
        );
      await ok(
        `/plants/${id}/sensor-history-energy?startDate=${first}T00:00&endDate=${second}T23:00`,
      );
    }
    const energy = (await ok('/data-types-collects?size=200', { role: 'admin' })).content.find(
      (dataType: { code: string }) => dataType.code === 'ENERGY',
    );
    await both('PUT', gridPath, {
      body: { signInverted: true, dataTypesCollectUuids: [energy.dataTypesCollectUuid] },
    });
    await both('PUT', gridPath, { body: { signInverted: 'yes' } });
    await both('GET', `/plants/${id}/sensor-statuses?recent=often`);
  });
});

/** The local date `days` after the one `utcInstant` falls on in `zone`. */
function dayAfter(utcInstant: string, days: number, zone: string): string {
  const date = new Date(Date.parse(utcInstant) + days * 86_400_000 + 6 * 3_600_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(date);
}
