import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { routes } from '../../api/index.ts';
import { ADVISORY_LOCKS } from '../../server/db/advisoryLocks.ts';
import { directPoolOf } from '../../server/db/fastQuery.ts';
import { CATCH_UP_FIRST_MS } from '../../server/http/answersAsOfArrival.ts';
import { openPostgresDatabase } from '../../server/db/database.ts';
import { migrationProvider } from '../../server/db/migrations/index.ts';
import type { StartServerOptions } from '../../server/index.ts';
import { createPlant, createSensor } from '../support/entities.ts';
import { referenceUuids } from '../support/referenceData.ts';
import {
  createTestDatabase,
  testEngine,
  testServerKeys,
  type TestDatabase,
} from '../support/testDatabases.ts';
import { startPostgresCluster } from '../support/postgresCluster.ts';
import { DEMO_ACCOUNTS, TestServer } from '../support/testServer.ts';

/**
 * Two (and more) server instances on one PostgreSQL database behave as one server (issue 13):
 * writes through one are seen by the next request to the other, refresh tokens stay single-use,
 * the login throttle counts across them, they migrate once, and one runs the simulator.
 */

const POLL_MS = 500;
const DAY = 86_400_000;

const account = (role: string) => DEMO_ACCOUNTS.find((a) => a.email.startsWith(`${role}@`))!;

