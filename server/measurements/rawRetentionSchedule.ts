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

/** How often raw retention runs while the server does (and once at its start). */
export const RAW_RETENTION_INTERVAL_MS = 60 * 60_000;

/**
 * Runs raw retention at start and then every RAW_RETENTION_INTERVAL_MS, one run at a time.
 * With several instances on one PostgreSQL database each runs it; that is safe (dropping a
 * month another already dropped is skipped, deleting rows already deleted deletes none) but
 * wasteful: it belongs under the instances' shared advisory lock once there is one.
 */
export class RawRetention {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #log: RetentionLog;
  readonly days: number;
  #running: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(db: Db, now: () => Date, days: number, log: RetentionLog) {
    this.#db = db;
    this.#now = now;
    this.days = days;
    this.#log = log;
  }

  /** The first instant whose raw readings are kept, now. */
  horizonMs(): number {
    return rawRetentionHorizon(this.#now().getTime(), this.days);
  }

  /** One run now, after any run in progress. */
  run(): Promise<RetentionResult> {
    const run = this.#running.then(async () => {
      const started = performance.now();
      const result = await dropRawReadingsBefore(this.#db, this.horizonMs());
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
