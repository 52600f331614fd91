import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/database.ts';
import type { StatementObserver } from '../db/nodeSqlite.ts';

/** Told of readings accepted through the API, batch by batch. */
export interface IngestionObserver {
  readingsAccepted(count: number): void;
}

/** Seconds: from a cached plant read to a large ingestion. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: `node:sqlite` answers most statements in microseconds. */
const QUERY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1];

/**
 * The Prometheus metrics of one server, in a registry of its own (not prom-client's global one),
 * so that several servers in one process, as in the tests, count apart. Labels are bounded:
 * a route is its template (`/plants/{plantUuid}`), never a path with ids in it.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #requestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly #readingsAccepted: Counter;
  readonly #readingBatchesAccepted: Counter;
  readonly #querySeconds: Histogram<'kind'>;
  readonly #queryErrors: Counter<'kind'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Counter({
      name: 'plantdesk_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#requestSeconds = new Histogram({
      name: 'plantdesk_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by route template',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.#readingsAccepted = new Counter({
      name: 'plantdesk_readings_accepted_total',
      help: 'Readings accepted by POST /plants/{plantUuid}/sensors/{sensorUuid}/readings',
      registers,
    });
    this.#readingBatchesAccepted = new Counter({
      name: 'plantdesk_reading_batches_accepted_total',
      help: 'Batches of readings accepted by the ingestion route',
      registers,
    });
    this.#querySeconds = new Histogram({
      name: 'plantdesk_db_statement_duration_seconds',
      help: 'Time the database took per statement (its _count is the statement count), reads and writes',
      labelNames: ['kind'],
      buckets: QUERY_BUCKETS,
      registers,
    });
    this.#queryErrors = new Counter({
      name: 'plantdesk_db_statement_errors_total',
      help: 'Statements that failed (constraint violations included)',
      labelNames: ['kind'],
      registers,
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.#requests.inc(labels);
    this.#requestSeconds.observe(labels, seconds);
  }

  readonly ingestion: IngestionObserver = {
    readingsAccepted: (count) => {
      this.#readingBatchesAccepted.inc();
      this.#readingsAccepted.inc(count);
    },
  };

  readonly statements: StatementObserver = (kind, seconds, failed) => {
    this.#querySeconds.observe({ kind }, seconds);
    if (failed) this.#queryErrors.inc({ kind });
  };

  /**
   * Gauges of a connection pool, read at each scrape: for an engine with one (PostgreSQL); the
   * SQLite engine has a single connection and never calls this.
   */
  watchPool(stats: () => PoolStats): void {
    const gauge = (name: string, help: string, pick: (pool: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(pick(stats()));
        },
      });
    gauge('plantdesk_db_pool_connections', 'Connections open in the pool', (pool) => pool.total);
    gauge('plantdesk_db_pool_idle_connections', 'Pool connections idle', (pool) => pool.idle);
    gauge(
      'plantdesk_db_pool_waiting_queries',
      'Queries waiting for a connection',
      (pool) => pool.waiting,
    );
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
