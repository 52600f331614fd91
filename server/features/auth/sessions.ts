import { randomUUID } from 'node:crypto';
import type { TokenResponse } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import type { RefreshClaims } from '../../auth/tokens.ts';
import type { Db } from '../../db/database.ts';
import type { UserRow } from '../../db/tables.ts';
import { unauthorized } from '../../http/errors.ts';
import { findUser, permissionsOf } from './userStore.ts';

/**
 * Token pairs and refresh-token families. Each refresh token is single-use: using it marks it
 * spent and issues the next one of its family; presenting a spent token again means it leaked,
 * so the whole family is revoked.
 */
export async function issueTokens(
  context: ServerContext,
  user: UserRow,
  familyId: string = randomUUID(),
  db: Db = context.db,
): Promise<TokenResponse> {
  const { tokens } = context;
  const issuedAt = context.now();
  const tokenId = randomUUID();
  const expiresAt = new Date(issuedAt.getTime() + tokens.lifetimes.refreshSeconds * 1000);
  await db
    .insertInto('refresh_tokens')
    .values({
      token_id: tokenId,
      family_id: familyId,
      user_uuid: user.user_uuid,
      issued_at: issuedAt.toISOString(),
      expires_at: expiresAt.toISOString(),
      used_at: null,
      revoked_at: null,
    })
    .execute();
  const [accessToken, refreshToken] = await Promise.all([
    tokens.signAccess({
      userUuid: user.user_uuid,
      organizationUuid: user.organization_uuid,
      permissions: permissionsOf(user),
      familyId,
    }),
    tokens.signRefresh({ userUuid: user.user_uuid, tokenId, familyId }),
  ]);
  return {
    accessToken,
    refreshToken,
    tokenType: 'Bearer',
    expiresIn: tokens.lifetimes.accessSeconds,
    refreshExpiresIn: tokens.lifetimes.refreshSeconds,
  };
}

const REUSED_MESSAGE = 'Refresh token reused; its session has been revoked';

export async function rotateRefreshToken(
  context: ServerContext,
  claims: RefreshClaims,
): Promise<TokenResponse> {
  const now = context.now().toISOString();
  // Spending the old token and recording its successor is one transaction, so a concurrent
  // reuse either sees the successor (and revokes it with the family) or does not see the spend.
  const outcome = await context.db.transaction().execute(async (trx) => {
    const stored = await trx
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_id', '=', claims.tokenId)
      .executeTakeFirst();
    if (!stored || stored.user_uuid !== claims.userUuid) return 'invalid' as const;
    if (stored.revoked_at) return 'revoked' as const;
    const spent = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('token_id', '=', stored.token_id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) {
      await revokeFamily(trx, stored.family_id, now);
      return 'reused' as const;
    }
    const user = await findUser(trx, stored.user_uuid);
    return user ? issueTokens(context, user, stored.family_id, trx) : ('invalid' as const);
  });
  // Committed: its access tokens end now too (they carry the family).
  if (outcome === 'reused' || outcome === 'revoked')
    context.revocations.markRevoked(claims.familyId);
  switch (outcome) {
    case 'invalid':
      throw unauthorized('Invalid refresh token');
    case 'revoked':
      throw unauthorized('Refresh token revoked');
    case 'reused':
      throw unauthorized(REUSED_MESSAGE);
    default:
      return outcome;
  }
}

/**
 * Logout revokes the token's family. A spent token is as suspect here as on refresh: its family
 * is revoked all the same, and the answer is the 401 of a reused token.
 */
export async function revokeRefreshFamily(
  context: ServerContext,
  claims: RefreshClaims,
): Promise<void> {
  const stored = await context.db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_uuid', 'used_at', 'revoked_at'])
    .where('token_id', '=', claims.tokenId)
    .executeTakeFirst();
  if (!stored || stored.user_uuid !== claims.userUuid) throw unauthorized('Invalid refresh token');
  if (stored.revoked_at) throw unauthorized('Refresh token revoked');
  await revokeFamily(context.db, stored.family_id, context.now().toISOString());
  context.revocations.markRevoked(stored.family_id);
  if (stored.used_at) throw unauthorized(REUSED_MESSAGE);
}

async function revokeFamily(db: ServerContext['db'], familyId: string, now: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}
