import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { unauthorized } from '../http/errors.ts';

export interface TokenLifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

export const DEFAULT_TOKEN_LIFETIMES: TokenLifetimes = {
  accessSeconds: 15 * 60,
  refreshSeconds: 30 * 24 * 60 * 60,
};

export interface AccessClaims {
  userUuid: string;
  organizationUuid: string;
  permissions: readonly string[];
  /** The refresh-token family (the sign-in) the token belongs to: revoking it ends the token. */
  familyId: string;
}

export interface RefreshClaims {
  userUuid: string;
  tokenId: string;
  familyId: string;
}

const ISSUER = 'plantdesk';
const ALGORITHM = 'HS256';

/**
 * Signs and verifies the two kinds of JWT. The `typ` claim keeps them apart: a refresh token
 * is never accepted as an access token, nor the reverse.
 */
export class TokenService {
  readonly #secret: Uint8Array;
  readonly lifetimes: TokenLifetimes;
  readonly #now: () => number;
  /** Verified access tokens, so hot paths skip the HMAC and JSON work; bounded and exp-checked. */
  readonly #verified = new Map<string, { claims: AccessClaims; exp: number }>();
  static readonly #CACHE_LIMIT = 10_000;

  constructor(secret: Uint8Array, lifetimes: TokenLifetimes, now: () => number = Date.now) {
    this.#secret = secret;
    this.lifetimes = lifetimes;
    this.#now = now;
  }

  async signAccess(claims: AccessClaims): Promise<string> {
    return this.#sign(
      {
        typ: 'access',
        org: claims.organizationUuid,
        perms: [...claims.permissions],
        fam: claims.familyId,
      },
      claims.userUuid,
      this.lifetimes.accessSeconds,
    );
  }

  async signRefresh(claims: RefreshClaims): Promise<string> {
    return this.#sign(
      { typ: 'refresh', fam: claims.familyId },
      claims.userUuid,
      this.lifetimes.refreshSeconds,
      claims.tokenId,
    );
  }

  /** The claims of an access token verified before and not yet expired, without any await. */
  recentlyVerifiedAccess(token: string): AccessClaims | undefined {
    const cached = this.#verified.get(token);
    if (!cached) return undefined;
    if (cached.exp > this.#now() / 1000) return cached.claims;
    this.#verified.delete(token);
    return undefined;
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const recent = this.recentlyVerifiedAccess(token);
    if (recent) return recent;
    const payload = await this.#verify(token, 'access');
    if (
      typeof payload.org !== 'string' ||
      !isStringArray(payload.perms) ||
      typeof payload.fam !== 'string'
    ) {
      throw unauthorized('Invalid access token');
    }
    const claims: AccessClaims = {
      userUuid: payload.sub as string,
      organizationUuid: payload.org,
      permissions: payload.perms,
      familyId: payload.fam,
    };
    if (this.#verified.size >= TokenService.#CACHE_LIMIT) this.#verified.clear();
    this.#verified.set(token, { claims, exp: payload.exp as number });
    return claims;
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const payload = await this.#verify(token, 'refresh');
    if (typeof payload.fam !== 'string' || typeof payload.jti !== 'string') {
      throw unauthorized('Invalid refresh token');
    }
    return { userUuid: payload.sub as string, tokenId: payload.jti, familyId: payload.fam };
  }

  async #sign(
    claims: JWTPayload,
    subject: string,
    lifetimeSeconds: number,
    tokenId: string = randomUUID(),
  ): Promise<string> {
    const issuedAt = Math.floor(this.#now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(subject)
      .setJti(tokenId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetimeSeconds)
      .sign(this.#secret);
  }

  async #verify(token: string, kind: 'access' | 'refresh'): Promise<JWTPayload> {
    const label = kind === 'access' ? 'Access token' : 'Refresh token';
    try {
      const { payload } = await jwtVerify(token, this.#secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        currentDate: new Date(this.#now()),
        requiredClaims: ['sub', 'exp', 'iat', 'jti', 'typ'],
      });
      if (payload.typ !== kind) throw unauthorized(`${label} required`);
      return payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized(`${label} expired`);
      if (error instanceof errors.JOSEError) throw unauthorized(`Invalid ${label.toLowerCase()}`);
      throw error;
    }
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
