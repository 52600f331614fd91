import { Writable } from 'node:stream';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type {
  Environment,
  EventName,
  Events,
  SessionState,
} from '../../../electron/ipc/contract.ts';
import {
  createApiClient,
  type ApiClient,
  type Credentials,
} from '../../../electron/services/api/apiClient.ts';
import { credentialOrigin } from '../../../electron/ipc/addresses.ts';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import type { Logger } from '../../../electron/services/logger.ts';
import { secretKeys, type SecretStore } from '../../../electron/services/secrets.ts';
import { createSessionManager, type SessionManager } from '../../../electron/services/session.ts';
import { DEMO_ACCOUNTS, TestServer } from '../../support/testServer.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.email.startsWith('admin@'))!;
const MANAGER = DEMO_ACCOUNTS.find((account) => account.email.startsWith('manager@'))!;
const ACCESS_SECONDS = 60;

/** The server's request lines (method, path, status), as its logger writes them. */
class RequestLog extends Writable {
  readonly entries: { method: string; path: string; status: number }[] = [];

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    for (const line of String(chunk).split('\n')) {
      if (line.trim() === '') continue;
      const entry = JSON.parse(line) as Record<string, any>;
      if (entry.msg === 'request') this.entries.push(entry as any);
    }
    done();
  }

  count(method: string, path: string, status?: number): number {
    return this.entries.filter(
      (entry) =>
        entry.method === method &&
        entry.path === path &&
        (status === undefined || entry.status === status),
    ).length;
  }

  /** A line is written once its response has gone out: give the last ones a moment. */
  async settled(): Promise<this> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return this;
  }
}

/** A server whose clock the test can move forward, to age tokens without waiting. */
async function startServer(accessSeconds = ACCESS_SECONDS) {
  const log = new RequestLog();
  const clock = { offsetMs: 0 };
  const server = await TestServer.start({
    logger: { level: 'info', stream: log },
    tokenLifetimes: { accessSeconds, refreshSeconds: 3600 },
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  return { server, log, clock };
}
type Served = Awaited<ReturnType<typeof startServer>>;

function environmentOf(id: string, server: TestServer | string): Environment {
  return {
    id,
    name: `Env ${id}`,
    kind: 'sandbox',
    baseUrl: typeof server === 'string' ? server : server.url,
    source: 'user',
  };
}

/** The keychain entry of an environment's refresh token, bound to the server's origin. */
function refreshKey(id: string, server: TestServer, email: string): string {
  return secretKeys.refreshToken(id, credentialOrigin(environmentOf(id, server)), email);
}

/** A keychain stand-in that works like the real one (the real one: test/keychain). */
function keychainDouble(): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    available: true,
    entries,
    async get(key) {
      return entries.get(key);
    },
    async set(key, value) {
      entries.set(key, value);
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}

/**
 * Everything that could leak: every token the server handed out (seen by wrapping the client the
 * manager is given) and the passwords typed. Checked against states, events and log lines.
 */
const secretsSeen = new Set<string>([ADMIN.password, MANAGER.password]);
const everythingShown: unknown[] = [];

interface Harness {
  manager: SessionManager;
  events: { name: EventName; payload: Events[EventName] }[];
  clock: { offsetMs: number };
  /** Refresh tokens the manager sent to GET /auth/token, in order. */
  refreshTokensSent: string[];
  /** Refresh tokens the server handed out (login and refresh), in order; the last is current. */
  refreshTokensIssued: string[];
  expiredEvents(): Events['session.expired'][];
}

const managers: SessionManager[] = [];

function harness(store: SecretStore = keychainDouble()): Harness {
  const events: Harness['events'] = [];
  const clock = { offsetMs: 0 };
  const refreshTokensSent: string[] = [];
  const refreshTokensIssued: string[] = [];
  const log: Logger = {
    info: (message, fields) => everythingShown.push(message, fields),
    warn: (message, fields) => everythingShown.push(message, fields),
    error: (message, fields) => everythingShown.push(message, fields),
  };
  const manager = createSessionManager({
    secrets: store,
    emit: (name, payload) => {
      events.push({ name, payload });
      everythingShown.push(payload);
    },
    createClient: (options) => watched(options, { refreshTokensSent, refreshTokensIssued }),
    log,
    now: () => Date.now() + clock.offsetMs,
  });
  managers.push(manager);
  return {
    manager,
    events,
    clock,
    refreshTokensSent,
    refreshTokensIssued,
    expiredEvents: () =>
      events
        .filter((event) => event.name === 'session.expired')
        .map((event) => event.payload as Events['session.expired']),
  };
}

/** The real client, with its token traffic noted for the assertions. */
function watched(
  options: { baseUrl: () => string; credentials: Credentials },
  seen: Pick<Harness, 'refreshTokensSent' | 'refreshTokensIssued'>,
): ApiClient {
  const client = createApiClient({
    ...options,
    // Failures to reach a server should surface at once here, not after back-off.
    retry: { attempts: 0, baseDelayMs: 1, maxDelayMs: 1 },
    timeoutMs: 5_000,
  });
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'login' && property !== 'refreshToken') return value;
      return async (input: unknown, callOptions?: { token?: string }) => {
        if (property === 'refreshToken' && callOptions?.token)
          seen.refreshTokensSent.push(callOptions.token);
        const pair = await value(input, callOptions);
        seen.refreshTokensIssued.push(pair.refreshToken);
        secretsSeen.add(pair.accessToken);
        secretsSeen.add(pair.refreshToken);
        return pair;
      };
    },
  });
}

