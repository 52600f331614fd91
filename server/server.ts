import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp, DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './app.ts';
import { clockFrom } from './clock.ts';
import {
  LoginThrottle,
  DEFAULT_LOGIN_THROTTLE,
  type LoginThrottleOptions,
} from './auth/loginThrottle.ts';
import { FamilyRevocations } from './auth/familyRevocations.ts';
import { SharedLoginThrottle } from './auth/sharedLoginThrottle.ts';
import { SharedWindows } from './auth/sharedWindows.ts';
import { DEFAULT_SCRYPT_COST, PasswordChecker, type ScryptCost } from './auth/passwords.ts';
import { DEFAULT_TOKEN_LIFETIMES, TokenService, type TokenLifetimes } from './auth/tokens.ts';
import type { ServerContext } from './context.ts';
import { openDatabase, type OpenedDatabase } from './db/database.ts';
import { ensureAdmin, type AdminAccount } from './demo/admin.ts';
import { DEFAULT_DEMO_FLEET_SIZE } from './demo/demoFleet.ts';
import { seedDemo } from './demo/seedDemo.ts';
import { seedReferenceCatalogs } from './demo/seedCatalogs.ts';
import {
  type ConnectionTestSettings,
  createConnectionTester,
} from './integrations/connectionTester.ts';
import { loadServerKeys } from './keys.ts';
import { SettingsCipher } from './features/vendors/settingsCipher.ts';
import { sealPlaintextSecrets } from './features/vendors/plantVendorStore.ts';
import { PlantLookup } from './features/plants/plantLookup.ts';
import { ServerMetrics } from './ops/serverMetrics.ts';
import { ensureReadingPartitions } from './db/readingPartitions.ts';
import { RawRetention } from './measurements/rawRetentionSchedule.ts';
import { SearchIndexUpkeep } from './features/plants/searchIndexUpkeep.ts';
import { PlantDirectory, type PlantDirectoryOptions } from './features/plants/plantDirectory.ts';
import { startSimulation, type SimulationSettings } from './simulator/index.ts';
import type { Simulator } from './simulator/simulator.ts';
import { SimulatorLock } from './simulator/simulatorLock.ts';
import type { PvHealthThresholds } from './pvHealth/pvHealthThresholds.ts';

export interface StartServerOptions {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * SQLite file path, `:memory:`, or a PostgreSQL URL (`postgres://user:pass@host:5432/name`,
   * the database must exist; then `jwtSecret` and `settingsKey` are required). Default `:memory:`.
   */
  db?: string;
  /** Seed the demo accounts, Demo Home and the demo fleet on an empty database. */
  demo?: boolean;
  /** How many plants of the demo fleet `demo` seeds (default 12; 0 for none). */
  demoFleet?: number;
  /** An administrator to create when no account has that e-mail. */
  admin?: AdminAccount;
  /** Fastify/pino logger options; default: JSON lines on stderr at `info`. `false` silences. */
  logger?: FastifyServerOptions['logger'];
  /**
   * JWT signing secret, at least 32 bytes; default: generated once and kept in a key file next
   * to the database (`<db>.keys`, 0600), never in the database itself.
   */
  jwtSecret?: string;
  /** Encrypts vendor secret settings at rest, at least 32 bytes; default: the key file's. */
  settingsKey?: string;
  tokenLifetimes?: Partial<TokenLifetimes>;
  loginThrottle?: Partial<LoginThrottleOptions>;
  scryptCost?: ScryptCost;
  bodyLimitBytes?: number;
  /**
   * Whose `X-Forwarded-For` to believe for the client's address (the login limits count per
   * address): `true` (any), a number of proxy hops, or addresses/CIDRs ("10.0.0.1,10.1.0.0/16").
   * Default: none, the address is the connection's.
   */
  trustProxy?: boolean | number | string;
  /**
   * Sensor connection tests: `allowPrivateNetworks` lets them reach loopback, private and
   * link-local addresses (on-premise servers next to the devices; off by default), `ports` the
   * ports per scheme, `maxTestsPerMinute` per user, `timeoutMs` (default 3000).
   */
  connectionTests?: Partial<ConnectionTestSettings>;
  /** Serve Swagger UI at `/docs` (default true); `/openapi.json` is always served. */
  docs?: boolean;
  /**
   * `Host` values answered besides, with `onlyOwnLoopbackHost`, 127.0.0.1/localhost/[::1] at the
   * port listened on; any other Host gets 421. Neither set: every Host is answered.
   */
  allowedHosts?: readonly string[];
  onlyOwnLoopbackHost?: boolean;
  /** Limits on slow clients (see ServerTimeouts); defaults DEFAULT_SERVER_TIMEOUTS. */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * The server's clock starts at this instant (an ISO 8601 date-time with an offset, a Date or
   * epoch ms) and advances in real time: default dates, forecast origins, PV health's period,
   * the simulator and tokens all follow it. Default: the system clock.
   */
  clock?: string | Date | number;
  /** The clock as a function, for tests that move it themselves; wins over `clock`. */
  now?: () => Date;
  /**
   * The plant simulator (sensors at `sim://` addresses): history at start for simulated sensors
   * without readings, then live readings every minute. Default: 90 days and live with `demo`,
   * live only otherwise; `false` turns it off.
   */
  simulation?: SimulationSettings | false;
  /** PV health thresholds overriding the defaults (README, "PV health"). */
  pvHealth?: Partial<PvHealthThresholds>;
  /**
   * Serve our own extension routes (default true). `false` leaves out every route beyond the
   * specification and the decisions file (plant summaries, sensor statuses, the production
   * summary, the connection test): they answer 404 like unknown routes and are not in
   * `/openapi.json`, so a client can be tested against a server with only the common routes.
   */
  extensions?: boolean;
  /**
   * Serve Prometheus metrics at `/metrics` (default false: the route is unknown, 404). It needs
   * no token, like `/healthz` and `/readyz`: keep it off a public listener, or let the reverse
   * proxy refuse it from outside.
   */
  metrics?: boolean;
  /**
   * Keep raw readings for this many days (a whole number, at least 1): older ones are dropped
   * at start and every hour (whole monthly partitions on PostgreSQL), while their 15-minute
   * rollups keep every metric of those days; readings posted older than that are refused (422).
   * Default: raw readings are kept for ever.
   */
  rawRetentionDays?: number;
  /**
   * The plant list answered from each organization's plants kept in memory while unchanged
   * (server/features/plants/plantDirectory.ts): limits, or `{ maxPlants: 0 }` to read every
   * list from the database. Default: organizations of up to 10,000 plants, 64 of them.
   */
  plantDirectory?: PlantDirectoryOptions;
  /**
   * Several instances on one PostgreSQL database (ignored on SQLite): `writesPollMs` bounds how
   * long another instance's write can go unseen here when its notification is lost (default
   * 5 s), `listenForWrites: false` ignores notifications (tests of that bound),
   * `catchUpBeforeRequests: false` skips the check before each request that makes a write
   * committed anywhere visible to the next request here (tests of the bound), and
   * `simulatorRetryMs` is how often an instance not running the simulator tries to take it over
   * (default 15 s).
   */
  instances?: {
    writesPollMs?: number;
    listenForWrites?: boolean;
    catchUpBeforeRequests?: boolean;
    simulatorRetryMs?: number;
  };
}

