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
 * When the plant list is answered from the plants kept in memory with no statement of its own
 * (server/features/plants/plantDirectory.ts), the directory catches up itself and checks the
 * session as the other routes do.
 *
 * What such a route answers before its statement runs (403 for a missing permission, 400 for a
 * malformed query) is answered as after a catch-up: 401 if the caller's session was signed out
 * through another instance meanwhile.
 */
const CHECKING_SESSION: ReadonlySet<RouteId> = new Set<RouteId>(['listPlants']);

export const checksSessionItself = (id: RouteId) => CHECKING_SESSION.has(id);

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
