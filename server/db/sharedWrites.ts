import pg from 'pg';
import { WRITES_CHANNEL } from './writeNotifications.ts';
import type { WriteGeneration } from './writeGeneration.ts';

/**
 * Makes a PostgreSQL database's write generation shared by every server instance on it: each
 * instance moves its own generation when another writes, so caches that compare it (metrics,
 * plant lookups, family revocations) drop what another instance's write made stale.
 * - Notifications (server/db/writeNotifications.ts) arrive on a dedicated connection that
 *   LISTENs, within milliseconds of the writer's commit.
 * - A notification can be lost: while that connection is down (it reconnects, and moves the
 *   generation once it is back, for what it missed), or dropped by a test. So every `pollMs`
 *   the instance also reads the cluster's transaction snapshot (`pg_current_snapshot()`): it
 *   changes whenever a writing transaction starts or ends, anywhere in the cluster, and costs
 *   no table access. A change moves the generation. Staleness is thus bounded by `pollMs`
 *   (default 5 s) whatever happens to notifications; other databases of the cluster only cost
 *   a few extra cache misses.
 * - Notifications take a moment to arrive: a client that writes through one instance and at once
 *   reads through another could beat them. So before each request the server calls
 *   `catchUp()`, which reads the same snapshot: any write committed before the request arrived
 *   has changed it (the writer's transaction was running, or not yet begun, at the last read).
 *   One round trip per request, shared by the requests that arrive while it runs; a request with
 *   nothing cached to serve would have queried anyway.
 */
export interface SharedWritesOptions {
  /** How often the snapshot is compared: the bound on staleness. Default 5 s. */
  pollMs?: number;
  /** LISTEN for other instances' notifications (default true; tests turn it off). */
  listen?: boolean;
}

export const DEFAULT_SHARED_WRITES_POLL_MS = 5_000;
const RECONNECT_MS = 1_000;

const byPool = new WeakMap<pg.Pool, SharedWrites>();

/** The instance's shared writes on `pool`, if several instances may share its database. */
export const sharedWritesOf = (pool: pg.Pool): SharedWrites | undefined => byPool.get(pool);

export class SharedWrites {
  readonly #url: string;
  readonly #pool: pg.Pool;
  readonly #writes: WriteGeneration;
  readonly #instanceId: string;
  readonly #pollMs: number;
  #listener: pg.Client | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #lastSnapshot: string | undefined;
  /** When the latest snapshot read that has been compared was sent (`performance.now()`). */
  #freshAsOf = -Infinity;
  #closed = false;
  /** The snapshot read under way, and the one queued for requests that arrived during it. */
  #reading: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  constructor(
    url: string,
    pool: pg.Pool,
    writes: WriteGeneration,
    instanceId: string,
    options: SharedWritesOptions = {},
  ) {
    this.#url = url;
    this.#pool = pool;
    this.#writes = writes;
    this.#instanceId = instanceId;
    this.#pollMs = options.pollMs ?? DEFAULT_SHARED_WRITES_POLL_MS;
    this.listening = options.listen ?? true;
    byPool.set(pool, this);
  }

  readonly listening: boolean;

  /** Starts listening (when asked to) and polling; resolves once the listener is connected. */
  async start(): Promise<void> {
    this.#lastSnapshot = await this.#snapshot();
    if (this.listening) await this.#listen();
    this.#pollTimer = setInterval(() => void this.#poll(), this.#pollMs);
    this.#pollTimer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#pollTimer);
    clearTimeout(this.#reconnectTimer);
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.end().catch(() => {});
  }

  async #listen(): Promise<void> {
    // Keepalives: a connection the network silently dropped is noticed, and replaced.
    const client = new pg.Client({
      connectionString: this.#url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client.on('notification', ({ payload }) => {
      if (payload !== this.#instanceId) this.#writes.bump();
    });
    const lost = () => {
      if (this.#listener !== client) return;
      this.#listener = undefined;
      client.end().catch(() => {});
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`listen ${WRITES_CHANNEL}`);
    this.#listener = client;
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    this.#reconnectTimer = setTimeout(() => {
      this.#listen().then(
        // What was notified while no one listened is lost: assume something was.
        () => this.#writes.bump(),
        () => this.#scheduleReconnect(),
      );
    }, RECONNECT_MS);
    this.#reconnectTimer.unref();
  }

  /**
   * Resolves once the write generation reflects every write committed before the call: by a
   * snapshot read that starts after it (one already under way may have started before).
   */
  catchUp(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (!this.#reading) return this.#startReading();
    // The read under way may have begun before this call: wait for the one after it.
    this.#queued = this.#reading.then(() => {
      this.#queued = undefined;
      return this.#startReading();
    });
    return this.#queued;
  }

  #startReading(): Promise<void> {
    const reading = this.#poll().finally(() => {
      if (this.#reading === reading) this.#reading = undefined;
    });
    this.#reading = reading;
    return reading;
  }

  /**
   * `snapshot` was read by a statement sent at `sentAt` (`performance.now()`), here or in a
   * read that asked for it (coarseRollupBatches.ts): a change moves the generation, as a poll's.
   */
  observe(snapshot: string, sentAt: number): void {
    if (snapshot !== this.#lastSnapshot) {
      this.#lastSnapshot = snapshot;
      this.#writes.bump();
    }
    if (sentAt > this.#freshAsOf) this.#freshAsOf = sentAt;
  }

  /**
   * Whether a snapshot read sent at or after `instant` has been compared: then the generation
   * reflects every write committed before `instant`, as after `catchUp()` (a request that
   * started then, and saw the generation unchanged since, needs no catch-up).
   */
  freshSince(instant: number): boolean {
    return this.#freshAsOf >= instant;
  }

  async #poll(): Promise<void> {
    try {
      const sentAt = performance.now();
      this.observe(await this.#snapshot(), sentAt);
    } catch {
      // The database is unreachable: nothing can be read from it either; try again next time.
    }
  }

  async #snapshot(): Promise<string> {
    const { rows } = await this.#pool.query<{ snapshot: string }>(
      'select pg_current_snapshot()::text as snapshot',
    );
    return rows[0]!.snapshot;
  }
}