function shown(state: SessionState): SessionState {
  everythingShown.push(state);
  return state;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

function signIn(manager: SessionManager, account = ADMIN, remember = false) {
  return manager.signIn({ email: account.email, password: account.password, remember });
}

let main: Served;

beforeAll(async () => {
  main = await startServer();
});

afterEach(() => {
  for (const manager of managers.splice(0)) manager.dispose();
  main.clock.offsetMs = 0;
});

afterAll(async () => {
  await main?.server.close();
  // The one check that needs every test's output: no token and no password ever left the layer.
  const text = JSON.stringify(everythingShown);
  expect(everythingShown.length).toBeGreaterThan(20);
  for (const secret of secretsSeen) expect(text).not.toContain(secret);
});

describe('sign in, current user, sign out', () => {
  test('signs in, reads /auth/me, calls the API, and sign-out revokes the refresh token', async () => {
    const { manager, events, refreshTokensSent, refreshTokensIssued } = harness();
    const environment = environmentOf('main', main.server);
    expect(shown(await manager.activate(environment))).toEqual({
      environmentId: 'main',
      status: 'signedOut',
    });

    const state = shown(await signIn(manager));
    expect(state.status).toBe('signedIn');
    expect(state.environmentId).toBe('main');
    expect(state.user?.email).toBe(ADMIN.email);
    expect(state.user?.permissions.length).toBeGreaterThan(0);
    expect(state.rememberedEmail).toBeUndefined();
    expect(manager.state()).toEqual(state);
    expect(events.at(-1)).toEqual({ name: 'session.changed', payload: state });

    const plants = await manager.api().listPlants({ query: { search: 'Demo Home' } });
    expect(plants.content.map((plant) => plant.name)).toEqual(['Demo Home']);
    expect((await manager.refreshUser()).user?.email).toBe(ADMIN.email);

    // A fresh access token is used as is: no refresh.
    expect(refreshTokensSent).toHaveLength(0);

    const signedOut = shown(await manager.signOut());
    expect(signedOut).toEqual({ environmentId: 'main', status: 'signedOut' });
    expect(events.at(-1)).toEqual({ name: 'session.changed', payload: signedOut });
    expect((await main.log.settled()).count('POST', '/auth/logout', 204)).toBeGreaterThan(0);

    const revoked = await main.server.request('GET', '/auth/token', {
      token: refreshTokensIssued.at(-1),
    });
    expect(revoked.status).toBe(401);

    const afterSignOut = await rejection(manager.api().listPlants({ query: {} }));
    expect(afterSignOut.kind).toBe('signedOut');
  });

  test('sign-out after a rotation revokes the newest refresh token', async () => {
    const { manager, clock, refreshTokensSent, refreshTokensIssued } = harness();
    await manager.activate(environmentOf('main', main.server));
    await signIn(manager);
    // The session's clock says the access token is due: the next call refreshes first.
    clock.offsetMs = ACCESS_SECONDS * 1000;
    await manager.api().currentUser({});
    expect(refreshTokensSent).toEqual([refreshTokensIssued[0]]);
    expect(refreshTokensIssued).toHaveLength(2);
    await manager.signOut();
    const reused = await main.server.request('GET', '/auth/token', {
      token: refreshTokensIssued[1],
    });
    expect(reused.status).toBe(401);
  });

  test('a wrong password is the server 401 with its message, and nothing changes', async () => {
    const { manager, events } = harness();
    await manager.activate(environmentOf('main', main.server));
    const eventsBefore = events.length;
    const error = await rejection(
      manager.signIn({ email: ADMIN.email, password: 'not-the-password', remember: true }),
    );
    expect(error.kind).toBe('api');
    expect(error.status).toBe(401);
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message).not.toContain('not-the-password');
    secretsSeen.add('not-the-password');
    expect(manager.state().status).toBe('signedOut');
    expect(events.length).toBe(eventsBefore);
  });

  test('signed out, calls reject with kind signedOut', async () => {
    const { manager } = harness();
    expect((await rejection(manager.api().currentUser({}))).kind).toBe('signedOut');
    await manager.activate(environmentOf('main', main.server));
    expect((await rejection(manager.api().currentUser({}))).kind).toBe('signedOut');
    expect((await rejection(manager.api().call('listPlants', {}))).kind).toBe('signedOut');
  });
});

