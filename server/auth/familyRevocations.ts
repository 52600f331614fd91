import type { Db } from '../db/database.ts';
import type { Generation } from '../db/writeGeneration.ts';

/**
 * Whether a refresh-token family (one sign-in's session) has been revoked: by logout, or by the
 * reuse of a spent refresh token. Access tokens carry their family, so revoking it ends them at
 * once rather than when they expire. The answer for every request must be cheap:
 * - a revocation this process made, or has seen, is remembered for good;
 * - "not revoked" is remembered for `freshMs`, and only until the database's write generation
 *   moves (a revocation is a write, and on PostgreSQL another instance's writes move it too,
 *   server/db/sharedWrites.ts), so another instance's revocation is seen at the next request;
 * the database is asked otherwise.
 */
export class FamilyRevocations {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #freshMs: number;
  readonly #revoked = new Set<string>();
  readonly #validUntil = new Map<string, number>();
  readonly #generation: Generation;
  #validGeneration = -1;
  static readonly #LIMIT = 100_000;

  constructor(db: Db, now: () => number, generation: Generation = () => 0, freshMs = 5_000) {
    this.#db = db;
    this.#now = now;
    this.#generation = generation;
    this.#freshMs = freshMs;
  }

  /** Known without asking the database: true, false, or undefined when it must be asked. */
  knownRevoked(familyId: string): boolean | undefined {
    if (this.#revoked.has(familyId)) return true;
    const generation = this.#generation();
    if (generation !== this.#validGeneration) {
      this.#validUntil.clear();
      this.#validGeneration = generation;
    }
    const until = this.#validUntil.get(familyId);
    if (until !== undefined && until > this.#now()) return false;
    return undefined;
  }

  async isRevoked(familyId: string): Promise<boolean> {
    const known = this.knownRevoked(familyId);
    if (known !== undefined) return known;
    const generation = this.#generation();
    const row = await revokedTokensOf(this.#db, familyId).limit(1).executeTakeFirst();
    if (row) this.markRevoked(familyId);
    else if (this.#generation() === generation && this.#validGeneration === generation) {
      // Not remembered when a write happened meanwhile: it may have been the revocation.
      if (this.#validUntil.size >= FamilyRevocations.#LIMIT) this.#validUntil.clear();
      this.#validUntil.set(familyId, this.#now() + this.#freshMs);
    }
    return row !== undefined;
  }

  /** After the revocation is committed. */
  markRevoked(familyId: string): void {
    this.#validUntil.delete(familyId);
    if (this.#revoked.size >= FamilyRevocations.#LIMIT) this.#revoked.clear();
    this.#revoked.add(familyId);
  }
}

/**
 * The family's revoked refresh tokens: any means the sign-in was revoked. Also checked inside a
 * route's own statement (server/http/sessionInStatement.ts); `familyId` may be a stand-in there.
 */
export function revokedTokensOf(db: Db, familyId: string) {
  return db
    .selectFrom('refresh_tokens')
    .select('token_id')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is not', null);
}
