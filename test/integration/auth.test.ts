import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../api/index.ts';
import { DEFAULT_SCRYPT_COST } from '../../server/auth/passwords.ts';
import { DEMO_ORGANIZATIONS } from '../../server/demo/accounts.ts';
import { freshLogin } from '../support/entities.ts';
import { DEMO_ACCOUNTS, expectErrorBody, TestServer } from '../support/testServer.ts';

const ADMIN = DEMO_ACCOUNTS[0];
const INSTALLER = DEMO_ACCOUNTS[1];

let server: TestServer;

beforeAll(async () => {
  server = await TestServer.start();
});

afterAll(async () => {
  await server?.close();
});

const me = (token: string | null) => server.request('GET', '/auth/me', { token });
const refresh = (token: string) => server.request('GET', '/auth/token', { token });
const logout = (token: string) => server.request('POST', '/auth/logout', { token });

describe('POST /auth/login', () => {
  test('answers a token pair of the decided shape', async () => {
    const response = await server.login(ADMIN.email, ADMIN.password);
    expect(response.status).toBe(200);
    const body = routes.login.response.parse(response.body);
    expect(body.tokenType).toBe('Bearer');
    expect(body.expiresIn).toBe(900);
    expect(body.refreshExpiresIn).toBe(30 * 24 * 60 * 60);
    expect(body.accessToken).not.toBe(body.refreshToken);
    const access = decodeJwt(body.accessToken);
    expect(access).toMatchObject({ typ: 'access', iss: 'plantdesk' });
    expect(access.exp! - access.iat!).toBe(900);
    expect(decodeJwt(body.refreshToken)).toMatchObject({ typ: 'refresh' });
    expect(Object.keys(response.body).sort()).toEqual(
      ['accessToken', 'expiresIn', 'refreshExpiresIn', 'refreshToken', 'tokenType'].sort(),
    );
  });

  test('the e-mail is case-insensitive and trimmed', async () => {
    for (const email of ['ADMIN@PlantDesk.TEST', '  admin@plantdesk.test ']) {
      const response = await server.login(email, ADMIN.password);
      expect(response.status, email).toBe(200);
    }
  });

  test('the password is case-sensitive', async () => {
    const error = expectErrorBody(
      await server.login(ADMIN.email, ADMIN.password.toUpperCase()),
      401,
    );
    expect(error.message).toBe('Invalid e-mail or password');
  });

  test('a wrong password and an unknown account answer the same 401', async () => {
    const wrong = expectErrorBody(
      await server.login(ADMIN.email, 'not-the-password'),
      401,
      '/auth/login',
    );
    const unknown = expectErrorBody(
      await server.login('nobody@plantdesk.test', ADMIN.password),
      401,
      '/auth/login',
    );
    expect(wrong.message).toBe(unknown.message);
    expect(wrong.error).toBe('Unauthorized');
  });

  test.each([
    { name: 'no password', body: { email: ADMIN.email }, field: 'password' },
    { name: 'no email', body: { password: 'x' }, field: 'email' },
    { name: 'an empty object', body: {}, field: 'email' },
    { name: 'a malformed email', body: { email: 'admin', password: 'x' }, field: 'email' },
    { name: 'an empty password', body: { email: ADMIN.email, password: '' }, field: 'password' },
    {
      name: 'a numeric password',
      body: { email: ADMIN.email, password: 12345 },
      field: 'password',
    },
    { name: 'an array', body: [ADMIN.email, ADMIN.password], field: 'body' },
  ])('$name → 400 naming $field', async ({ body, field }) => {
    const error = expectErrorBody(await server.request('POST', '/auth/login', { body }), 400);
    expect(error.message).toContain(field);
  });

  test('a body that is not JSON → 400', async () => {
    for (const rawBody of ['email=admin@plantdesk.test&password=x', '{"email":', 'null']) {
      const response = await server.request('POST', '/auth/login', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectErrorBody(response, 400, '/auth/login');
    }
  });

  test('no body at all → 400 saying the body is required', async () => {
    const error = expectErrorBody(await server.request('POST', '/auth/login'), 400);
    expect(error.message).toBe('Request body is required');
  });
});

describe('GET /auth/token (refresh)', () => {
  test('the refresh token as bearer gives a new pair that works', async () => {
    const first = await freshLogin(server, ADMIN.email, ADMIN.password);
    const response = await refresh(first.refreshToken);
    expect(response.status).toBe(200);
    const second = routes.refreshToken.response.parse(response.body);
    expect(second.expiresIn).toBe(900);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect((await me(second.accessToken)).status).toBe(200);
    expect((await refresh(second.refreshToken)).status).toBe(200);
  });

  test('reusing a spent refresh token → 401 and revokes the newer token of its family', async () => {
    const first = await freshLogin(server, ADMIN.email, ADMIN.password);
    const other = await freshLogin(server, ADMIN.email, ADMIN.password);
    const second = (await refresh(first.refreshToken)).body;
    expect(second.refreshToken).toBeTypeOf('string');

    const reuse = expectErrorBody(await refresh(first.refreshToken), 401, '/auth/token');
    expect(reuse.message).toMatch(/revoked|reused/i);
    expectErrorBody(await refresh(second.refreshToken), 401);
    // Another session (another family) is not affected.
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  test('an access token is not a refresh token, nor the reverse', async () => {
    const pair = await freshLogin(server, INSTALLER.email, INSTALLER.password);
    const asRefresh = expectErrorBody(await refresh(pair.accessToken), 401);
    expect(asRefresh.message).toBe('Refresh token required');
    const asAccess = expectErrorBody(await me(pair.refreshToken), 401, '/auth/me');
    expect(asAccess.message).toBe('Access token required');
    expectErrorBody(await server.request('GET', '/plants', { token: pair.refreshToken }), 401);
    // Neither attempt spent the refresh token.
    expect((await refresh(pair.refreshToken)).status).toBe(200);
  });

  test('no bearer → 401 with WWW-Authenticate', async () => {
    const response = await server.request('GET', '/auth/token');
    expectErrorBody(response, 401, '/auth/token');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('POST /auth/logout', () => {
  test('204, then the refresh token and its family are dead', async () => {
    const pair = await freshLogin(server, ADMIN.email, ADMIN.password);
    const rotated = (await refresh(pair.refreshToken)).body;
    const response = await logout(rotated.refreshToken);
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expectErrorBody(await refresh(rotated.refreshToken), 401);
    expectErrorBody(await logout(rotated.refreshToken), 401);
  });

  test('logout with a spent refresh token → 401 and its family is revoked', async () => {
    const pair = await freshLogin(server, ADMIN.email, ADMIN.password);
    const rotated = (await refresh(pair.refreshToken)).body;
    const response = await logout(pair.refreshToken);
    expect(expectErrorBody(response, 401, '/auth/logout').message).toContain('reused');
    expectErrorBody(await refresh(rotated.refreshToken), 401);
  });

  test('after logout, the access tokens of that sign-in are refused at once', async () => {
    const pair = await freshLogin(server, ADMIN.email, ADMIN.password);
    const other = await freshLogin(server, ADMIN.email, ADMIN.password);
    // Verified once, so the next request would take the fast path.
    expect((await me(pair.accessToken)).status).toBe(200);
    expect((await logout(pair.refreshToken)).status).toBe(204);
    const refused = expectErrorBody(await me(pair.accessToken), 401, '/auth/me');
    expect(refused.message).toBe('Access token revoked: its session was signed out');
    expectErrorBody(await server.request('GET', '/plants', { token: pair.accessToken }), 401);
    // Another sign-in of the same account goes on.
    expect((await me(other.accessToken)).status).toBe(200);
  });

  test('when reuse revokes a family, its access tokens are refused too, old and new', async () => {
    const first = await freshLogin(server, ADMIN.email, ADMIN.password);
    const second = (await refresh(first.refreshToken)).body;
    expect((await me(second.accessToken)).status).toBe(200);
    expectErrorBody(await refresh(first.refreshToken), 401);
    expectErrorBody(await me(first.accessToken), 401);
    expectErrorBody(await me(second.accessToken), 401);
  });

  test('a revocation made by another server on the same database is seen within seconds', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'plantdesk-family-'));
    const db = join(folder, 'plantdesk.db');
    const jwtSecret = 'a-shared-signing-secret-of-32-bytes-or-more';
    const clock = { ms: Date.parse('2026-06-21T10:00:00Z') };
    const now = () => new Date(clock.ms);
    const a = await TestServer.start({ db, jwtSecret, now });
    const b = await TestServer.start({ db, jwtSecret, now });
    try {
      const pair = (await a.login(ADMIN.email, ADMIN.password)).body;
      const meAt = (server: TestServer) =>
        server.request('GET', '/auth/me', { token: pair.accessToken });
      expect((await meAt(b)).status).toBe(200);
      expect((await a.request('POST', '/auth/logout', { token: pair.refreshToken })).status).toBe(
        204,
      );
      expectErrorBody(await meAt(a), 401);
      clock.ms += 5_001;
      expectErrorBody(await meAt(b), 401);
    } finally {
      await a.close();
      await b.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('logout needs a refresh token, not an access token', async () => {
    const pair = await freshLogin(server, ADMIN.email, ADMIN.password);
    expectErrorBody(await logout(pair.accessToken), 401, '/auth/logout');
    expect((await refresh(pair.refreshToken)).status).toBe(200);
  });
});

describe('GET /auth/me', () => {
  test.each(DEMO_ACCOUNTS.map((account) => ({ email: account.email, account })))(
    '$email: the demo role exactly',
    async ({ account }) => {
      const pair = await freshLogin(server, account.email, account.password);
      const response = await me(pair.accessToken);
      expect(response.status).toBe(200);
      const body = routes.currentUser.response.parse(response.body);
      expect(body.email).toBe(account.email);
      expect(body.displayName).toBe(account.displayName);
      expect(body.organizationName).toBe(DEMO_ORGANIZATIONS[account.organization]);
      expect(body.userUuid).toBe(decodeJwt(pair.accessToken).sub);
      expect(body.organizationUuid).toBe(decodeJwt(pair.accessToken).org);
      expect(new Set(body.permissions).size).toBe(body.permissions.length);
      expect([...body.permissions].sort()).toEqual([...account.permissions].sort());
    },
  );

  test('demo accounts of one organization share it; the outsider does not', async () => {
    const organizations = new Map<string, string>();
    for (const account of DEMO_ACCOUNTS) {
      const pair = await freshLogin(server, account.email, account.password);
      organizations.set(account.email, (await me(pair.accessToken)).body.organizationUuid);
    }
    const [admin, installer, manager, outsider] = DEMO_ACCOUNTS.map((a) =>
      organizations.get(a.email),
    );
    expect(installer).toBe(admin);
    expect(manager).toBe(admin);
    expect(outsider).not.toBe(admin);
  });
});

describe('bad access tokens', () => {
  test('a token signed with another secret → 401', async () => {
    const real = decodeJwt(await server.tokenFor('admin'));
    const forged = await new SignJWT({ typ: 'access', org: real.org, perms: real.perms })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('plantdesk')
      .setSubject(real.sub!)
      .setJti('forged')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(randomBytes(32));
    const error = expectErrorBody(await me(forged), 401, '/auth/me');
    expect(error.message).toBe('Invalid access token');
  });

  test('a token with a tampered payload → 401', async () => {
    const [header, , signature] = (await server.tokenFor('manager')).split('.');
    const admin = (await server.tokenFor('admin')).split('.')[1];
    expectErrorBody(await me([header, admin, signature].join('.')), 401);
  });

  test.each([
    ['Bearer'],
    ['Bearer '],
    ['Basic YWRtaW46YWRtaW4='],
    ['Token abc.def.ghi'],
    ['bearer-abc'],
    ['Bearer abc def'],
    ['Bearer a.b.c'],
    ['Bearer "quoted"'],
    ['Bearer \u00e9t\u00e9'],
  ])('Authorization: %s → 401', async (authorization) => {
    const response = await server.request('GET', '/plants', { headers: { authorization } });
    expectErrorBody(response, 401, '/plants');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  test('the scheme is case-insensitive', async () => {
    const token = await server.tokenFor('admin');
    const response = await server.request('GET', '/auth/me', {
      headers: { authorization: `bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('expiry (injected clock)', () => {
  let clocked: TestServer;
  const clock = { offsetMs: 0 };

  beforeAll(async () => {
    clocked = await TestServer.start({ now: () => new Date(Date.now() + clock.offsetMs) });
  });

  afterAll(async () => {
    await clocked?.close();
  });

  test('an access token works until it expires, then → 401 "expired"', async () => {
    clock.offsetMs = 0;
    const pair = await freshLogin(clocked, ADMIN.email, ADMIN.password);
    expect((await clocked.request('GET', '/auth/me', { token: pair.accessToken })).status).toBe(
      200,
    );
    clock.offsetMs = 898 * 1000; // iat is whole seconds: keep a margin below 900
    expect((await clocked.request('GET', '/auth/me', { token: pair.accessToken })).status).toBe(
      200,
    );
    clock.offsetMs = 901 * 1000;
    const error = expectErrorBody(
      await clocked.request('GET', '/auth/me', { token: pair.accessToken }),
      401,
    );
    expect(error.message).toBe('Access token expired');
    // The client's way out: refresh.
    const renewed = await clocked.request('GET', '/auth/token', { token: pair.refreshToken });
    expect(renewed.status).toBe(200);
    const again = await clocked.request('GET', '/auth/me', { token: renewed.body.accessToken });
    expect(again.status).toBe(200);
  });

  test('a refresh token expires after its lifetime', async () => {
    clock.offsetMs = 0;
    const pair = await freshLogin(clocked, ADMIN.email, ADMIN.password);
    clock.offsetMs = (30 * 24 * 60 * 60 + 1) * 1000;
    const error = expectErrorBody(
      await clocked.request('GET', '/auth/token', { token: pair.refreshToken }),
      401,
    );
    expect(error.message).toBe('Refresh token expired');
  });

  test('configured lifetimes are announced and applied', async () => {
    const short = await TestServer.start({ tokenLifetimes: { accessSeconds: 1 } });
    try {
      const response = await short.login(ADMIN.email, ADMIN.password);
      expect(response.body.expiresIn).toBe(1);
      const { iat, exp } = decodeJwt(response.body.accessToken);
      expect(exp! - iat!).toBe(1);
    } finally {
      await short.close();
    }
  });
});

describe('login rate limit', () => {
  let throttled: TestServer;

  beforeAll(async () => {
    throttled = await TestServer.start({ loginThrottle: { maxFailuresPerAccount: 3 } });
  });

  afterAll(async () => {
    await throttled?.close();
  });

  test('after 3 failures for one account → 429 with Retry-After, even with the right password', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expectErrorBody(await throttled.login(ADMIN.email, `wrong-${attempt}`), 401);
    }
    for (const password of ['wrong-again', ADMIN.password]) {
      const response = await throttled.login(ADMIN.email, password);
      const error = expectErrorBody(response, 429, '/auth/login');
      expect(error.error).toBe('Too Many Requests');
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(error.message).toContain(String(retryAfter));
    }
    // The e-mail's spelling does not matter.
    expectErrorBody(await throttled.login(ADMIN.email.toUpperCase(), ADMIN.password), 429);
  });

  test('another account still logs in from the same address', async () => {
    expect((await throttled.login(INSTALLER.email, INSTALLER.password)).status).toBe(200);
  });
});

describe('login rate limit under concurrency and floods', () => {
  /** A server whose password checks are counted. */
  async function countingServer(options: Parameters<typeof TestServer.start>[0] = {}) {
    const server = await TestServer.start(options);
    const passwords = server.server.context.passwords;
    const check = passwords.check.bind(passwords);
    const counter = { checks: 0 };
    passwords.check = async (...args) => {
      counter.checks += 1;
      return check(...args);
    };
    return { server, counter };
  }

  test('100 wrong passwords sent at once: only the allowed number are checked, the rest 429', async () => {
    const { server, counter } = await countingServer({
      loginThrottle: { maxFailuresPerAccount: 10 },
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) => server.login(ADMIN.email, `guess-${index}`)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(90);
      expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
      for (const answer of answers) expectErrorBody(answer, answer.status, '/auth/login');
      expect(counter.checks).toBeLessThanOrEqual(10);
      // Still locked for the right password afterwards.
      expectErrorBody(await server.login(ADMIN.email, ADMIN.password), 429);
    } finally {
      await server.close();
    }
  });

  test('a flood of unknown e-mails from one address is refused before any hashing', async () => {
    const { server, counter } = await countingServer({
      loginThrottle: { maxAttemptsPerAddress: 20, addressWindowMs: 60_000 },
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, index) => server.login(`nobody${index}@nowhere.test`, 'x')),
      );
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(40);
      expect(expectErrorBody(refused[0]!, 429).message).toMatch(
        /^Too many logins from this address; try again in \d+ seconds$/,
      );
      expect(counter.checks).toBe(20);
    } finally {
      await server.close();
    }
  });

  test('without a trusted proxy, X-Forwarded-For cannot make an address look new', async () => {
    const server = await TestServer.start({ loginThrottle: { maxFailuresPerAccount: 2 } });
    try {
      for (const forwarded of ['203.0.113.1', '203.0.113.2']) {
        await server.request('POST', '/auth/login', {
          body: { email: ADMIN.email, password: 'wrong' },
          headers: { 'x-forwarded-for': forwarded },
        });
      }
      const third = await server.request('POST', '/auth/login', {
        body: { email: ADMIN.email, password: ADMIN.password },
        headers: { 'x-forwarded-for': '203.0.113.3' },
      });
      expectErrorBody(third, 429);
    } finally {
      await server.close();
    }
  });

  test('behind a trusted proxy, each client address is counted on its own', async () => {
    const server = await TestServer.start({
      trustProxy: '127.0.0.1',
      loginThrottle: { maxFailuresPerAccount: 2 },
    });
    const from = (address: string, password: string) =>
      server.request('POST', '/auth/login', {
        body: { email: ADMIN.email, password },
        headers: { 'x-forwarded-for': address },
      });
    try {
      expectErrorBody(await from('203.0.113.1', 'wrong'), 401);
      expectErrorBody(await from('203.0.113.1', 'wrong'), 401);
      expectErrorBody(await from('203.0.113.1', ADMIN.password), 429);
      expect((await from('203.0.113.2', ADMIN.password)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('login timing', () => {
  let real: TestServer;

  beforeAll(async () => {
    real = await TestServer.start({
      scryptCost: DEFAULT_SCRYPT_COST,
      loginThrottle: { maxFailuresPerAccount: 1000 },
    });
  });

  afterAll(async () => {
    await real?.close();
  });

  async function timedLogin(email: string, password: string): Promise<number> {
    const started = performance.now();
    const response = await real.login(email, password);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(401);
    return elapsed;
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };

  test('an unknown account takes as long as a wrong password (medians within 30%)', async () => {
    const rounds = 21;
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Warm up both paths (the decoy hash is made on first use).
    await timedLogin('warmup@nowhere.test', 'x');
    await timedLogin(ADMIN.email, 'x');
    for (let round = 0; round < rounds; round += 1) {
      // Alternate the order so drift in machine load hits both sides alike.
      const pair = [
        async () => unknown.push(await timedLogin(`nobody${round}@nowhere.test`, 'guess')),
        async () => wrong.push(await timedLogin(ADMIN.email, `guess-${round}`)),
      ];
      if (round % 2) pair.reverse();
      for (const run of pair) await run();
    }
    const [unknownMedian, wrongMedian] = [median(unknown), median(wrong)];
    const ratio = Math.abs(unknownMedian - wrongMedian) / Math.max(unknownMedian, wrongMedian);
    expect(
      ratio,
      `median unknown ${unknownMedian.toFixed(1)} ms, wrong password ${wrongMedian.toFixed(1)} ms`,
    ).toBeLessThan(0.3);
    // The real cost is in play: a login takes at least a few milliseconds of scrypt.
    expect(wrongMedian).toBeGreaterThan(5);
  }, 20_000);
});