export interface CloseOptions {
  /**
   * How long requests in flight may take to finish once the server stops accepting connections,
   * before their connections are cut (default 10 s).
   */
  graceMs?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  app: FastifyInstance;
  context: ServerContext;
  /** The metrics `/metrics` serves, when they are on. */
  metrics?: ServerMetrics;
  /** Raw retention, when `rawRetentionDays` is set (`run()` runs it now). */
  rawRetention?: RawRetention;
  /** Whether this instance runs the simulator (on PostgreSQL, one instance of all does). */
  runsSimulator(): boolean;
  /**
   * Stops accepting connections, lets requests in flight finish (bounded by `graceMs`), stops
   * the simulator and closes the database.
   */
  close(options?: CloseOptions): Promise<void>;
}

export const DEFAULT_CLOSE_GRACE_MS = 10_000;

export const DEFAULT_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/** Opens the database, builds the app and assembles its context, without listening. */
export async function createServer(options: StartServerOptions = {}) {
  // A malformed clock is a start-up error, before anything is opened.
  const now = options.now ?? clockFrom(options.clock);
  checkRetentionDays(options.rawRetentionDays);
  const metrics = options.metrics ? new ServerMetrics() : undefined;
  const database = await openDatabase(options.db ?? ':memory:', {
    observeStatements: metrics?.statements,
    sharedWrites: {
      pollMs: options.instances?.writesPollMs,
      listen: options.instances?.listenForWrites,
    },
  });
  if (metrics && database.poolStats) metrics.watchPool(database.poolStats);
  try {
    const clockMs = () => now().getTime();
    // This month's and next month's partitions (PostgreSQL) exist before any write needs
    // them, so that ingestion rarely has to create one (which locks readings for a moment).
    await ensureReadingPartitions(database.db, clockMs(), clockMs() + 31 * 86_400_000);
    const keys = await loadServerKeys(database.db, {
      databasePath: options.db ?? ':memory:',
      jwtSecret: options.jwtSecret,
      settingsKey: options.settingsKey,
    });
    const settingsCipher = new SettingsCipher(keys.settingsKey);
    const loginThrottleOptions = { ...DEFAULT_LOGIN_THROTTLE, ...options.loginThrottle };
    // On PostgreSQL the limits count in the database, for every instance on it.
    const sharedWindows = database.shared
      ? new SharedWindows(
          database.db,
          clockMs,
          Math.max(loginThrottleOptions.windowMs, loginThrottleOptions.addressWindowMs, 60_000),
        )
      : undefined;
    const catchUpBeforeRequests =
      options.instances?.catchUpBeforeRequests === false ? undefined : database.shared?.catchUp;
    // With other instances, "not revoked" holds only until the write generation moves: one of
    // them may have revoked. Alone (SQLite), every revocation is this process's own.
    const revocations = new FamilyRevocations(
      database.db,
      clockMs,
      database.shared ? () => database.writes.value : undefined,
    );
    const context: ServerContext = {
      db: database.db,
      settingsCipher,
      tokens: new TokenService(
        keys.jwtSecret,
        { ...DEFAULT_TOKEN_LIFETIMES, ...options.tokenLifetimes },
        clockMs,
      ),
      revocations,
      passwords: new PasswordChecker(options.scryptCost ?? DEFAULT_SCRYPT_COST),
      loginThrottle: sharedWindows
        ? new SharedLoginThrottle(loginThrottleOptions, sharedWindows)
        : new LoginThrottle(loginThrottleOptions, clockMs).limiter,
      connections: createConnectionTester({
        timeoutMs: 3000,
        ...options.connectionTests,
        now: clockMs,
        sharedWindows,
      }),
      plants: new PlantLookup(database.db, () => database.writes.value),
      searchUpkeep: new SearchIndexUpkeep(database.db),
      plantDirectory: new PlantDirectory(
        database.db,
        { generation: () => database.writes.value, catchUp: catchUpBeforeRequests, revocations },
        options.plantDirectory,
      ),
      writes: database.writes,
      now,
      pvHealth: options.pvHealth,
      ingestion: metrics?.ingestion,
    };
    // Instances starting together on an empty database seed it once.
    await database.exclusively(async () => {
      await sealPlaintextSecrets(database.db, settingsCipher);
      await seedReferenceCatalogs(context);
      if (options.demo) await seedDemo(context, options.demoFleet ?? DEFAULT_DEMO_FLEET_SIZE);
      if (options.admin) await ensureAdmin(context, options.admin);
    });
    // Plants written by seeding, or by an earlier run: merge what they left.
    context.searchUpkeep.noteWrite();
    const app = await buildApp(context, {
      logger: options.logger ?? { level: 'info', stream: process.stderr },
      bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      trustProxy: options.trustProxy ?? false,
      docs: options.docs ?? true,
      hosts: {
        allowed: options.allowedHosts ?? [],
        ownLoopback: options.onlyOwnLoopbackHost ?? false,
      },
      timeouts: { ...DEFAULT_SERVER_TIMEOUTS, ...options.timeouts },
      extensions: options.extensions ?? true,
      metrics,
      beforeRequest: catchUpBeforeRequests,
    });
    const rawRetention =
      options.rawRetentionDays === undefined
        ? undefined
        : new RawRetention(
            database.db,
            now,
            options.rawRetentionDays,
            app.log,
            database.exclusively,
          );
    context.rawRetention = rawRetention;
    rawRetention?.start();
    const simulator = await runSimulator(
      database,
      options,
      () =>
        startSimulation(
          database.db,
          now,
          { demo: options.demo ?? false, simulation: options.simulation },
          app.log,
        ),
      app.log,
    );
    const close = async ({ graceMs = DEFAULT_CLOSE_GRACE_MS }: CloseOptions = {}) => {
      // Stop listening at once, even while the simulator finishes a pass of writes.
      const stopped = await Promise.allSettled([
        simulator.stop(),
        rawRetention?.stop(),
        closeApp(app, graceMs),
      ]);
      await context.searchUpkeep.stop();
      await context.plantDirectory.close();
      await database.close();
      for (const result of stopped) if (result.status === 'rejected') throw result.reason;
    };
    return { app, context, metrics, rawRetention, close, runsSimulator: simulator.running };
  } catch (error) {
    await database.close();
    throw error;
  }
}

