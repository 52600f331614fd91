import type { Db } from '../db/database.ts';

/**
 * Whether a refresh-token family (one sign-in's session) has been revoked: by logout, or by the
 * reuse of a spent refresh token. Access tokens carry their family, so revoking it ends them at
 * once rather than when they expire. The answer for every request must be cheap:
 * - a revocation this process made, or has seen, is remembered for good;
 * - "not revoked" is remembered for `freshMs`, which bounds how long another server instance's
 *   revocation can go unseen here;
 * the database is asked otherwise.
 */
export class FamilyRevocations {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #freshMs: number;
  readonly #revoked = new Set<string>();
  readonly #validUntil = new Map<string, number>();
  static readonly #LIMIT = 100_000;

  constructor(db: Db, now: () => number, freshMs = 5_000) {
    this.#db = db;
    this.#now = now;
    this.#freshMs = freshMs;
  }

  /** Known without asking the database: true, false, or undefined when it must be asked. */
  knownRevoked(familyId: string): boolean | undefined {
    if (this.#revoked.has(familyId)) return true;
    const until = this.#validUntil.get(familyId);
    if (until !== undefined && until > this.#now()) return false;
    return undefined;
  }

  async isRevoked(familyId: string): Promise<boolean> {
    const known = this.knownRevoked(familyId);
    if (known !== undefined) return known;
    const row = await this.#db
      .selectFrom('refresh_tokens')
      .select('token_id')
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    if (row) this.markRevoked(familyId);
    else {
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