describe('remembered sessions', () => {
  test('remember keeps the e-mail and refresh token; a new manager restores the session', async () => {
    const store = keychainDouble();
    const first = harness(store);
    const environment = environmentOf('main', main.server);
    await first.manager.activate(environment);
    const signedIn = await signIn(first.manager, ADMIN, true);
    expect(signedIn.rememberedEmail).toBe(ADMIN.email);
    expect(store.entries.get(secretKeys.rememberedEmail('main'))).toBe(ADMIN.email);
    const storedKey = refreshKey('main', main.server, ADMIN.email);
    expect(store.entries.get(storedKey)).toBe(first.refreshTokensIssued.at(-1));
    expect([...store.entries.keys()].sort()).toEqual(
      [secretKeys.rememberedEmail('main'), storedKey].sort(),
    );
    first.manager.dispose();

    // The next launch.
    const tokenRequestsBefore = main.log.count('GET', '/auth/token');
    const second = harness(store);
    const restored = shown(await second.manager.activate(environment));
    expect(restored.status).toBe('signedIn');
    expect(restored.user?.email).toBe(ADMIN.email);
    expect(restored.rememberedEmail).toBe(ADMIN.email);
    expect(second.events.at(-1)).toEqual({ name: 'session.changed', payload: restored });
    expect((await main.log.settled()).count('GET', '/auth/token') - tokenRequestsBefore).toBe(1);
    // The stored token rotated with it (the old one is spent).
    expect(store.entries.get(storedKey)).toBe(second.refreshTokensIssued.at(-1));
    expect(store.entries.get(storedKey)).not.toBe(first.refreshTokensIssued.at(-1));
    expect((await second.manager.api().currentUser({})).email).toBe(ADMIN.email);

    // Signing out forgets the token and keeps the e-mail for the sign-in form.
    const signedOut = await second.manager.signOut();
    expect(signedOut).toEqual({
      environmentId: 'main',
      status: 'signedOut',
      rememberedEmail: ADMIN.email,
    });
    expect(store.entries.has(storedKey)).toBe(false);
    const third = harness(store);
    expect(await third.manager.activate(environment)).toEqual(signedOut);
  });

  test('remember=false forgets what was remembered for that environment', async () => {
    const store = keychainDouble();
    const { manager } = harness(store);
    await manager.activate(environmentOf('main', main.server));
    await signIn(manager, ADMIN, true);
    expect(store.entries.size).toBe(2);
    const state = await signIn(manager, MANAGER, false);
    expect(state.user?.email).toBe(MANAGER.email);
    expect(state.rememberedEmail).toBeUndefined();
    expect(store.entries.size).toBe(0);
  });

  test('a remembered token the server refuses leaves the e-mail and asks for the password', async () => {
    const store = keychainDouble();
    const first = harness(store);
    const environment = environmentOf('main', main.server);
    await first.manager.activate(environment);
    await signIn(first.manager, ADMIN, true);
    first.manager.dispose();
    // Another device reused the token meanwhile, say: the family is revoked.
    await main.server.request('POST', '/auth/logout', {
      token: store.entries.get(refreshKey('main', main.server, ADMIN.email)),
    });

    const second = harness(store);
    expect(await second.manager.activate(environment)).toEqual({
      environmentId: 'main',
      status: 'signedOut',
      rememberedEmail: ADMIN.email,
    });
    expect(store.entries.has(refreshKey('main', main.server, ADMIN.email))).toBe(false);
  });

  test('a remembered session waits for the Local sandbox and is restored when it runs', async () => {
    const store = keychainDouble();
    const first = harness(store);
    const local: Environment = { ...environmentOf('local', main.server), kind: 'local' };
    await first.manager.activate(local);
    await signIn(first.manager, ADMIN, true);
    first.manager.dispose();

    const second = harness(store);
    const notRunning = { ...local, baseUrl: '' };
    expect(await second.manager.activate(notRunning)).toEqual({
      environmentId: 'local',
      status: 'signedOut',
      rememberedEmail: ADMIN.email,
    });
    expect(second.refreshTokensSent).toHaveLength(0);

    await second.manager.environmentChanged(local);
    await expect.poll(() => second.manager.state().status).toBe('signedIn');
    expect(second.events.at(-1)?.payload).toMatchObject({ status: 'signedIn' });
    expect((await second.manager.api().currentUser({})).email).toBe(ADMIN.email);
  });

  test('without a usable keychain nothing is stored; the e-mail is remembered for this run only', async () => {
    const store = keychainDouble();
    const unavailable: SecretStore = { ...store, available: false };
    const { manager } = harness(unavailable);
    await manager.activate(environmentOf('main', main.server));
    const state = await signIn(manager, ADMIN, true);
    expect(state.rememberedEmail).toBe(ADMIN.email);
    expect(store.entries.size).toBe(0);
    expect((await manager.signOut()).rememberedEmail).toBe(ADMIN.email);
  });

  test('a keychain that fails costs the remembering, never the sign-in', async () => {
    const failing: SecretStore = {
      available: true,
      get: () => Promise.reject(new Error('unlock prompt was dismissed')),
      set: () => Promise.reject(new Error('unlock prompt was dismissed')),
      delete: () => Promise.reject(new Error('unlock prompt was dismissed')),
    };
    const { manager } = harness(failing);
    await manager.activate(environmentOf('main', main.server));
    expect((await signIn(manager, ADMIN, true)).status).toBe('signedIn');
    expect((await manager.signOut()).status).toBe('signedOut');
  });
});