interface SimulatorRun {
  running(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts the simulator: at once on SQLite; on PostgreSQL in the one instance holding its lock
 * (simulatorLock.ts), the others standing by to take over.
 */
async function runSimulator(
  database: OpenedDatabase,
  options: StartServerOptions,
  start: () => Promise<Simulator | undefined>,
  log: FastifyBaseLogger,
): Promise<SimulatorRun> {
  if (options.simulation === false) return { running: () => false, stop: async () => {} };
  if (!database.shared) {
    const simulator = await start();
    return { running: () => simulator !== undefined, stop: async () => simulator?.stop() };
  }
  const lock = new SimulatorLock(database.shared.url, start, log, {
    retryMs: options.instances?.simulatorRetryMs,
  });
  await lock.begin();
  return { running: () => lock.held, stop: () => lock.close() };
}

/**
 * Fastify's close stops listening, ends idle keep-alive connections, answers 503 to requests
 * arriving on busy ones, and waits for requests in flight: for ever, unless we cut them.
 */
async function closeApp(app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/** Starts the Plant Energy API server; resolves once it accepts connections. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { app, context, metrics, rawRetention, close, runsSimulator } = await createServer(options);
  try {
    await app.listen({ port: options.port ?? 8080, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    host: address.address,
    port: address.port,
    app,
    context,
    metrics,
    rawRetention,
    runsSimulator,
    close,
  };
}

function checkRetentionDays(days: number | undefined): void {
  if (days !== undefined && !(Number.isSafeInteger(days) && days >= 1)) {
    throw new Error(`rawRetentionDays must be a whole number of days, at least 1, not ${days}`);
  }
}
