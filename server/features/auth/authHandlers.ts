import type { ServerContext } from '../../context.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { tooManyRequests, unauthorized } from '../../http/errors.ts';
import { issueTokens, revokeRefreshFamily, rotateRefreshToken } from './sessions.ts';
import { findUser, findUserByEmail, normalizeEmail, permissionsOf } from './userStore.ts';

type AuthHandlers = Pick<RouteHandlers, 'login' | 'refreshToken' | 'logout' | 'currentUser'>;

const WRONG_CREDENTIALS = 'Invalid e-mail or password';

export function authHandlers(context: ServerContext): AuthHandlers {
  const { db, passwords, loginThrottle } = context;
  return {
    login: async ({ body, ip }) => {
      const email = normalizeEmail(body.email);
      const wait = loginThrottle.retryAfterSeconds(email, ip);
      if (wait > 0) {
        throw tooManyRequests(`Too many failed logins; try again in ${wait} seconds`, wait);
      }
      const user = await findUserByEmail(db, email);
      const valid = await passwords.check(body.password, user?.password_hash);
      if (!user || !valid) {
        loginThrottle.recordFailure(email, ip);
        throw unauthorized(WRONG_CREDENTIALS);
      }
      loginThrottle.recordSuccess(email, ip);
      return issueTokens(context, user);
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
