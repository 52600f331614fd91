import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * Sliding-window rate limits counted in the database (`throttle_events`), so every server
 * instance on a PostgreSQL database counts the same attempts. Checking the counts and recording
 * the attempt is one transaction holding an advisory lock per subject, so concurrent attempts
 * at different instances cannot all pass the check before any is recorded.
 */
export interface WindowLimit {
  scope: string;
  subject: string;
  limit: number;
  windowMs: number;
}

export interface WindowRefusal {
  limit: WindowLimit;
  retryAfterSeconds: number;
}

/** Expired events are swept out at most this often. */
const SWEEP_EVERY_MS = 60_000;

export class SharedWindows {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #longestWindowMs: number;
  #lastSweep = 0;

  constructor(db: Db, now: () => number, longestWindowMs: number) {
    this.#db = db;
    this.#now = now;
    this.#longestWindowMs = longestWindowMs;
  }

  /**
   * Checks `limits` in order: the first already full is the refusal; when none is, the attempt
   * is recorded in each.
   */
  async countUnlessFull(limits: readonly WindowLimit[]): Promise<WindowRefusal | undefined> {
    const now = this.#now();
    const refusal = await this.#db.transaction().execute(async (trx) => {
      // Locks in the callers' fixed order (address before account), so no two wait on each other.
      for (const { scope, subject } of limits) {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}|${subject}`}, 0))`.execute(
          trx,
        );
      }
      for (const limit of limits) {
        const times = await trx
          .selectFrom('throttle_events')
          .select('at_ms')
          .where('scope', '=', limit.scope)
          .where('subject', '=', limit.subject)
          .where('at_ms', '>', now - limit.windowMs)
          .orderBy('at_ms', 'desc')
          .limit(limit.limit)
          .execute();
        if (times.length >= limit.limit) {
          // Blocked until the oldest of the last `limit` attempts leaves the window.
          const oldestCounted = times[times.length - 1]!.at_ms;
          const retryAfterSeconds = Math.max(
            1,
            Math.ceil((oldestCounted + limit.windowMs - now) / 1000),
          );
          return { limit, retryAfterSeconds };
        }
      }
      await trx
        .insertInto('throttle_events')
        .values(limits.map(({ scope, subject }) => ({ scope, subject, at_ms: now })))
        .execute();
      return undefined;
    });
    if (now - this.#lastSweep >= SWEEP_EVERY_MS) {
      this.#lastSweep = now;
      void this.#sweep(now).catch(() => {});
    }
    return refusal;
  }

  /** Forgets the attempts of `subject` in `scope` (a successful login clears its failures). */
  async clear(scope: string, subject: string): Promise<void> {
    await this.#db
      .deleteFrom('throttle_events')
      .where('scope', '=', scope)
      .where('subject', '=', subject)
      .execute();
  }

  async #sweep(now: number): Promise<void> {
    await this.#db
      .deleteFrom('throttle_events')
      .where('at_ms', '<=', now - this.#longestWindowMs)
      .execute();
  }
}
