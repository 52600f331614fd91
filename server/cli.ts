import { parseArgs } from 'node:util';
import { parseClockStart } from './clock.ts';
import { watchParent } from './parentWatch.ts';
import { parseTrustProxy } from './proxyTrust.ts';
import { startServer } from './server.ts';
import { shutdownRequest } from './shutdownRequest.ts';

const USAGE = `Usage: npm run server -- [--port 8080] [--host 127.0.0.1] [--db ./data/plantdesk.db | :memory: | postgres://USER:PASS@HOST:5432/NAME] [--demo] [--quiet]
       [--history-days N] [--seed N] [--no-simulation] [--exit-with-parent]
       [--clock 2026-06-21T12:00:00+02:00] [--trust-proxy true|HOPS|ADDRESSES]
       [--allowed-host api.example.com[,HOST:PORT...]] [--only-own-host] [--no-docs]
       [--allow-private-networks] [--no-extensions] [--demo-fleet 12] [--metrics]
       [--raw-retention-days N]

The simulator writes readings for sensors at sim:// addresses: with --demo, 90 days of history
(--history-days) on the first start, then live readings every minute; --no-simulation turns it off.
--clock starts the server's clock at that instant (it then advances in real time): default
dates, forecasts, PV health, the simulator and tokens follow it.
--trust-proxy names the reverse proxies whose X-Forwarded-For gives the client's address (the
login limits count per address): true (any), a number of hops, or addresses and CIDRs separated
by commas. Without it the address is the connection's, and X-Forwarded-For is ignored.
--allowed-host answers only requests whose Host is one of these (others get 421), against DNS
rebinding; --only-own-host also answers 127.0.0.1, localhost and [::1] at the port listened on.
--no-docs turns the interactive reference at /docs off (/openapi.json stays).
--allow-private-networks lets sensor connection tests reach loopback, private and link-local
addresses: for an on-premise server next to the devices. Off by default, so that a server
reachable from outside cannot be used to probe the network behind it.
--demo-fleet N seeds N plants of the demo fleet with --demo (default 12, 0 for none): simulated
plants across zones, some with a fault for monitoring to find; their first week of history is
written before the listening line, the rest in the background.
--no-extensions leaves out our routes beyond the specification and the decisions file (plant
summaries, sensor statuses, the production summary, the connection test), to test a client
against a server that has only the common routes.
--metrics serves Prometheus metrics at /metrics, without a token: keep them from the internet
(a reverse proxy that refuses /metrics from outside, or a listener on a private address).
--raw-retention-days N keeps raw readings for N days: older ones are dropped at start and every
hour (whole months on PostgreSQL, where readings are partitioned by month), their 15-minute
rollups stay, so metrics of those days answer as before; readings older than N days are
refused (422). Default: raw readings are kept for ever.
/healthz (alive) and /readyz (database answers, migrations applied) are always served.
SIGTERM or SIGINT stops accepting connections, lets requests in flight finish (up to 10 s),
stops the simulator, closes the database and exits 0; a second signal exits at once. The
desktop app's stop message (over a utility process's parent port) does the same.
--exit-with-parent stops the server when the process that started it is gone (the desktop app's
Local sandbox uses it, so that a crashed app never leaves a server holding its database).

--db takes an SQLite file (created if missing), :memory:, or a PostgreSQL URL (the database
must exist; the schema is created on first start); PLANTDESK_DATABASE_URL is its default.
On PostgreSQL, PLANTDESK_JWT_SECRET and PLANTDESK_SETTINGS_KEY are required. Several instances
may share one PostgreSQL database behind a reverse proxy (give them the same secrets): see
DEPLOYMENT.md.

Environment: PLANTDESK_CLOCK, PLANTDESK_TRUST_PROXY and PLANTDESK_RAW_RETENTION_DAYS are
--clock's, --trust-proxy's and --raw-retention-days' defaults; PLANTDESK_ADMIN_EMAIL and
PLANTDESK_ADMIN_PASSWORD create an administrator;
PLANTDESK_JWT_SECRET sets the token signing secret and PLANTDESK_SETTINGS_KEY the key that
encrypts vendor secrets at rest (each at least 32 bytes; default: generated once and kept in
<db>.keys next to the database, mode 0600, never in the database).`;

