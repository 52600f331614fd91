import { describe, expect, test } from 'vitest';
import type { Environment } from '../../../electron/ipc/contract.ts';
import type { ApiClient, Credentials } from '../../../electron/services/api/apiClient.ts';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import { secretKeys, type SecretStore } from '../../../electron/services/secrets.ts';
import { createSessionManager } from '../../../electron/services/session.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/**
 * Orderings the real server cannot be made to produce on demand: a fake client whose answers
 * the test releases one by one.
 */

const environment: Environment = {
  id: 'env',
  name: 'Env',
  kind: 'sandbox',
  baseUrl: 'http://server.test',
  source: 'user',
};
const EMAIL = 'admin@plantdesk.test';
const user = {
  userUuid: '00000000-0000-4000-8000-000000000001',
  email: EMAIL,
  displayName: 'Admin',
  organizationUuid: '00000000-0000-4000-8000-000000000002',
  organizationName: 'Org',
  permissions: ['plants:read'],
};

function pair(n: number) {
  return {
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    tokenType: 'Bearer' as const,
    expiresIn: 900,
    refreshExpiresIn: 3600,
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function keychainDouble(initial: Record<string, string> = {}) {
  const entries = new Map(Object.entries(initial));
  const store: SecretStore = {
    available: true,
    get: async (key) => entries.get(key),
    set: async (key, value) => void entries.set(key, value),
    delete: async (key) => void entries.delete(key),
  };
  return { store, entries };
}

function setup(store: SecretStore, locale: AppLocale = 'en') {
  const events: unknown[] = [];
  const calls: { route: string; token?: string }[] = [];
  const pending = {
    refresh: [] as ReturnType<typeof deferred<ReturnType<typeof pair>>>[],
  };
  let credentials!: Credentials;
  let issued = 1;
  const client = {
    login: async () => {
      calls.push({ route: 'login' });
      return pair(issued++);
    },
    refreshToken: (_input: unknown, options: { token: string }) => {
      calls.push({ route: 'refreshToken', token: options.token });
      const answer = deferred<ReturnType<typeof pair>>();
      pending.refresh.push(answer);
      return answer.promise;
    },
    logout: async (_input: unknown, options: { token: string }) => {
      calls.push({ route: 'logout', token: options.token });
    },
    currentUser: async () => {
      calls.push({ route: 'currentUser' });
      return user;
    },
  };
  const manager = createSessionManager({
    secrets: store,
    emit: ((event: string, payload: unknown) => events.push([event, payload])) as never,
    t: () => createTranslator(locale),
    createClient: (options) => {
      credentials = options.credentials;
      return client as unknown as ApiClient;
    },
  });
  return {
    manager,
    calls,
    pending,
    events,
    credentials: () => credentials,
    next: () => issued++,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('session orderings', () => {
  test('sign-out during a refresh revokes the newest token and stores nothing afterwards', async () => {
    const { store, entries } = keychainDouble();
    const { manager, calls, pending, credentials, next } = setup(store);
    await manager.activate(environment);
    await manager.signIn({ email: EMAIL, password: 'pw', remember: true });
    const key = secretKeys.refreshToken('env', 'http://server.test', EMAIL);
    expect(entries.get(key)).toBe('refresh-1');

    const renewal = credentials().renewAfter401('access-1');
    await tick();
    const signingOut = manager.signOut();
    pending.refresh[0]!.resolve(pair(next()));
    expect(await renewal).toBe(false);
    expect((await signingOut).status).toBe('signedOut');

    expect(entries.has(key)).toBe(false);
    expect(calls.filter((call) => call.route === 'logout')).toEqual([
      { route: 'logout', token: 'refresh-2' },
    ]);
    expect(await credentials().token('access', 'http://server.test/auth/me')).toBeUndefined();
  });

  test('a sign-in while a remembered session is being restored wins; the restored one is revoked', async () => {
    const { store, entries } = keychainDouble({
      [secretKeys.rememberedEmail('env')]: EMAIL,
      [secretKeys.refreshToken('env', 'http://server.test', EMAIL)]: 'stored',
    });
    const { manager, calls, pending, next } = setup(store);
    const activating = manager.activate(environment);
    await tick();
    expect(calls).toEqual([{ route: 'refreshToken', token: 'stored' }]);

    const signedIn = await manager.signIn({ email: EMAIL, password: 'pw', remember: true });
    expect(signedIn.status).toBe('signedIn');
    const restoredPair = pair(next());
    pending.refresh[0]!.resolve(restoredPair);
    expect((await activating).status).toBe('signedIn');
    await tick();

    expect(calls.filter((call) => call.route === 'logout')).toEqual([
      { route: 'logout', token: restoredPair.refreshToken },
    ]);
    // The keychain holds the sign-in's token, not the restored one.
    expect(entries.get(secretKeys.refreshToken('env', 'http://server.test', EMAIL))).toBe(
      'refresh-1',
    );
  });

  test('a 401 for a token already replaced retries without another refresh', async () => {
    const { store } = keychainDouble();
    const { manager, calls, pending, credentials, next } = setup(store);
    await manager.activate(environment);
    await manager.signIn({ email: EMAIL, password: 'pw', remember: false });

    const first = credentials().renewAfter401('access-1');
    await tick();
    pending.refresh[0]!.resolve(pair(next()));
    expect(await first).toBe(true);
    // A slow call that was sent with the old token comes back 401 now.
    expect(await credentials().renewAfter401('access-1')).toBe(true);
    expect(await credentials().token('access', 'http://server.test/auth/me')).toBe('access-2');
    expect(calls.filter((call) => call.route === 'refreshToken')).toHaveLength(1);
  });

  test('a refresh that fails for want of the server throws and keeps the session', async () => {
    const { store } = keychainDouble();
    const { manager, pending, credentials } = setup(store);
    await manager.activate(environment);
    await manager.signIn({ email: EMAIL, password: 'pw', remember: false });
    const renewal = credentials().renewAfter401('access-1');
    await tick();
    pending.refresh[0]!.reject(new ApiError('network', 'Could not reach server.test'));
    await expect(renewal).rejects.toMatchObject({ kind: 'network' });
    expect(manager.state().status).toBe('signedIn');
  });

  test('an ended session is announced in the user’s language, the server’s reason kept as it is', async () => {
    const { store } = keychainDouble();
    const { manager, pending, credentials, events } = setup(store, 'de');
    await manager.activate(environment);
    await manager.signIn({ email: EMAIL, password: 'pw', remember: false });
    const renewal = credentials().renewAfter401('access-1');
    await tick();
    pending.refresh[0]!.reject(new ApiError('api', 'Refresh token expired', { status: 401 }));
    expect(await renewal).toBe(false);
    expect(events).toContainEqual([
      'session.expired',
      {
        environmentId: 'env',
        email: EMAIL,
        message:
          'Ihre Sitzung in Env ist beendet (Refresh token expired). Melden Sie sich erneut an, um fortzufahren.',
      },
    ]);
  });
});
