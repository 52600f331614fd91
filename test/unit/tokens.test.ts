import { randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { TokenService, type AccessClaims, type RefreshClaims } from '../../server/auth/tokens.ts';
import { ApiError } from '../../server/http/errors.ts';

const LIFETIMES = { accessSeconds: 900, refreshSeconds: 86_400 };
const ACCESS: AccessClaims = {
  userUuid: '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a',
  organizationUuid: '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f',
  permissions: ['PLANTS READ', 'PLANTS CREATE'],
  familyId: '9e8d7c6b-dddd-4eee-8fff-cba987654321',
};
const REFRESH: RefreshClaims = {
  userUuid: ACCESS.userUuid,
  tokenId: '3d2f1c0b-aaaa-4bbb-8ccc-123456789abc',
  familyId: '9e8d7c6b-dddd-4eee-8fff-cba987654321',
};

function serviceAt(startMs = Date.UTC(2026, 0, 15, 12)) {
  const clock = { now: startMs };
  const secret = randomBytes(32);
  const service = new TokenService(secret, LIFETIMES, () => clock.now);
  return { service, clock, secret };
}

/** The 401 a verification throws: status and message. */
async function rejection(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    return { status: apiError.status, message: apiError.message };
  }
  throw new Error('expected a rejection');
}

describe('TokenService', () => {
  test('an access token carries the decided claims and round-trips', async () => {
    const { service, clock } = serviceAt();
    const token = await service.signAccess(ACCESS);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({
      typ: 'access',
      sub: ACCESS.userUuid,
      org: ACCESS.organizationUuid,
      perms: ACCESS.permissions,
      iat: clock.now / 1000,
      exp: clock.now / 1000 + LIFETIMES.accessSeconds,
    });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    await expect(service.verifyAccess(token)).resolves.toEqual(ACCESS);
  });

  test('a refresh token carries its id and family and round-trips', async () => {
    const { service, clock } = serviceAt();
    const token = await service.signRefresh(REFRESH);
    expect(decodeJwt(token)).toMatchObject({
      typ: 'refresh',
      sub: REFRESH.userUuid,
      jti: REFRESH.tokenId,
      fam: REFRESH.familyId,
      exp: clock.now / 1000 + LIFETIMES.refreshSeconds,
    });
    await expect(service.verifyRefresh(token)).resolves.toEqual(REFRESH);
  });

  test('typ keeps the kinds apart: a refresh token is no access token, nor the reverse', async () => {
    const { service } = serviceAt();
    const access = await service.signAccess(ACCESS);
    const refresh = await service.signRefresh(REFRESH);
    await expect(rejection(service.verifyAccess(refresh))).resolves.toEqual({
      status: 401,
      message: 'Access token required',
    });
    await expect(rejection(service.verifyRefresh(access))).resolves.toEqual({
      status: 401,
      message: 'Refresh token required',
    });
  });

  test('an access token expires with the injected clock, cached or not', async () => {
    const { service, clock } = serviceAt();
    const token = await service.signAccess(ACCESS);
    const untouched = await service.signAccess(ACCESS);
    // Verified once: the service caches it; the cache must still honour the expiry.
    await expect(service.verifyAccess(token)).resolves.toEqual(ACCESS);
    clock.now += (LIFETIMES.accessSeconds - 1) * 1000;
    await expect(service.verifyAccess(token)).resolves.toEqual(ACCESS);
    clock.now += 1000;
    for (const expired of [token, untouched]) {
      await expect(rejection(service.verifyAccess(expired))).resolves.toEqual({
        status: 401,
        message: 'Access token expired',
      });
    }
  });

  test('a refresh token expires with the injected clock', async () => {
    const { service, clock } = serviceAt();
    const token = await service.signRefresh(REFRESH);
    clock.now += LIFETIMES.refreshSeconds * 1000;
    await expect(rejection(service.verifyRefresh(token))).resolves.toEqual({
      status: 401,
      message: 'Refresh token expired',
    });
  });

  test('a token signed with another secret is invalid', async () => {
    const { service } = serviceAt();
    const other = serviceAt().service;
    await expect(rejection(service.verifyAccess(await other.signAccess(ACCESS)))).resolves.toEqual({
      status: 401,
      message: 'Invalid access token',
    });
    await expect(
      rejection(service.verifyRefresh(await other.signRefresh(REFRESH))),
    ).resolves.toEqual({ status: 401, message: 'Invalid refresh token' });
  });

  test('a token with a tampered payload is invalid', async () => {
    const { service } = serviceAt();
    const [header, payload, signature] = (await service.signAccess(ACCESS)).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    claims.perms = ['PLANTS READ', 'PLANTS CREATE', 'PLANTS DELETE'];
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature];
    await expect(rejection(service.verifyAccess(forged.join('.')))).resolves.toMatchObject({
      status: 401,
    });
  });

  test('unsigned (alg none) and garbage tokens are invalid', async () => {
    const { service, clock } = serviceAt();
    const unsigned = new UnsecuredJWT({ typ: 'access', org: ACCESS.organizationUuid, perms: [] })
      .setSubject(ACCESS.userUuid)
      .setIssuer('plantdesk')
      .setJti('x')
      .setIssuedAt(clock.now / 1000)
      .setExpirationTime(clock.now / 1000 + 60)
      .encode();
    for (const token of [unsigned, 'abc', 'a.b.c', '', '...']) {
      await expect(rejection(service.verifyAccess(token))).resolves.toEqual({
        status: 401,
        message: 'Invalid access token',
      });
    }
  });

  test('a correctly signed token without the required claims is invalid', async () => {
    const { service, clock, secret } = serviceAt();
    const base = () =>
      new SignJWT({ typ: 'access', org: ACCESS.organizationUuid, perms: ACCESS.permissions })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(ACCESS.userUuid)
        .setIssuedAt(clock.now / 1000)
        .setExpirationTime(clock.now / 1000 + 60);
    const noJti = await base().setIssuer('plantdesk').sign(secret);
    const wrongIssuer = await base().setIssuer('someone-else').setJti('j').sign(secret);
    const badPerms = await new SignJWT({
      typ: 'access',
      org: ACCESS.organizationUuid,
      perms: 'ALL',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(ACCESS.userUuid)
      .setIssuer('plantdesk')
      .setJti('j')
      .setIssuedAt(clock.now / 1000)
      .setExpirationTime(clock.now / 1000 + 60)
      .sign(secret);
    for (const token of [noJti, wrongIssuer, badPerms]) {
      await expect(rejection(service.verifyAccess(token))).resolves.toMatchObject({ status: 401 });
    }
  });
});
