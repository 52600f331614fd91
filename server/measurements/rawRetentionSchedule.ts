import type { Db } from '../db/database.ts';
import {
  dropRawReadingsBefore,
  rawRetentionHorizon,
  type RetentionResult,
} from './rawRetention.ts';

interface RetentionLog {
  info(facts: object, message: string): void;
  error(facts: object, message: string): void;
}

/** Runs work while no other instance on the same database runs work under the same lock. */
type Exclusively = <T>(work: () => Promise<T>) => Promise<T>;

/** How often raw retention runs while the server does (and once at its start). */
export const RAW_RETENTION_INTERVAL_MS = 60 * 60_000;

/**
 * Runs raw retention at start and then every RAW_RETENTION_INTERVAL_MS, one run at a time.
 * With several instances on one PostgreSQL database each runs it under the database's
 * `exclusively` lock, one instance at a time: the later ones find nothing left to drop.
 */
export class RawRetention {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #log: RetentionLog;
  readonly days: number;
  #running: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  readonly #exclusively: Exclusively;
  #stopped = false;

  constructor(
    db: Db,
    now: () => Date,
    days: number,
    log: RetentionLog,
    exclusively: Exclusively = (work) => work(),
  ) {
    this.#db = db;
    this.#now = now;
    this.days = days;
    this.#log = log;
    this.#exclusively = exclusively;
  }

  /** The first instant whose raw readings are kept, now. */
  horizonMs(): number {
    return rawRetentionHorizon(this.#now().getTime(), this.days);
  }

  /** One run now, after any run in progress. */
  run(): Promise<RetentionResult> {
    const run = this.#running.then(async () => {
      const started = performance.now();
      const result = await this.#exclusively(() =>
        dropRawReadingsBefore(this.#db, this.horizonMs()),
      );
      if (result.partitionsDropped.length > 0 || result.readingsDeleted > 0) {
        const ms = Math.round(performance.now() - started);
        this.#log.info(
          { ...result, horizon: new Date(result.horizonMs).toISOString(), ms },
          `Raw retention: readings before ${new Date(result.horizonMs).toISOString()} dropped`,
        );
      }
      return result;
    });
    this.#running = run.catch(() => {});
    return run;
  }

  start(): void {
    const runLogged = () =>
      this.run().catch((error: unknown) =>
        this.#log.error({ err: error }, 'Raw retention failed; it runs again in an hour'),
      );
    void runLogged();
    this.#timer = setInterval(() => {
      if (!this.#stopped) void runLogged();
    }, RAW_RETENTION_INTERVAL_MS);
    this.#timer.unref();
  }

  /** No more runs; resolves once a run in progress is over. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }
}