describe('refresh', () => {
  test('a 401 on an expired access token refreshes once and retries', async () => {
    const { manager } = harness();
    await manager.activate(environmentOf('main', main.server));
    await signIn(manager);
    const before = { token: main.log.count('GET', '/auth/token'), denied: deniedPlants() };
    // The server's clock has moved past the access token's end; the session's has not.
    main.clock.offsetMs = (ACCESS_SECONDS + 5) * 1000;
    const plants = await manager.api().listPlants({ query: {} });
    expect(plants.content.length).toBeGreaterThan(0);
    await main.log.settled();
    expect(main.log.count('GET', '/auth/token') - before.token).toBe(1);
    expect(deniedPlants() - before.denied).toBe(1);
  });

  test('THE RACE: 20 concurrent calls meeting an expired token cause exactly one refresh', async () => {
    const { manager, refreshTokensSent } = harness();
    await manager.activate(environmentOf('main', main.server));
    await signIn(manager);
    const before = { token: main.log.count('GET', '/auth/token'), denied: deniedPlants() };
    main.clock.offsetMs = (ACCESS_SECONDS + 5) * 1000;

    const results = await Promise.all(
      Array.from({ length: 20 }, () => manager.api().listPlants({ query: {} })),
    );
    expect(results.every((page) => page.content.length > 0)).toBe(true);
    await main.log.settled();
    expect(main.log.count('GET', '/auth/token') - before.token).toBe(1);
    expect(refreshTokensSent).toHaveLength(1);
    // All 20 met the expired token (the server said 401 to each) and then succeeded.
    expect(deniedPlants() - before.denied).toBe(20);
    expect(manager.state().status).toBe('signedIn');
  });

  test('20 concurrent calls when the session itself sees the token due: one refresh, no 401', async () => {
    const { manager, clock, refreshTokensSent } = harness();
    await manager.activate(environmentOf('main', main.server));
    await signIn(manager);
    const denied = deniedPlants();
    clock.offsetMs = ACCESS_SECONDS * 1000;
    main.clock.offsetMs = ACCESS_SECONDS * 1000;
    await Promise.all(Array.from({ length: 20 }, () => manager.api().listPlants({ query: {} })));
    expect(refreshTokensSent).toHaveLength(1);
    expect(deniedPlants() - denied).toBe(0);
  });

  test('a refused refresh signs out and emits session.expired once', async () => {
    const store = keychainDouble();
    const { manager, events, clock, refreshTokensSent, refreshTokensIssued, expiredEvents } =
      harness(store);
    await manager.activate(environmentOf('main', main.server));
    await signIn(manager, ADMIN, true);
    // Rotate once, then replay the spent token as a thief would: the server revokes the family.
    clock.offsetMs = ACCESS_SECONDS * 1000;
    main.clock.offsetMs = ACCESS_SECONDS * 1000;
    await manager.api().currentUser({});
    expect(refreshTokensIssued).toHaveLength(2);
    const replay = await main.server.request('GET', '/auth/token', {
      token: refreshTokensSent[0],
    });
    expect(replay.status).toBe(401);

    // Both clocks move past the new access token: 20 calls all need a refresh, which is refused.
    clock.offsetMs += (ACCESS_SECONDS + 5) * 1000;
    main.clock.offsetMs += (ACCESS_SECONDS + 5) * 1000;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => manager.api().listPlants({ query: {} })),
    );
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    for (const outcome of outcomes) {
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(ApiError);
      expect(['signedOut', 'api']).toContain((reason as ApiError).kind);
    }
    expect(refreshTokensSent).toHaveLength(2);

    expect(expiredEvents()).toHaveLength(1);
    const expired = expiredEvents()[0]!;
    expect(expired.environmentId).toBe('main');
    expect(expired.email).toBe(ADMIN.email);
    expect(expired.message).toMatch(/sign in again/i);
    everythingShown.push(...events.map((event) => event.payload));
    expect(manager.state()).toEqual({
      environmentId: 'main',
      status: 'signedOut',
      rememberedEmail: ADMIN.email,
    });
    const changed = events.filter((event) => event.name === 'session.changed');
    expect(changed.at(-1)?.payload).toMatchObject({ status: 'signedOut' });
    // The dead token is gone from the keychain; the e-mail stays for the password prompt.
    expect(store.entries.has(refreshKey('main', main.server, ADMIN.email))).toBe(false);
    expect(store.entries.get(secretKeys.rememberedEmail('main'))).toBe(ADMIN.email);
    // Later calls: signed out, and no second event.
    expect((await rejection(manager.api().currentUser({}))).kind).toBe('signedOut');
    expect(expiredEvents()).toHaveLength(1);
  });

  test('a refresh that cannot reach the server is not an expiry', async () => {
    const { manager, clock, expiredEvents } = harness();
    // The Local sandbox: its address changes when it restarts, its session stays.
    const environment: Environment = { ...environmentOf('main', main.server), kind: 'local' };
    await manager.activate(environment);
    await signIn(manager);
    // The server goes away (the address now answers nothing) while the token is due.
    await manager.environmentChanged({ ...environment, baseUrl: 'http://127.0.0.1:9' });
    clock.offsetMs = (ACCESS_SECONDS + 5) * 1000;
    main.clock.offsetMs = (ACCESS_SECONDS + 5) * 1000;
    const error = await rejection(manager.api().currentUser({}));
    expect(error.kind).toBe('network');
    expect(manager.state().status).toBe('signedIn');
    expect(expiredEvents()).toHaveLength(0);

    // It comes back: the same session refreshes and carries on.
    await manager.environmentChanged(environment);
    expect((await manager.api().currentUser({})).email).toBe(ADMIN.email);
    expect(manager.state().status).toBe('signedIn');
  });

  test('the access token is renewed ahead of its end without any call', async () => {
    const shortLived = await startServer(2);
    try {
      const { manager, refreshTokensSent } = harness();
      await manager.activate(environmentOf('short', shortLived.server));
      await signIn(manager);
      // Lifetime 2 s, renewed a fifth of it (0.4 s) before the end.
      await expect
        .poll(() => refreshTokensSent.length, { timeout: 4_000, interval: 100 })
        .toBeGreaterThanOrEqual(1);
      await manager.api().currentUser({});
      await shortLived.log.settled();
      expect(shortLived.log.count('GET', '/auth/me', 401)).toBe(0);
    } finally {
      for (const manager of managers.splice(0)) manager.dispose();
      await shortLived.server.close();
    }
  });
});