async function eventually(check: () => Promise<boolean> | boolean, withinMs: number) {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

describe.skipIf(testEngine() !== 'postgres')(
  'several instances on one PostgreSQL (skipped on SQLite: needs npm run test:postgres)',
  () => {
    const keys = testServerKeys();
    const databases: TestDatabase[] = [];
    const servers: TestServer[] = [];
    let url: string;
    let a: TestServer;
    let b: TestServer;

    async function instance(options: StartServerOptions = {}, on = url): Promise<TestServer> {
      const server = await TestServer.start({
        db: on,
        ...keys,
        loginThrottle: { maxFailuresPerAccount: 4 },
        ...options,
      });
      servers.push(server);
      return server;
    }

    async function freshDatabase(): Promise<string> {
      const database = await createTestDatabase();
      databases.push(database);
      return database.url;
    }

    beforeAll(async () => {
      url = await freshDatabase();
      [a, b] = await Promise.all([instance(), instance()]);
    });

    afterAll(async () => {
      await Promise.allSettled(servers.map((server) => server.close()));
      await Promise.allSettled(databases.map((database) => database.drop()));
    });

    test('instances starting together on an empty database migrate and seed it once', async () => {
      const fresh = await freshDatabase();
      const started = await Promise.all([instance({}, fresh), instance({}, fresh)]);
      const db = started[0]!.server.context.db;
      const migrations = await sql<{
        count: number;
      }>`select count(*)::int as count from kysely_migration`.execute(db);
      const expected = Object.keys(await migrationProvider('postgres').getMigrations()).length;
      expect(migrations.rows[0]!.count).toBe(expected);
      const demoHomes = await db
        .selectFrom('plants')
        .select(({ fn }) => fn.countAll<number>().as('count'))
        .where('name', '=', 'Demo Home')
        .executeTakeFirstOrThrow();
      expect(Number(demoHomes.count)).toBe(1);
      for (const server of started)
        expect((await server.login(account('admin').email, account('admin').password)).status).toBe(
          200,
        );
    });

    test('a write notifies the other instances when its transaction commits, never when it rolls back', async () => {
      const options = { sharedWrites: { pollMs: 600_000 } };
      const [writer, reader] = await Promise.all([
        openPostgresDatabase(url, options),
        openPostgresDatabase(url, options),
      ]);
      try {
        const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
        await settle();
        const start = reader.writes.value;
        await writer.db
          .transaction()
          .execute(async (trx) => {
            await trx
              .insertInto('settings')
              .values({ key: 'instances-test', value: '1' })
              .execute();
            throw new Error('rolled back');
          })
          .catch(() => {});
        await settle();
        expect(reader.writes.value).toBe(start);

        let inside = 0;
        await writer.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 'instances-test', value: '2' }).execute();
          await trx
            .updateTable('settings')
            .set({ value: '3' })
            .where('key', '=', 'instances-test')
            .execute();
          await settle();
          inside = reader.writes.value;
        });
        // Nothing before the commit; then one notification for the whole transaction.
        expect(inside).toBe(start);
        await eventually(() => reader.writes.value > start, 1_000);
        await settle();
        expect(reader.writes.value).toBe(start + 1);

        // A write outside any transaction is notified as it commits.
        await writer.db.deleteFrom('settings').where('key', '=', 'instances-test').execute();
        await eventually(() => reader.writes.value === start + 2, 1_000);
      } finally {
        await Promise.all([writer.close(), reader.close()]);
      }
    });

    test("health probes and reads do not empty the other instances' caches", async () => {
      const quiet = await instance({
        instances: { catchUpBeforeRequests: false, writesPollMs: 600_000 },
      });
      // Signing in writes (a refresh token): done before counting.
      const managerA = await a.tokenFor('manager');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const start = quiet.server.context.writes.value;
      for (let probe = 0; probe < 3; probe += 1) {
        expect((await a.request('GET', '/readyz')).status).toBe(200);
        expect((await a.request('GET', '/plants', { token: managerA })).status).toBe(200);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(quiet.server.context.writes.value).toBe(start);
    });

    test("a plant renamed through A is renamed at B's next request (its plant lookup primed)", async () => {
      const installerA = await a.tokenFor('installer');
      const installerB = await b.tokenFor('installer');
      const plant = await createPlant(a, installerA);
      const path = `/plants/${plant.plantUuid}`;
      for (let round = 0; round < 3; round += 1) {
        expect((await b.request('GET', path, { token: installerB })).body.name).toBe(
          round === 0 ? plant.name : `Renamed ${round - 1}`,
        );
        const renamed = await a.request('PUT', path, {
          token: installerA,
          body: { name: `Renamed ${round}` },
        });
        expect(renamed.status).toBe(200);
        expect((await b.request('GET', path, { token: installerB })).body.name).toBe(
          `Renamed ${round}`,
        );
      }
    });

    test("readings ingested through A are in B's next metrics answer (its metrics cache primed)", async () => {
      const installerA = await a.tokenFor('installer');
      const managerB = await b.tokenFor('manager');
      const plant = (await createPlant(a, installerA, { name: 'Instances metrics' })).plantUuid;
      const powerMeter = (await a.catalog('/sensor-types', 'sensorTypeUuid'))['POWER_METER'];
      const power = (await a.catalog('/data-types-collects', 'dataTypesCollectUuid'))['POWER'];
      const sensor = await createSensor(a, installerA, plant, {
        name: 'House meter',
        flow: 'CONSUMPTION',
        sensorTypeUuid: powerMeter,
        dataTypesCollectUuids: [power],
        samplingIntervalSeconds: 60,
      });
      // Noon UTC three days ago: the same date in Rome, well inside the 7 days asked for.
      const noon = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 12 * 3_600_000;
      const date = new Date(noon).toISOString().slice(0, 10);
      const metricsPath = routes.dailyConsumption.path.replace('{plantUuid}', plant);
      const askB = async () =>
        (await b.request('GET', metricsPath, { token: managerB, query: { date } })).body;
      const before = await askB();
      expect(await askB()).toEqual(before);

      const readings = Array.from({ length: 60 }, (_, k) => ({
        timestamp: new Date(noon + k * 60_000).toISOString(),
        value: 1000,
      }));
      const ingested = await a.request(
        'POST',
        `/plants/${plant}/sensors/${sensor.sensorUuid}/readings`,
        { token: installerA, body: { readings } },
      );
      expect(ingested.status).toBe(202);
      const after = await askB();
      expect(after).not.toEqual(before);
      const managerA = await a.tokenFor('manager');
      expect(after).toEqual(
        (await a.request('GET', metricsPath, { token: managerA, query: { date } })).body,
      );
    });

    test("B's daily and hourly energy see writes at A without notifications, with no catch-up of their own when nothing was written", async () => {
      // These routes check the cluster's snapshot in their rollup read (answersAsOfArrival.ts).
      const now = Date.parse('2026-04-10T10:00:00Z');
      const pinned: StartServerOptions = {
        now: () => new Date(now),
        instances: { listenForWrites: false, writesPollMs: 600_000 },
      };
      // A cluster of its own: the snapshot is the cluster's, and the other test files' writes in
      // the shared one would make every answer here catch up.
      const cluster = await startPostgresCluster();
      const [deaf, other] = await Promise.all([
        instance(pinned, cluster.url),
        instance(pinned, cluster.url),
      ]);
      try {
        await snapshotScenario(deaf, other);
      } finally {
        await Promise.allSettled([deaf.close(), other.close()]);
        await cluster.stop();
      }
    }, 60_000);

    async function snapshotScenario(deaf: TestServer, other: TestServer): Promise<void> {
      const installer = await other.tokenFor('installer');
      const { email, password } = account('manager');
      const session = (await other.login(email, password)).body;
      const uuids = await referenceUuids(other);
      const plant = (await createPlant(other, installer, { name: 'Snapshot in the read' }))
        .plantUuid as string;
      const meter = async (name: string, watts: number) => {
        const sensor = await createSensor(other, installer, plant, {
          name,
          flow: 'CONSUMPTION',
          deviceUuid: null,
          sensorTypeUuid: uuids.sensorTypes.POWER_METER,
          dataTypesCollectUuids: [uuids.dataTypes.POWER],
          samplingIntervalSeconds: 300,
        });
        const first = Date.parse('2026-03-31T00:00:00Z');
        const readings = Array.from({ length: 10 * 288 }, (_, k) => ({
          timestamp: new Date(first + k * 300_000).toISOString(),
          value: watts,
        }));
        const ingested = await other.request(
          'POST',
          `/plants/${plant}/sensors/${sensor.sensorUuid}/readings`,
          { token: installer, body: { readings } },
        );
        expect(ingested.status).toBe(202);
      };
      await meter('House meter', 1000);
      const ask = async (
        server: TestServer,
        route: 'dailyConsumption' | 'hourlyConsumption',
        date: string,
      ) => {
        const path = routes[route].path.replace('{plantUuid}', plant);
        return server.request('GET', path, { token: session.accessToken, query: { date } });
      };
      const answer = async (...args: Parameters<typeof ask>) => {
        const response = await ask(...args);
        expect(response.status, `${args[1]} ${args[2]}`).toBe(200);
        return response.body;
      };
      // B remembers the plant, its sensors and one answer; another is computed.
      await answer(deaf, 'dailyConsumption', '2026-04-04');
      await answer(deaf, 'dailyConsumption', '2026-04-04');
      await answer(deaf, 'dailyConsumption', '2026-04-05');

      const pool = directPoolOf(deaf.server.context.db)!;
      let catchUps = 0;
      const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
      const spy = vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
        if (String(args[0]).includes('pg_current_snapshot')) catchUps += 1;
        return query(...args);
      }) as typeof pool.query);
      try {
        // After a write found, requests catch up first for a while: one of a few dates, a quiet
        // while apart, suffices.
        const freshWithout: number[] = [];
        for (const date of ['2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09']) {
          await new Promise((resolve) => setTimeout(resolve, CATCH_UP_FIRST_MS + 100));
          const before = catchUps;
          await answer(deaf, 'dailyConsumption', date);
          freshWithout.push(catchUps - before);
          if (freshWithout.at(-1) === 0) break;
        }
        expect(freshWithout).toContain(0);
      } finally {
        spy.mockRestore();
      }

      // A second meter at A: B's remembered sensors and answer are stale, and nothing told B.
      await meter('Second meter', 500);
      for (const [route, date] of [
        ['dailyConsumption', '2026-04-03'],
        ['dailyConsumption', '2026-04-04'],
        ['hourlyConsumption', '2026-04-05'],
      ] as const) {
        const atB = await answer(deaf, route, date);
        expect(atB, `${route} ${date}`).toEqual(await answer(other, route, date));
        const values = (atB as { points: { value: number | null }[] }).points.map((p) => p.value);
        expect(values.at(-1), `${route} ${date} has both meters`).toBeCloseTo(
          route === 'dailyConsumption' ? 36 : 1.5,
          6,
        );
      }

      // Signed out at A: refused by B's next energy answer, fresh or remembered.
      expect(
        (await other.request('POST', '/auth/logout', { token: session.refreshToken })).status,
      ).toBe(204);
      expect((await ask(deaf, 'dailyConsumption', '2026-04-02')).status).toBe(401);
      expect((await ask(deaf, 'dailyConsumption', '2026-04-04')).status).toBe(401);
    }

    test('notifications alone (no check before requests, no poll in time) carry a write within a second', async () => {
      const listening = await instance({
        instances: { catchUpBeforeRequests: false, writesPollMs: 600_000 },
      });
      const installerA = await a.tokenFor('installer');
      const installerE = await listening.tokenFor('installer');
      const plant = await createPlant(a, installerA);
      const path = `/plants/${plant.plantUuid}`;
      const nameAtE = async () =>
        (await listening.request('GET', path, { token: installerE })).body.name;
      expect(await nameAtE()).toBe(plant.name);
      await a.request('PUT', path, { token: installerA, body: { name: 'Notified' } });
      await eventually(async () => (await nameAtE()) === 'Notified', 1_000);
    });

    test(`with notifications lost, a write is seen within the poll interval (${POLL_MS} ms)`, async () => {
      const deaf = await instance({
        instances: { listenForWrites: false, catchUpBeforeRequests: false, writesPollMs: POLL_MS },
      });
      const installerA = await a.tokenFor('installer');
      const installerC = await deaf.tokenFor('installer');
      const plant = await createPlant(a, installerA);
      const path = `/plants/${plant.plantUuid}`;
      const nameAtC = async () =>
        (await deaf.request('GET', path, { token: installerC })).body.name;
      expect(await nameAtC()).toBe(plant.name);
      await a.request('PUT', path, { token: installerA, body: { name: 'Seen late' } });
      const waited = await eventually(
        async () => (await nameAtC()) === 'Seen late',
        POLL_MS + 1_500,
      );
      expect(waited).toBeLessThan(POLL_MS + 1_500);
    });

    test('concurrent refreshes of one token at A and B: one 200, one 401, and the family revoked', async () => {
      const refresh = (server: TestServer, token: string) =>
        server.request('GET', '/auth/token', { token });
      for (let round = 0; round < 5; round += 1) {
        const { email, password } = account('manager');
        const pair = (await a.login(email, password)).body;
        const answers = await Promise.all([
          refresh(a, pair.refreshToken),
          refresh(b, pair.refreshToken),
        ]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
        const winner = answers.find((answer) => answer.status === 200)!.body;
        // The family is revoked: the successor refresh token and its access token are refused
        // at both instances.
        for (const server of [a, b]) {
          expect(
            (await server.request('GET', '/auth/me', { token: winner.accessToken })).status,
          ).toBe(401);
        }
        expect((await refresh(b, winner.refreshToken)).status).toBe(401);
      }
    });

    test("a session signed out at A is refused by B's plant list at once, without notifications", async () => {
      // The plant list skips the catch-up (one round trip): its own statement checks the session.
      const [deaf, other] = await Promise.all([
        instance({ instances: { listenForWrites: false, writesPollMs: 600_000 } }),
        instance({ instances: { listenForWrites: false, writesPollMs: 600_000 } }),
      ]);
      const { email, password } = account('manager');
      const pair = (await other.login(email, password)).body;
      const list = (query: Record<string, string>) =>
        deaf.request('GET', '/plants', { token: pair.accessToken, query });
      // B remembers the session as valid, and a malformed query as a 400.
      expect((await list({ search: 'demo' })).status).toBe(200);
      expect((await list({ size: 'many' })).status).toBe(400);
      const logout = await other.request('POST', '/auth/logout', { token: pair.refreshToken });
      expect(logout.status).toBe(204);
      const refused = await list({ search: 'demo' });
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/revoked/);
      // Refused before the query is even validated, as after a catch-up.
      const otherSession = (await other.login(email, password)).body;
      const malformed = () =>
        deaf.request('GET', '/plants', {
          token: otherSession.accessToken,
          query: { size: 'many' },
        });
      expect((await malformed()).status).toBe(400);
      await other.request('POST', '/auth/logout', { token: otherSession.refreshToken });
      expect((await malformed()).status).toBe(401);
    });

    test("B's plant list answers from memory, and has each write at A in its next answer, without notifications", async () => {
      const deaf = await instance({ instances: { listenForWrites: false, writesPollMs: 600_000 } });
      const installerA = await a.tokenFor('installer');
      const installerB = await deaf.tokenFor('installer');
      const directory = deaf.server.context.plantDirectory;
      const found = async (search: string) => {
        const response = await deaf.request('GET', '/plants', {
          token: installerB,
          query: { search },
        });
        expect(response.status).toBe(200);
        return (response.body.content as { name: string; externalIds: string[] }[]).map(
          (plant) => `${plant.name} [${plant.externalIds.join(' ')}]`,
        );
      };
      const plant = await createPlant(a, installerA, {
        name: 'Kept Across',
        externalIds: ['KA-1'],
      });
      expect(await found('kept across')).toEqual(['Kept Across [KA-1]']);
      await directory.settled();
      const fromMemory = directory.counts.fromMemory;
      expect(await found('kept across')).toEqual(['Kept Across [KA-1]']);
      expect(directory.counts.fromMemory).toBe(fromMemory + 1);
      const path = `/plants/${plant.plantUuid}`;
      const writes = [{ name: 'Kept Across renamed' }, { externalIds: ['KA-1', 'KA-2'] }];
      const expected = ['Kept Across renamed [KA-1]', 'Kept Across renamed [KA-1 KA-2]'];
      for (const [index, body] of writes.entries()) {
        expect((await a.request('PUT', path, { token: installerA, body })).status).toBe(200);
        expect(await found('kept across')).toEqual([expected[index]]);
        await directory.settled();
        // Another instance's write to anything else leaves the plants in memory current.
        await a.tokenFor('manager');
        const before = directory.counts.fromMemory;
        expect(await found('kept across')).toEqual([expected[index]]);
        expect(directory.counts.fromMemory).toBe(before + 1);
      }
      expect((await a.request('DELETE', path, { token: installerA })).status).toBe(204);
      expect(await found('kept across')).toEqual([]);
    });

    test("a session signed out at A is refused by B's plant list answered from memory", async () => {
      const deaf = await instance({ instances: { listenForWrites: false, writesPollMs: 600_000 } });
      const { email, password } = account('manager');
      const pair = (await a.login(email, password)).body;
      const list = () =>
        deaf.request('GET', '/plants', { token: pair.accessToken, query: { search: 'demo' } });
      expect((await list()).status).toBe(200);
      await deaf.server.context.plantDirectory.settled();
      const fromMemory = deaf.server.context.plantDirectory.counts.fromMemory;
      expect((await list()).status).toBe(200);
      expect(deaf.server.context.plantDirectory.counts.fromMemory).toBe(fromMemory + 1);
      expect((await a.request('POST', '/auth/logout', { token: pair.refreshToken })).status).toBe(
        204,
      );
      const refused = await list();
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/revoked/);
    });

    test('the login throttle counts failures at A and B together', async () => {
      const { email, password } = account('outsider');
      for (const server of [a, b, a, b]) {
        expect((await server.login(email, 'wrong password')).status).toBe(401);
      }
      for (const server of [a, b]) {
        const refused = await server.login(email, password);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    test('the connection-test limit counts tests at A and B together', async () => {
      const limited: StartServerOptions = {
        connectionTests: { maxTestsPerMinute: 2, timeoutMs: 200 },
      };
      const [p, q] = await Promise.all([instance(limited), instance(limited)]);
      const uuids = await referenceUuids(p);
      const plantUuid = await p.demoPlantUuid();
      const token = await p.tokenFor('installer');
      const saved = await p.request('POST', `/plants/${plantUuid}/sensors`, {
        token,
        body: {
          name: 'Probe',
          sensorTypeUuid: uuids.sensorTypes.POWER_METER,
          connection: { vendorUuid: uuids.vendors.FRONIUS, address: 'modbus://127.0.0.1:502' },
        },
        query: { ignoreConnectionsTest: 'true' },
      });
      expect(saved.status).toBe(201);
      const rerun = (server: TestServer) =>
        server.request(
          'POST',
          `/plants/${plantUuid}/sensors/${saved.body.sensorUuid}/connection-test`,
          {
            token,
          },
        );
      expect((await rerun(p)).status).toBe(200);
      expect((await rerun(q)).status).toBe(200);
      for (const server of [p, q]) {
        const refused = await rerun(server);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });

    test("when the simulator's lock connection dies, its instance stops simulating and one takes over", async () => {
      const simulating: StartServerOptions = {
        simulation: { live: true, historyDays: 0 },
        instances: { simulatorRetryMs: 300 },
      };
      const fresh = await freshDatabase();
      const pair = await Promise.all([instance(simulating, fresh), instance(simulating, fresh)]);
      const db = pair[0]!.server.context.db;
      const holderPid = async () => {
        // A bigint key's high and low halves, compared apart: putting classid and objid together
        // overflowed bigint for other tests' locks whose classid is 2^31 or more.
        const { rows } = await sql<{ pid: number }>`
          select pid from pg_locks
          where locktype = 'advisory' and granted and objsubid = 1
            and classid::bigint = (${ADVISORY_LOCKS.simulator}::bigint >> 32)
            and objid::bigint = (${ADVISORY_LOCKS.simulator}::bigint & 4294967295)`.execute(db);
        return rows[0]?.pid;
      };
      // A lock whose classid is 2^32 - 1, as other tests' locks can be: read past, not overflowed.
      const bystander = new pg.Client({ connectionString: fresh });
      await bystander.connect();
      try {
        await bystander.query('select pg_advisory_lock(-1)');
        const first = await holderPid();
        expect(first).toBeDefined();
        expect(pair.filter((server) => server.server.runsSimulator())).toHaveLength(1);
        await sql`select pg_terminate_backend(${first})`.execute(db);
        await eventually(async () => {
          const pid = await holderPid();
          const runners = pair.filter((server) => server.server.runsSimulator());
          return pid !== undefined && pid !== first && runners.length === 1;
        }, 3_000);
      } finally {
        await bystander.end();
      }
    });

    test('one instance runs the simulator; when it stops, another takes over within its retry interval', async () => {
      const retryMs = 300;
      const simulating: StartServerOptions = {
        simulation: { live: true, historyDays: 0 },
        instances: { simulatorRetryMs: retryMs },
      };
      const pair = await Promise.all([instance(simulating), instance(simulating)]);
      const runners = () => pair.filter((server) => server.server.runsSimulator());
      expect(runners()).toHaveLength(1);
      const [running] = runners();
      const standby = pair.find((server) => server !== running)!;
      await running!.server.close();
      const waited = await eventually(() => standby.server.runsSimulator(), retryMs + 2_000);
      expect(waited).toBeLessThan(retryMs + 2_000);
      expect(runners()).toEqual([standby]);
    });
  },
);
