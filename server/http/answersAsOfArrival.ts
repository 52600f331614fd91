import type { RouteId } from '../../api/index.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, revokedSession } from './errors.ts';

/**
 * On PostgreSQL, the energy per day and hour and the power histories skip the catch-up before
 * the request (sessionInStatement.ts): they are answered from what this instance remembers (the
 * plant, its sensors, the session) and the coarse rollups or the hourly points stored per day,
 * whose reads also read the cluster's snapshot (coarseRollupBatches.ts, storedDayBatches.ts;
 * a history of other rows is caught up after its answer, below). Such a read, this request's
 * or another's, sent after the request arrived and finding nothing written (the generation
 * unchanged since the request arrived) makes the answer as good as one after a catch-up; only
 * when none did is the catch-up made, after the answer, and the answer made again if the
 * catch-up moved the generation. A fresh answer then
 * costs one round trip rather than two; a remembered one, the catch-up it cost before.
 *
 * While writes are under way (an answer was made again within CATCH_UP_FIRST_MS), requests catch
 * up first instead, as the other routes do: an answer made twice would cost more than the round
 * trip saved.
 */
const READING_SNAPSHOT: ReadonlySet<RouteId> = new Set<RouteId>([
  'dailyConsumption',
  'dailyProduction',
  'hourlyConsumption',
  'hourlyProduction',
  'summaryConsumption',
  'summaryProduction',
  'historyConsumption',
  'historyProduction',
]);

export const readsSnapshotItself = (id: RouteId) => READING_SNAPSHOT.has(id);

export const CATCH_UP_FIRST_MS = 1_000;

/** When a READING_SNAPSHOT request arrived, and the write generation then. */
export interface Arrival {
  at: number;
  generation: number;
}

type Context = Pick<ServerContext, 'revocations' | 'writes'>;

export class AnswersAsOfArrival {
  readonly #shared: { freshSince(instant: number): boolean };
  readonly #context: Context;
  readonly #catchUp: () => Promise<void>;
  /** When an answer was last found stale (`performance.now()`). */
  #movedAt = -Infinity;

  constructor(
    shared: { freshSince(instant: number): boolean },
    context: Context,
    catchUp: () => Promise<void>,
  ) {
    this.#shared = shared;
    this.#context = context;
    this.#catchUp = catchUp;
  }

  arrival(): Arrival {
    return { at: performance.now(), generation: this.#context.writes.value };
  }

  /**
   * `answer()` as of `arrival`: kept when a snapshot read sent since found nothing written, else
   * made again after a catch-up that did find something (the session checked again first). An
   * error is answered likewise: kept unless the catch-up finds a write.
   */
  async answer<T>(
    answer: () => Promise<T>,
    arrival: Arrival,
    familyId: string | undefined,
  ): Promise<T> {
    if (performance.now() - this.#movedAt < CATCH_UP_FIRST_MS) {
      await this.#catchUp();
      await this.#checkAgain(arrival, familyId);
      return answer();
    }
    let outcome: { answer: T } | { error: unknown };
    try {
      outcome = { answer: await answer() };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 401) throw error;
      outcome = { error };
    }
    if (!(this.#unchangedSince(arrival) && this.#shared.freshSince(arrival.at))) {
      await this.#catchUp();
      if (await this.#checkAgain(arrival, familyId)) return answer();
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.answer;
  }

  #unchangedSince(arrival: Arrival): boolean {
    return this.#context.writes.value === arrival.generation;
  }

  /** After a catch-up: whether the generation moved since `arrival` (then 401 if signed out). */
  async #checkAgain(arrival: Arrival, familyId: string | undefined): Promise<boolean> {
    if (this.#unchangedSince(arrival)) return false;
    this.#movedAt = performance.now();
    if (familyId !== undefined && (await this.#context.revocations.isRevoked(familyId))) {
      throw revokedSession();
    }
    return true;
  }
}