describe('environments', () => {
  test('each environment keeps its own session, in memory and in the keychain', async () => {
    const other = await startServer();
    try {
      const store = keychainDouble();
      const first = harness(store);
      const one = environmentOf('one', main.server);
      const two = environmentOf('two', other.server);

      await first.manager.activate(one);
      await signIn(first.manager, ADMIN, true);
      expect(await first.manager.activate(two)).toEqual({
        environmentId: 'two',
        status: 'signedOut',
      });
      expect((await rejection(first.manager.api().currentUser({}))).kind).toBe('signedOut');
      await signIn(first.manager, MANAGER, true);
      expect((await first.manager.api().currentUser({})).email).toBe(MANAGER.email);

      // Back to the first: still signed in as before, without a new login or refresh.
      const logins = main.log.count('POST', '/auth/login');
      const back = await first.manager.activate(one);
      expect(back.status).toBe('signedIn');
      expect(back.user?.email).toBe(ADMIN.email);
      expect((await first.manager.api().currentUser({})).email).toBe(ADMIN.email);
      expect(main.log.count('POST', '/auth/login')).toBe(logins);
      expect(first.refreshTokensSent).toHaveLength(0);

      expect(store.entries.get(secretKeys.rememberedEmail('one'))).toBe(ADMIN.email);
      expect(store.entries.get(secretKeys.rememberedEmail('two'))).toBe(MANAGER.email);
      expect(store.entries.has(refreshKey('one', main.server, ADMIN.email))).toBe(true);
      expect(store.entries.has(refreshKey('two', other.server, MANAGER.email))).toBe(true);

      // Signing out of one leaves the other's stored session alone; the next launch restores it.
      await first.manager.signOut();
      first.manager.dispose();
      const second = harness(store);
      expect((await second.manager.activate(one)).status).toBe('signedOut');
      const restored = await second.manager.activate(two);
      expect(restored.status).toBe('signedIn');
      expect(restored.user?.email).toBe(MANAGER.email);
      expect((await second.manager.api().currentUser({})).email).toBe(MANAGER.email);
      expect((await other.log.settled()).count('GET', '/auth/me')).toBeGreaterThan(0);
    } finally {
      await other.server.close();
    }
  });
});

