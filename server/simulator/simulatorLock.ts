import pg from 'pg';
import { ADVISORY_LOCKS } from '../db/advisoryLocks.ts';

/**
 * Runs the simulator in exactly one of the server instances on a PostgreSQL database: the one
 * holding a session-level advisory lock, on a connection of its own. The lock goes with that
 * connection: when its instance stops, crashes or loses the database, PostgreSQL releases it,
 * and another instance, trying every `retryMs` (default 15 s), takes over within that time, plus
 * however long PostgreSQL takes to notice a dead connection: at once when the process ends, about
 * 25 s (the keepalives set below) when its machine or network vanishes. An instance that notices
 * its own connection is gone stops simulating at once, so two never simulate together for long.
 */
export interface SimulatorLockOptions {
  retryMs?: number;
}

export const DEFAULT_SIMULATOR_RETRY_MS = 15_000;

interface Running {
  stop(): Promise<void>;
}

interface LockLog {
  info(facts: object, message: string): void;
  error(facts: object, message: string): void;
}

export class SimulatorLock {
  readonly #url: string;
  readonly #start: () => Promise<Running | undefined>;
  readonly #log: LockLog;
  readonly #retryMs: number;
  #client: pg.Client | undefined;
  #running: Running | undefined;
  #timer: NodeJS.Timeout | undefined;
  #attempt: Promise<void> | undefined;
  #closed = false;

  constructor(
    url: string,
    start: () => Promise<Running | undefined>,
    log: LockLog,
    options: SimulatorLockOptions = {},
  ) {
    this.#url = url;
    this.#start = start;
    this.#log = log;
    this.#retryMs = options.retryMs ?? DEFAULT_SIMULATOR_RETRY_MS;
  }

  /** Whether this instance holds the lock, hence runs the simulator. */
  get held(): boolean {
    return this.#client !== undefined;
  }

  /**
   * Tries once now (a holder starts the simulator before this resolves, as a lone server does),
   * then every `retryMs` while another instance holds the lock.
   */
  async begin(): Promise<void> {
    await this.#tryOnce();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#attempt;
    await this.#release();
  }

  #tryOnce(): Promise<void> {
    this.#attempt = this.#acquire()
      .catch((error: unknown) => this.#log.error({ err: error }, 'Simulator lock: not taken'))
      .finally(() => this.#scheduleRetry());
    return this.#attempt;
  }

  #scheduleRetry(): void {
    if (this.#closed || this.held) return;
    this.#timer = setTimeout(() => void this.#tryOnce(), this.#retryMs);
    this.#timer.unref();
  }

  async #acquire(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#url,
      // Either side notices the other gone within about half a minute, even when the network
      // fails silently: this instance then stops simulating, and PostgreSQL frees the lock.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client.on('error', () => void this.#lost(client));
    await client.connect();
    await client.query(
      'set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3',
    );
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock($1::bigint) as locked',
      [ADVISORY_LOCKS.simulator],
    );
    if (!rows[0]!.locked || this.#closed) {
      await client.end();
      return;
    }
    this.#client = client;
    client.on('end', () => void this.#lost(client));
    this.#log.info({}, 'Simulator: this instance runs it');
    try {
      this.#running = await this.#start();
    } catch (error) {
      await this.#release();
      throw error;
    }
  }

  /** The lock's connection died: the lock is gone, so is the right to simulate. */
  async #lost(client: pg.Client): Promise<void> {
    if (this.#client !== client || this.#closed) return;
    this.#log.error({}, 'Simulator lock: connection lost; simulator stopped until it is retaken');
    await this.#release();
    this.#scheduleRetry();
  }

  async #release(): Promise<void> {
    const running = this.#running;
    const client = this.#client;
    this.#running = undefined;
    // Stopped before the lock is let go: the next holder never overlaps this one's writes.
    await running?.stop();
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
