import type { ServerContext } from '../../context.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { isRefusal, type ThrottleRefusal } from '../../auth/loginThrottle.ts';
import { tooManyRequests, unauthorized } from '../../http/errors.ts';
import { issueTokens, revokeRefreshFamily, rotateRefreshToken } from './sessions.ts';
import { findUser, findUserByEmail, normalizeEmail, permissionsOf } from './userStore.ts';

type AuthHandlers = Pick<RouteHandlers, 'login' | 'refreshToken' | 'logout' | 'currentUser'>;

const WRONG_CREDENTIALS = 'Invalid e-mail or password';

const REFUSALS: Record<ThrottleRefusal['reason'], (refusal: ThrottleRefusal) => string> = {
  account: ({ retryAfterSeconds }) =>
    `Too many failed logins; try again in ${retryAfterSeconds} seconds`,
  inFlight: () => 'Another login for this account is being checked; try again in a moment',
  address: ({ retryAfterSeconds }) =>
    `Too many logins from this address; try again in ${retryAfterSeconds} seconds`,
};

export function authHandlers(context: ServerContext): AuthHandlers {
  const { db, passwords, loginThrottle } = context;
  return {
    login: async ({ body, ip }) => {
      const email = normalizeEmail(body.email);
      // Counted before the password is checked: a burst cannot have every guess checked.
      const attempt = await loginThrottle.begin(email, ip);
      if (isRefusal(attempt))
        throw tooManyRequests(REFUSALS[attempt.reason](attempt), attempt.retryAfterSeconds);
      try {
        const user = await findUserByEmail(db, email);
        const valid = await passwords.check(body.password, user?.password_hash);
        if (!user || !valid) throw unauthorized(WRONG_CREDENTIALS);
        attempt.succeeded();
        return await issueTokens(context, user);
      } finally {
        attempt.failed();
      }
    },

    refreshToken: async ({ refresh }) => rotateRefreshToken(context, refresh.claims),

    logout: async ({ refresh }) => {
      await revokeRefreshFamily(context, refresh.claims);
      return undefined;
    },

    currentUser: async ({ user }) => {
      const row = await findUser(db, user.userUuid);
      if (!row) throw unauthorized('The account of this token no longer exists');
      const organization = await db
        .selectFrom('organizations')
        .select('name')
        .where('organization_uuid', '=', row.organization_uuid)
        .executeTakeFirstOrThrow();
      return {
        userUuid: row.user_uuid,
        email: row.email,
        displayName: row.display_name,
        organizationUuid: row.organization_uuid,
        organizationName: organization.name,
        permissions: permissionsOf(row),
      };
    },
  };
}
