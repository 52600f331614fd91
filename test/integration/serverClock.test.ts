import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SENSORS } from '../../server/demo/demoPlant.ts';
import { readingsOf } from '../../server/measurements/readingsStore.ts';
import { expectStatus } from '../support/entities.ts';
import { expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * `startServer({ clock })`, `--clock` and `PLANTDESK_CLOCK`: the server's "now" starts at the
 * instant given and advances in real time, and everything the server decides from the time
 * follows it: default dates of the metrics routes, forecast origins, PV health's default period,
 * the simulator's history and live readings, token issue and expiry, the error body's timestamp.
 * Each instant is a case a real clock would only meet at one hour of one day.
 */

const ZONE = 'Europe/Rome';
const MINUTE = 60_000;
/** Seconds the test itself may take between the server's start and a check. */
const SLACK_MS = 60_000;

interface Instant {
  name: string;
  clock: string;
}

/** Local night, local noon, both DST changes in Rome (02:30 twice in October), New Year's Eve. */
const INSTANTS: Instant[] = [
  { name: 'local night', clock: '2026-06-21T03:10:00+02:00' },
  { name: 'local noon', clock: '2026-06-21T12:00:00+02:00' },
  { name: 'the morning DST starts', clock: '2026-03-29T03:30:00+02:00' },
  { name: 'the first 02:30 of the day DST ends', clock: '2026-10-25T02:30:00+02:00' },
  { name: 'the second 02:30 of the day DST ends', clock: '2026-10-25T02:30:00+01:00' },
  { name: 'New Year’s Eve, half an hour before midnight', clock: '2026-12-31T23:30:00+01:00' },
];

const local = (ms: number) => DateTime.fromMillis(ms, { zone: ZONE });
const localDate = (ms: number) => local(ms).toISODate()!;

describe.each(INSTANTS)('a server whose clock starts at $clock ($name)', ({ clock }) => {
  const startMs = DateTime.fromISO(clock).toMillis();
  let server: TestServer;
  let token: string;
  let plantUuid: string;

  afterAll(() => server?.close());

  it('answers every default from that instant', async () => {
    // Eight days of simulated history: the seven full days PV health looks at, and today.
    server = await TestServer.start({
      clock,
      simulation: { historyDays: 8, live: false },
    });
    token = await server.tokenFor('manager');
    plantUuid = await server.demoPlantUuid();
    const at = (path: string, query: Record<string, string | number> = {}) =>
      server.request('GET', `/plants/${plantUuid}/${path}`, { token, query });

    // The 7 days end with the clock's local day.
    const daily = expectStatus(await at('daily-power-productions'), 200, 'daily');
    expect(daily.points).toHaveLength(7);
    expect(daily.points.at(-1).timestamp.slice(0, 10)).toBe(localDate(startMs));

    // The 24 hours end with the clock's current local hour.
    const hourly = expectStatus(await at('hourly-power-consumptions'), 200, 'hourly');
    expect(hourly.points).toHaveLength(24);
    const currentHour = local(startMs).startOf('hour');
    expect(Date.parse(hourly.points.at(-1).timestamp)).toBe(currentHour.toMillis());
    expect(hourly.points.at(-1).timestamp).toBe(currentHour.toISO({ suppressMilliseconds: true }));

    // Forecasts start at the next full local hour.
    const forecast = expectStatus(await at('predict-power-consumption'), 200, 'forecast');
    expect(Date.parse(forecast.points[0].timestamp)).toBe(
      currentHour.plus({ hours: 1 }).toMillis(),
    );

    // PV health: the last 7 full local days before the clock's.
    const health = expectStatus(await at('pv-health'), 200, 'pv-health');
    const today = local(startMs).startOf('day');
    expect(health.from.slice(0, 10)).toBe(today.minus({ days: 7 }).toISODate());
    expect(health.to.slice(0, 10)).toBe(today.toISODate());
  });

  it('writes the simulated history up to the clock, never beyond', async () => {
    const db = server.server.context.db;
    const sensors = await db
      .selectFrom('sensors')
      .select(['sensor_uuid', 'connection_address'])
      .where('plant_uuid', '=', plantUuid)
      .execute();
    const grid = sensors.find(
      (row) => row.connection_address === DEMO_SENSORS.find((s) => s.key === 'grid')!.address,
    )!;
    const readings = await readingsOf(db, grid.sensor_uuid, startMs - 8 * 86_400_000, 8.64e15);
    const latest = readings.at(-1)!.takenAt;
    // The reading of the clock's minute is the last one, whatever the real time is.
    expect(latest).toBe(Math.floor(startMs / MINUTE) * MINUTE);
    expect(readings[0]!.takenAt).toBeLessThanOrEqual(startMs - 7 * 86_400_000);
  });

  it('stamps tokens and error bodies with its clock', async () => {
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.iat * 1000).toBeGreaterThanOrEqual(startMs - 1000);
    expect(claims.iat * 1000).toBeLessThan(startMs + SLACK_MS);
    expect(claims.exp - claims.iat).toBe(15 * 60);

    const missing = await server.request('GET', '/plants/not-a-uuid', { token });
    const body = expectErrorBody(missing, 400);
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(startMs);
    expect(Date.parse(body.timestamp)).toBeLessThan(startMs + SLACK_MS);
  });
});

