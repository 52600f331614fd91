import type { RouteId } from '../../api/index.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, revokedSession } from './errors.ts';

/**
 * On PostgreSQL every API request first catches up with the other instances' writes
 * (server/db/sharedWrites.ts), a round trip of its own, so that what this instance remembers
 * (the signed-out sessions among it) is no older than the request. A route whose handler reads
 * all it answers in one statement skips it when that statement also checks that the caller's
 * sign-in is not revoked: one round trip per request instead of two (the list of plants, whose
 * search must stay cheap among thousands of plants).
 *
 * What such a route answers before its statement runs (403 for a missing permission, 400 for a
 * malformed query) is answered as after a catch-up: 401 if the caller's session was signed out
 * through another instance meanwhile.
 */
const CHECKING_SESSION: ReadonlySet<RouteId> = new Set<RouteId>(['listPlants']);

export const checksSessionItself = (id: RouteId) => CHECKING_SESSION.has(id);

/**
 * The energy per day and hour: answered from what this instance remembers (the plant, its
 * sensors, the session) and the coarse rollups, whose read also reads the cluster's snapshot
 * (coarseRollupBatches.ts). Such a read, this request's or another's, sent after the request
 * arrived and finding nothing written (the generation unchanged since the request arrived) makes
 * the answer as good as one after a catch-up; only when none did is the catch-up made, after the
 * answer, and the answer made again if the catch-up moved the generation. A fresh answer then
 * costs one round trip rather than two; a remembered one, the catch-up it cost before.
 */
const READING_SNAPSHOT: ReadonlySet<RouteId> = new Set<RouteId>([
  'dailyConsumption',
  'dailyProduction',
  'hourlyConsumption',
  'hourlyProduction',
  'summaryConsumption',
  'summaryProduction',
]);

export const readsSnapshotItself = (id: RouteId) => READING_SNAPSHOT.has(id);

/** When a READING_SNAPSHOT request arrived, and the write generation then. */
export interface Arrival {
  at: number;
  generation: number;
}

export const arrivalNow = (writes: { readonly value: number }): Arrival => ({
  at: performance.now(),
  generation: writes.value,
});

/**
 * `answer()` as of `arrival` (see READING_SNAPSHOT): kept when a snapshot read sent since found
 * nothing written, else made again after a catch-up that did find something (the session checked
 * again first). An error is answered likewise: kept unless the catch-up finds a write.
 */
export async function answerAsOfArrival<T>(
  answer: () => Promise<T>,
  arrival: Arrival,
  shared: { freshSince(instant: number): boolean },
  context: Pick<ServerContext, 'revocations' | 'writes'>,
  catchUp: () => Promise<void>,
  familyId: string | undefined,
): Promise<T> {
  const unchanged = () => context.writes.value === arrival.generation;
  let outcome: { answer: T } | { error: unknown };
  try {
    outcome = { answer: await answer() };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    outcome = { error };
  }
  if (!(unchanged() && shared.freshSince(arrival.at))) {
    await catchUp();
    if (!unchanged()) {
      if (familyId !== undefined && (await context.revocations.isRevoked(familyId))) {
        throw revokedSession();
      }
      return answer();
    }
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.answer;
}

/** Throws 401 if `familyId` was revoked anywhere before now, else `error`. */
export async function revokedFirst(
  error: unknown,
  familyId: string | undefined,
  context: Pick<ServerContext, 'revocations'>,
  catchUp: () => Promise<void>,
): Promise<never> {
  if (familyId !== undefined && error instanceof ApiError && error.status !== 401) {
    await catchUp();
    if (await context.revocations.isRevoked(familyId)) throw revokedSession();
  }
  throw error;
}

/** The handler's statement found the caller's session revoked: remembered, and refused. */
export function refuseRevoked(
  context: Pick<ServerContext, 'revocations'>,
  familyId: string,
): ApiError {
  context.revocations.markRevoked(familyId);
  return revokedSession();
}