function parseCount(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new Error(`--${option} must be a whole number, not '${text}'`);
  return Number(text);
}

function parseRetentionDays(text: string | undefined): number | undefined {
  const days = parseCount('raw-retention-days', text);
  if (days === 0) throw new Error('--raw-retention-days must be at least 1');
  return days;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new Error(`--port must be 0..65535, not '${text}'`);
  return port;
}

async function main(): Promise<void> {
  // Before the (possibly long) start: a parent gone meanwhile is noticed too.
  const parentPid = process.ppid;
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      demo: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      'history-days': { type: 'string' },
      seed: { type: 'string' },
      'no-simulation': { type: 'boolean', default: false },
      'exit-with-parent': { type: 'boolean', default: false },
      clock: { type: 'string' },
      'trust-proxy': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'only-own-host': { type: 'boolean', default: false },
      'no-docs': { type: 'boolean', default: false },
      'allow-private-networks': { type: 'boolean', default: false },
      'no-extensions': { type: 'boolean', default: false },
      'demo-fleet': { type: 'string' },
      metrics: { type: 'boolean', default: false },
      'raw-retention-days': { type: 'string' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const clockText = values.clock ?? process.env.PLANTDESK_CLOCK;
  const clock =
    clockText === undefined || clockText === '' ? undefined : parseClockStart(clockText);
  const adminEmail = process.env.PLANTDESK_ADMIN_EMAIL;
  const adminPassword = process.env.PLANTDESK_ADMIN_PASSWORD;
  const server = await startServer({
    port: parsePort(values.port),
    host: values.host,
    db: values.db ?? (process.env.PLANTDESK_DATABASE_URL || './data/plantdesk.db'),
    demo: values.demo,
    clock,
    trustProxy: parseTrustProxy(values['trust-proxy'] ?? process.env.PLANTDESK_TRUST_PROXY),
    allowedHosts: (values['allowed-host'] ?? [])
      .flatMap((hosts) => hosts.split(','))
      .map((host) => host.trim())
      .filter((host) => host !== ''),
    onlyOwnLoopbackHost: values['only-own-host'],
    docs: !values['no-docs'],
    connectionTests: { allowPrivateNetworks: values['allow-private-networks'] },
    extensions: !values['no-extensions'],
    metrics: values.metrics,
    demoFleet: parseCount('demo-fleet', values['demo-fleet']),
    rawRetentionDays: parseRetentionDays(
      values['raw-retention-days'] ?? (process.env.PLANTDESK_RAW_RETENTION_DAYS || undefined),
    ),
    simulation: values['no-simulation']
      ? false
      : {
          historyDays: parseCount('history-days', values['history-days']),
          seed: parseCount('seed', values.seed),
        },
    ...(adminEmail && adminPassword && { admin: { email: adminEmail, password: adminPassword } }),
    ...(process.env.PLANTDESK_JWT_SECRET && { jwtSecret: process.env.PLANTDESK_JWT_SECRET }),
    ...(process.env.PLANTDESK_SETTINGS_KEY && { settingsKey: process.env.PLANTDESK_SETTINGS_KEY }),
    logger: values.quiet ? false : { level: 'info', stream: process.stderr },
  });
  console.log(`PlantDesk API listening on ${server.url}`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    server.close({ graceMs: SHUTDOWN_GRACE_MS }).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C (or SIGTERM) does not wait for requests in flight.
    if (closing) process.exit(1);
    server.app.log.info({ signal }, 'shutting down: finishing requests in flight');
    shutdown();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  shutdownRequest.onRequest(() => {
    server.app.log.info({ requestedBy: 'parent' }, 'shutting down: finishing requests in flight');
    shutdown();
  });
  if (values['exit-with-parent']) watchParent(shutdown, { parentPid });
}

/** How long requests in flight may take once a stop is asked for. */
const SHUTDOWN_GRACE_MS = 10_000;

main().catch((error: unknown) => {
  const usageError =
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ||
    /^--(port|history-days|seed|trust-proxy|demo-fleet|raw-retention-days)|^The clock must be|^PLANTDESK_\w+ must be/.test(
      String((error as Error).message),
    );
  console.error(usageError ? `${(error as Error).message}\n${USAGE}` : error);
  process.exit(1);
});