describe('token expiry follows the clock', () => {
  const folder = mkdtempSync(join(tmpdir(), 'plantdesk-clock-'));
  const db = join(folder, 'plantdesk.db');
  const jwtSecret = 'a-signing-secret-of-at-least-32-bytes!';
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  async function serverAt(clock: string) {
    return TestServer.start({ db, clock, jwtSecret });
  }

  it('a token issued at noon is valid 14 minutes later and expired 16 minutes later', async () => {
    const noon = await serverAt('2026-06-21T12:00:00+02:00');
    const token = await noon.tokenFor('manager');
    await noon.close();

    const later = await serverAt('2026-06-21T12:14:00+02:00');
    expect((await later.request('GET', '/auth/me', { token })).status).toBe(200);
    await later.close();

    const expired = await serverAt('2026-06-21T12:16:00+02:00');
    const refused = await expired.request('GET', '/auth/me', { token });
    expectErrorBody(refused, 401);
    await expired.close();
  });
});

describe('the live simulator follows the clock', () => {
  it('gives a newly connected sim:// sensor its reading of the clock’s minute', async () => {
    const clock = '2026-06-21T12:00:00+02:00';
    const startMs = Date.parse(clock);
    const server = await TestServer.start({ clock, simulation: { historyDays: 0, live: true } });
    try {
      const token = await server.tokenFor('installer');
      const plantUuid = await server.demoPlantUuid();
      const db = server.server.context.db;
      const pv = DEMO_SENSORS.find((sensor) => sensor.key === 'pv')!;
      const row = await db
        .selectFrom('sensors')
        .select('sensor_uuid')
        .where('plant_uuid', '=', plantUuid)
        .where('connection_address', '=', pv.address)
        .executeTakeFirstOrThrow();
      const first = await readingsOf(db, row.sensor_uuid, -8.64e15, 8.64e15);
      // Noon in June: the array produces.
      expect(first.at(-1)!.takenAt).toBe(startMs);
      expect(first.at(-1)!.value).toBeGreaterThan(0);
      // A newly connected simulated sensor gets the reading of the clock's current minute.
      const sensorTypes = await server.catalog('/sensor-types', 'sensorTypeUuid');
      const vendors = await server.request('GET', '/vendors', { token });
      const simulator = vendors.body.content.find((vendor: any) => vendor.kind === 'SIMULATOR');
      const created = expectStatus(
        await server.request('POST', `/plants/${plantUuid}/sensors`, {
          token,
          body: {
            name: 'Second grid meter',
            sensorTypeUuid: sensorTypes.POWER_METER,
            flow: 'GRID',
            connection: { vendorUuid: simulator.vendorUuid, address: 'sim://demo-home/grid-2' },
          },
        }),
        201,
        'sensor',
      );
      await expect
        .poll(async () => (await readingsOf(db, created.sensorUuid, -8.64e15, 8.64e15)).length, {
          timeout: 15_000,
        })
        .toBeGreaterThan(0);
      const [reading] = await readingsOf(db, created.sensorUuid, -8.64e15, 8.64e15);
      expect(reading!.takenAt).toBeGreaterThanOrEqual(startMs);
      expect(reading!.takenAt).toBeLessThan(startMs + SLACK_MS);
    } finally {
      await server.close();
    }
  });
});

describe('npm run server -- --clock', () => {
  async function run(args: string[], env: Record<string, string> = {}) {
    const child = spawn(
      process.execPath,
      ['server/cli.ts', '--port', '0', '--db', ':memory:', '--quiet', ...args],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const lines = createInterface({ input: child.stdout });
    const firstLine = new Promise<string | null>((resolve) => {
      lines.once('line', resolve);
      child.once('exit', () => resolve(null));
    });
    return { child, firstLine, stderr: () => stderr };
  }

  it('refuses a malformed clock at start-up, saying what it expects', async () => {
    for (const bad of ['tomorrow', '2026-06-21T12:00', '2026-06-21', '2026-13-01T00:00:00Z']) {
      const { child, stderr } = await run(['--clock', bad]);
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      expect(stderr()).toContain(`The clock must be an ISO 8601 date-time with an offset`);
      expect(stderr()).toContain(`not '${bad}'`);
    }
  });

  it('refuses a malformed PLANTDESK_CLOCK too, and starts at a good one', async () => {
    const bad = await run([], { PLANTDESK_CLOCK: 'noon' });
    expect((await once(bad.child, 'exit'))[0]).toBe(1);
    expect(bad.stderr()).toContain(`not 'noon'`);

    const good = await run(['--demo', '--no-simulation'], {
      PLANTDESK_CLOCK: '2026-12-31T23:30:00+01:00',
    });
    try {
      const line = await good.firstLine;
      const url = /listening on (\S+)/.exec(line ?? '')?.[1];
      expect(url, good.stderr()).toBeDefined();
      const response = await fetch(`${url}/plants`);
      const body = (await response.json()) as { timestamp: string };
      expect(response.status).toBe(401);
      expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(Date.parse('2026-12-31T22:30:00Z'));
      expect(Date.parse(body.timestamp)).toBeLessThan(
        Date.parse('2026-12-31T22:30:00Z') + SLACK_MS,
      );
    } finally {
      good.child.kill('SIGTERM');
      await once(good.child, 'exit');
    }
  });
});
