import { silentLogger, type Logger } from './logger.ts';
import type { SecretStore } from './secrets.ts';
import { PROXY_AUTH_REFUSED } from './api/transport.ts';

/**
 * The answers to a proxy that asks for a typed user name and password (Basic, Digest): Chromium
 * asks through a request's `login` event, this says what to give it. The user is asked in the
 * window; with "remember" the answer is kept in the OS keychain under the proxy's host, port and
 * realm, and offered to that proxy only: never to another proxy or realm, never to a server.
 */

/** What Chromium says of a challenge (Electron's AuthInfo). */
export interface AuthChallenge {
  isProxy: boolean;
  scheme: string;
  host: string;
  port: number;
  realm: string;
}

export interface ProxyCredentials {
  username: string;
  password: string;
}

export interface ProxyLoginAnswer extends ProxyCredentials {
  /** Keep it in the keychain for this proxy and realm. */
  remember: boolean;
}

/** What the window asks the user. */
export interface ProxyLoginQuestion {
  host: string;
  port: number;
  realm: string;
  scheme: string;
  /** The proxy refused the last answer: the dialog says so. */
  refused: boolean;
}

export interface ProxyAuthOptions {
  /** Asks the user (the window's dialog); null when they cancel. */
  ask(question: ProxyLoginQuestion): Promise<ProxyLoginAnswer | null>;
  /** Where a remembered answer is kept; without it nothing is remembered. */
  keychain?: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  /** How many times a refused answer is asked again before the call fails. Default 2. */
  maxRetries?: number;
  log?: Logger;
}

/** One request's sign-in to its proxy: the `login` events of that request, in order. */
export interface ProxyLoginRound {
  /** The credentials for one `login` event, or null to cancel it. */
  answer(challenge: AuthChallenge): Promise<ProxyCredentials | null>;
  /** The request got through: what the user asked to remember is kept. */
  succeeded(): Promise<void>;
  /** Why the round gave up, when it did. */
  readonly gaveUp: 'cancelled' | 'refused' | undefined;
}

export interface ProxyAuth {
  round(): ProxyLoginRound;
}

/** The proxy's credentials were not given, or refused too often: the call fails as the proxy's. */
export class ProxyAuthRefused extends Error {
  readonly code = PROXY_AUTH_REFUSED;
  readonly reason: 'cancelled' | 'refused';
  constructor(reason: 'cancelled' | 'refused') {
    super(
      reason === 'cancelled'
        ? 'Proxy authentication cancelled'
        : 'Proxy authentication refused too often',
    );
    this.name = 'ProxyAuthRefused';
    this.reason = reason;
  }
}

export const DEFAULT_PROXY_RETRIES = 2;

/** The keychain entry of one proxy and realm (readable in a keychain's window). */
export function proxySecretKey(challenge: Pick<AuthChallenge, 'host' | 'port' | 'realm'>): string {
  return `proxy/${encodeURIComponent(`${challenge.host}:${challenge.port}`)}/${encodeURIComponent(challenge.realm)}`;
}

interface Given {
  credentials: ProxyLoginAnswer;
  from: 'keychain' | 'user';
}

interface ProxyState {
  challenge: AuthChallenge;
  given: Given | undefined;
  /** Typed answers the proxy refused. */
  refusals: number;
}

export function createProxyAuth(options: ProxyAuthOptions): ProxyAuth {
  const maxRetries = options.maxRetries ?? DEFAULT_PROXY_RETRIES;
  const log = options.log ?? silentLogger;
  const keychain = options.keychain;

  async function saved(key: string): Promise<ProxyCredentials | undefined> {
    try {
      const value = await keychain?.get(key);
      if (value === undefined) return undefined;
      const parsed = JSON.parse(value) as Partial<ProxyCredentials>;
      return typeof parsed.username === 'string' && typeof parsed.password === 'string'
        ? { username: parsed.username, password: parsed.password }
        : undefined;
    } catch (error) {
      log.warn('The remembered proxy credentials could not be read', { error: String(error) });
      return undefined;
    }
  }

  function round(): ProxyLoginRound {
    const proxies = new Map<string, ProxyState>();
    let gaveUp: ProxyLoginRound['gaveUp'];

    async function answer(challenge: AuthChallenge): Promise<ProxyCredentials | null> {
      // A server's own sign-in (401) is never answered with a proxy's password.
      if (!challenge.isProxy || gaveUp) return null;
      const key = proxySecretKey(challenge);
      let state = proxies.get(key);
      if (!state) proxies.set(key, (state = { challenge, given: undefined, refusals: 0 }));
      // Asked again for the same proxy: it refused what it was given.
      const refused = state.given !== undefined;
      if (state.given?.from === 'keychain') {
        await keychain?.delete(key).catch(() => {});
      } else if (refused) {
        state.refusals += 1;
        if (state.refusals > maxRetries) {
          gaveUp = 'refused';
          return null;
        }
      }
      if (!refused) {
        const remembered = await saved(key);
        if (remembered) {
          state.given = { credentials: { ...remembered, remember: false }, from: 'keychain' };
          return remembered;
        }
      }
      const typed = await options.ask({
        host: challenge.host,
        port: challenge.port,
        realm: challenge.realm,
        scheme: challenge.scheme,
        refused,
      });
      if (!typed) {
        gaveUp = 'cancelled';
        return null;
      }
      state.given = { credentials: typed, from: 'user' };
      return { username: typed.username, password: typed.password };
    }

    async function succeeded(): Promise<void> {
      for (const [key, state] of proxies) {
        if (state.given?.from !== 'user' || !state.given.credentials.remember) continue;
        const { username, password } = state.given.credentials;
        await keychain
          ?.set(key, JSON.stringify({ username, password }))
          .catch((error: unknown) =>
            log.warn('The proxy credentials could not be remembered', { error: String(error) }),
          );
      }
    }

    return {
      answer,
      succeeded,
      get gaveUp() {
        return gaveUp;
      },
    };
  }

  return { round };
}