function deniedPlants(): number {
  return main.log.count('GET', '/plants', 401);
}

describe('credentials bound to the server that issued them', () => {
  /** A server at another address that notes every request's credentials and body. */
  async function stranger() {
    const seen: { authorization?: string; body: string; url: string }[] = [];
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ authorization: request.headers.authorization, body, url: request.url ?? '' });
        response.writeHead(503).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return {
      url,
      seen,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  const tokenEntries = (store: { entries: Map<string, string> }, id: string) =>
    [...store.entries.keys()].filter((key) => key.startsWith(`refreshToken/${id}/`));

  test('an edited address signs out, revokes at the old server and sends nothing to the new one', async () => {
    const thief = await stranger();
    try {
      const store = keychainDouble();
      const { manager, refreshTokensIssued, expiredEvents } = harness(store);
      const environment = environmentOf('main', main.server);
      await manager.activate(environment);
      await signIn(manager, ADMIN, true);
      const issued = refreshTokensIssued.at(-1)!;
      expect(tokenEntries(store, 'main')).toHaveLength(1);

      await manager.environmentChanged({ ...environment, baseUrl: thief.url });

      expect(manager.state()).toEqual({ environmentId: 'main', status: 'signedOut' });
      expect(expiredEvents().at(-1)?.message).toBe(
        `Env main now points to ${thief.url}: sign in there to continue. You were signed out of the previous address.`,
      );
      expect(tokenEntries(store, 'main')).toEqual([]);
      expect(store.entries.has(secretKeys.rememberedEmail('main'))).toBe(false);
      // Revoked where it was issued: the old server no longer takes it.
      const reused = await main.server.request('GET', '/auth/token', { token: issued });
      expect(reused.status).toBe(401);
      // Calls now fail as signed out, and the new address has seen no credential at all.
      expect((await rejection(manager.api().currentUser({}))).kind).toBe('signedOut');
      expect(thief.seen).toEqual([]);
    } finally {
      await thief.close();
    }
  });

  test('a remembered token is never sent to the address an environment has at the next launch', async () => {
    const thief = await stranger();
    try {
      const store = keychainDouble();
      const first = harness(store);
      const environment = environmentOf('main', main.server);
      await first.manager.activate(environment);
      await signIn(first.manager, ADMIN, true);
      first.manager.dispose();

      // environments.json edited while the app was closed.
      const second = harness(store);
      const state = await second.manager.activate({ ...environment, baseUrl: thief.url });
      expect(state.status).toBe('signedOut');
      expect(second.refreshTokensSent).toEqual([]);
      expect(thief.seen).toEqual([]);
    } finally {
      await thief.close();
    }
  });

  test('removing an environment revokes its session and deletes its keychain entries', async () => {
    const store = keychainDouble();
    const { manager, refreshTokensIssued } = harness(store);
    const environment = environmentOf('gone', main.server);
    await manager.activate(environment);
    await signIn(manager, ADMIN, true);
    const issued = refreshTokensIssued.at(-1)!;

    await manager.forgetEnvironment(environment);

    expect(tokenEntries(store, 'gone')).toEqual([]);
    expect(store.entries.has(secretKeys.rememberedEmail('gone'))).toBe(false);
    expect((await main.server.request('GET', '/auth/token', { token: issued })).status).toBe(401);
  });

  test('the Local sandbox keeps its session when it comes back on another port', async () => {
    const store = keychainDouble();
    const { manager } = harness(store);
    const local: Environment = { ...environmentOf('local', main.server), kind: 'local' };
    await manager.activate(local);
    await signIn(manager, ADMIN, true);
    await manager.environmentChanged({ ...local, baseUrl: '' });
    await manager.environmentChanged(local);
    expect(manager.state().status).toBe('signedIn');
    expect((await manager.api().currentUser({})).email).toBe(ADMIN.email);
  });
});
