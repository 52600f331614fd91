import { routes } from '../../api/routes.ts';
import type { Translate } from '../../i18n/translator.ts';
import type { Environment, SessionState, SignInInput } from '../ipc/contract.ts';
import type { CurrentUser, TokenResponse } from '../../api/schemas/auth.ts';
import type { ApiClient, Credentials } from './api/apiClient.ts';
import { ApiError } from './api/apiError.ts';
import { sayIn } from './hostText.ts';
import type { Emit } from './eventBus.ts';
import { silentLogger, type Logger } from './logger.ts';
import { credentialOrigin, mayReceiveCredential } from '../ipc/addresses.ts';
import { normalizeEmail, secretKeys, type SecretStore } from './secrets.ts';

export interface SessionDeps {
  secrets: SecretStore;
  emit: Emit;
  /** `createApiClient` in production; tests wrap it to watch the traffic. */
  createClient(options: { baseUrl: () => string; credentials: Credentials }): ApiClient;
  log?: Logger;
  now?: () => number;
  /** The user's language when a message is made; default English. */
  t?: () => Translate;
}

export interface SessionManager {
  /** Switches to an environment; restores a remembered session from the keychain (refresh) when it can. */
  activate(environment: Environment): Promise<SessionState>;
  /**
   * The environment's data changed: the Local sandbox restarted on a new port, or the user
   * edited it. A new origin (scheme, host, port) ends its session: the tokens are revoked at the
   * old address, its keychain entries deleted, and the password is asked at the new one.
   */
  environmentChanged(environment: Environment): Promise<void>;
  /** The environment is being removed: revoke its session, delete its keychain entries. */
  forgetEnvironment(environment: Environment): Promise<void>;
  state(): SessionState;
  /** POST /auth/login then /auth/me; `remember` keeps the refresh token in the keychain. */
  signIn(input: SignInInput): Promise<SessionState>;
  /**
   * The session of an environment that is not (necessarily) the active one, restoring a
   * remembered sign-in when it can; the active environment stays as it is.
   */
  sessionOf(environment: Environment): Promise<SessionState>;
  /** Signs in to an environment without making it the active one (the environment comparison). */
  signInTo(environment: Environment, input: SignInInput): Promise<SessionState>;
  /** POST /auth/logout with the refresh token (best effort), then forgets the tokens. */
  signOut(): Promise<SessionState>;
  /** Reads /auth/me again (permissions may have changed). */
  refreshUser(): Promise<SessionState>;
  /** Authenticated client of the active environment; calls reject with ApiError kind 'signedOut' when signed out. */
  api(): ApiClient;
  /** Every environment with a session, active or not (the monitor watches them all). */
  signedIn(): { environmentId: string; client: ApiClient; email: string }[];
  dispose(): void;
}

/** Logout is a courtesy to the server: it must not hold the user up when the server is away. */
const REVOKE_TIMEOUT_MS = 5_000;
/** Refresh this long before the access token ends (a fifth of its lifetime when that is shorter). */
const MAX_REFRESH_MARGIN_MS = 60_000;

interface Tokens {
  access: string;
  refresh: string;
  /** When the server stops accepting the access token (by our clock). */
  accessExpiresAt: number;
  /** When we renew it ahead of that. */
  refreshAt: number;
}

/** One signed-in account in one environment. Tokens live here and nowhere else. */
interface Session {
  email: string;
  /** The server that issued the tokens (credentialOrigin): they are sent to no other. */
  origin: string;
  /** The address they were issued at: where they are revoked after the address changed. */
  issuedAt: string;
  user: CurrentUser;
  tokens: Tokens;
  /** The refresh token is kept in the keychain and rewritten at each rotation. */
  remember: boolean;
  /** The one refresh in flight: every caller that meets an expired token waits for it. */
  refreshing?: Promise<boolean>;
  timer?: NodeJS.Timeout;
  /** Signed out or expired: late answers must not bring it back or touch the keychain. */
  ended: boolean;
}

interface EnvironmentRecord {
  environment: Environment;
  client: ApiClient;
  session?: Session;
  rememberedEmail?: string;
  /** A remembered session could not be restored for want of the server; retried when it appears. */
  restorePending: boolean;
  restoring?: Promise<void>;
}

/**
 * The sessions of all environments: sign-in, sign-out, the current user, and the tokens, which
 * never leave this module (states and events carry the user, never a token). Each environment
 * has its own API client whose credentials are its session, so a call started before a switch
 * of environment finishes with the tokens of the environment it started in.
 */
export function createSessionManager(deps: SessionDeps): SessionManager {
  const log = deps.log ?? silentLogger;
  const now = deps.now ?? Date.now;
  const say = sayIn(deps.t);
  const records = new Map<string, EnvironmentRecord>();
  let activeId: string | undefined;
  let disposed = false;
  /** For api() before any environment is active. */
  let detachedClient: ApiClient | undefined;

  // ── Records and state ─────────────────────────────────────────────────────────────────────

  function recordFor(environment: Environment): EnvironmentRecord {
    const existing = records.get(environment.id);
    if (existing) {
      existing.environment = environment;
      return existing;
    }
    const id = environment.id;
    const record: EnvironmentRecord = {
      environment,
      restorePending: false,
      client: deps.createClient({
        // Read at each call: the Local sandbox may come back on another port.
        baseUrl: () => records.get(id)?.environment.baseUrl ?? '',
        credentials: credentialsOf(id),
      }),
    };
    records.set(id, record);
    return record;
  }

  function activeRecord(): EnvironmentRecord | undefined {
    return activeId === undefined ? undefined : records.get(activeId);
  }

  function requireActive(): EnvironmentRecord {
    const record = activeRecord();
    if (!record) throw new ApiError('signedOut', 'No environment is selected');
    return record;
  }

  function stateOf(record: EnvironmentRecord): SessionState {
    const state: SessionState = {
      environmentId: record.environment.id,
      status: record.session ? 'signedIn' : 'signedOut',
    };
    if (record.session) state.user = structuredClone(record.session.user);
    if (record.rememberedEmail !== undefined) state.rememberedEmail = record.rememberedEmail;
    return state;
  }

  function isActive(record: EnvironmentRecord): boolean {
    return !disposed && record.environment.id === activeId;
  }

  /** The renderer follows the active environment only; other environments change silently. */
  function changed(record: EnvironmentRecord): void {
    if (isActive(record)) deps.emit('session.changed', stateOf(record));
  }

  // ── Tokens ────────────────────────────────────────────────────────────────────────────────

  function tokensFrom(pair: TokenResponse): Tokens {
    const issuedAt = now();
    const lifetimeMs = Math.max(0, pair.expiresIn * 1000);
    const margin = Math.min(MAX_REFRESH_MARGIN_MS, lifetimeMs / 5);
    return {
      access: pair.accessToken,
      refresh: pair.refreshToken,
      accessExpiresAt: issuedAt + lifetimeMs,
      refreshAt: issuedAt + lifetimeMs - margin,
    };
  }

  function credentialsOf(environmentId: string): Credentials {
    return {
      async token(auth, targetUrl) {
        const record = records.get(environmentId);
        const session = record?.session;
        if (!record || !session) return undefined;
        if (!mayReceiveCredential(session.origin, targetUrl)) return undefined;
        if (auth === 'refresh') return session.tokens.refresh;
        if (now() >= session.tokens.refreshAt) {
          try {
            if (!(await renew(record, session))) return undefined;
          } catch (error) {
            // The server could not be reached: the current token may still do.
            if (now() >= session.tokens.accessExpiresAt) throw error;
          }
        }
        return record.session?.tokens.access;
      },
      async renewAfter401(rejected) {
        const record = records.get(environmentId);
        const session = record?.session;
        if (!record || !session) return false;
        // Another call has renewed it meanwhile: retry with the new one, no second refresh.
        if (session.tokens.access !== rejected) return true;
        return renew(record, session);
      },
    };
  }

  /**
   * Exchanges the refresh token for a new pair, once however many callers ask at the same time.
   * Answers false when the server refuses it (the session has then expired), throws when the
   * server could not be asked (the session stays: the next call tries again).
   */
  function renew(record: EnvironmentRecord, session: Session): Promise<boolean> {
    session.refreshing ??= refreshSession(record, session).finally(() => {
      session.refreshing = undefined;
    });
    return session.refreshing;
  }

  async function refreshSession(record: EnvironmentRecord, session: Session): Promise<boolean> {
    let pair: TokenResponse;
    try {
      pair = await record.client.refreshToken(
        {},
        { token: session.tokens.refresh, tokenOrigin: session.origin },
      );
    } catch (error) {
      if (!isRefusal(error)) {
        log.warn('token refresh failed', {
          environmentId: record.environment.id,
          reason: describe(error),
        });
        throw error;
      }
      if (!session.ended && record.session === session) {
        await expire(record, session, error);
      }
      return false;
    }
    // The pair is applied even to an ended session, so that sign-out revokes the newest token.
    session.tokens = tokensFrom(pair);
    if (session.ended) return false;
    if (session.remember) await storeRefreshToken(record, session);
    schedule(record, session);
    return true;
  }

  /** The server said no (401): the refresh token is spent, revoked or too old. */
  function isRefusal(error: unknown): boolean {
    return error instanceof ApiError && error.kind === 'api' && error.status === 401;
  }

  async function expire(record: EnvironmentRecord, session: Session, error: unknown) {
    end(record, session);
    log.info('session expired', { environmentId: record.environment.id });
    await forget(secretKeys.refreshToken(record.environment.id, session.origin, session.email));
    changed(record);
    if (isActive(record)) {
      deps.emit('session.expired', {
        environmentId: record.environment.id,
        email: session.email,
        message:
          error instanceof ApiError && error.message
            ? say('host.session.endedBecause', {
                environment: record.environment.name,
                reason: error.message,
              })
            : say('host.session.ended', { environment: record.environment.name }),
      });
    }
  }

  function end(record: EnvironmentRecord, session: Session): void {
    session.ended = true;
    clearTimeout(session.timer);
    session.timer = undefined;
    if (record.session === session) record.session = undefined;
  }

  /** Renews ahead of expiry while the environment is the active one. */
  function schedule(record: EnvironmentRecord, session: Session): void {
    clearTimeout(session.timer);
    session.timer = undefined;
    if (session.ended || !isActive(record)) return;
    const delay = Math.max(0, session.tokens.refreshAt - now());
    session.timer = setTimeout(() => {
      session.timer = undefined;
      if (record.session !== session || !isActive(record)) return;
      // A failure is logged by refreshSession; the next call retries or reports it.
      renew(record, session).catch(() => {});
    }, delay);
    // A pending refresh must not keep the process (or a test run) alive.
    session.timer.unref();
  }

  // ── Keychain ──────────────────────────────────────────────────────────────────────────────
  // A keychain that fails now (locked, gone) costs the user a password later, nothing more.

  async function read(key: string): Promise<string | undefined> {
    if (!deps.secrets.available) return undefined;
    try {
      return await deps.secrets.get(key);
    } catch (error) {
      log.warn('keychain read failed', { reason: describe(error) });
      return undefined;
    }
  }

  async function write(key: string, value: string): Promise<void> {
    if (!deps.secrets.available) return;
    try {
      await deps.secrets.set(key, value);
    } catch (error) {
      log.warn('keychain write failed', { reason: describe(error) });
    }
  }

  async function forget(key: string): Promise<void> {
    if (!deps.secrets.available) return;
    try {
      await deps.secrets.delete(key);
    } catch (error) {
      log.warn('keychain delete failed', { reason: describe(error) });
    }
  }

  function storeRefreshToken(record: EnvironmentRecord, session: Session): Promise<void> {
    return write(
      secretKeys.refreshToken(record.environment.id, session.origin, session.email),
      session.tokens.refresh,
    );
  }

  // ── Server calls outside a session ────────────────────────────────────────────────────────

  /**
   * Best effort: a token we drop should die on the server too, but that is not the user's
   * problem. Always at the server that issued it: after an address change, at the old address.
   */
  async function revoke(
    record: EnvironmentRecord,
    refreshToken: string,
    issuer: { origin: string; issuedAt: string },
  ): Promise<void> {
    const client = mayReceiveCredential(issuer.origin, record.environment.baseUrl)
      ? record.client
      : deps.createClient({ baseUrl: () => issuer.issuedAt, credentials: NO_CREDENTIALS });
    try {
      await client.logout(
        {},
        { token: refreshToken, tokenOrigin: issuer.origin, timeoutMs: REVOKE_TIMEOUT_MS },
      );
    } catch (error) {
      log.warn('could not revoke the refresh token', {
        environmentId: record.environment.id,
        reason: describe(error),
      });
    }
  }

  /** Builds a session from a fresh token pair: reads who it belongs to. */
  async function sessionFrom(
    record: EnvironmentRecord,
    pair: TokenResponse,
    remember: boolean,
    email: string,
    issuer: { origin: string; issuedAt: string },
  ): Promise<Session> {
    const tokens = tokensFrom(pair);
    try {
      const user = await record.client.currentUser(
        {},
        { token: tokens.access, tokenOrigin: issuer.origin },
      );
      return {
        email: normalizeEmail(user.email || email),
        ...issuer,
        user,
        tokens,
        remember,
        ended: false,
      };
    } catch (error) {
      await revoke(record, tokens.refresh, issuer);
      throw error;
    }
  }

  /** Makes `session` the one of `record`, replacing (and revoking) any previous one. */
  async function install(record: EnvironmentRecord, session: Session): Promise<void> {
    const previous = record.session;
    record.session = session;
    if (previous) {
      end(record, previous);
      if (previous.email !== session.email || previous.origin !== session.origin) {
        await forget(
          secretKeys.refreshToken(record.environment.id, previous.origin, previous.email),
        );
      }
      void revoke(record, previous.tokens.refresh, previous);
    }
    schedule(record, session);
  }

  // ── Restoring a remembered session ────────────────────────────────────────────────────────

  function restore(record: EnvironmentRecord): Promise<void> {
    record.restoring ??= restoreRemembered(record).finally(() => {
      record.restoring = undefined;
    });
    return record.restoring;
  }

  async function restoreRemembered(record: EnvironmentRecord): Promise<void> {
    const environmentId = record.environment.id;
    const email = record.rememberedEmail;
    if (record.session || email === undefined) return;
    // A token remembered for another address of this environment is not even read.
    const issuer = {
      origin: credentialOrigin(record.environment),
      issuedAt: record.environment.baseUrl,
    };
    const key = secretKeys.refreshToken(environmentId, issuer.origin, email);
    const stored = await read(key);
    if (stored === undefined) return;
    if (!record.environment.baseUrl) {
      record.restorePending = true;
      return;
    }
    let pair: TokenResponse;
    try {
      pair = await record.client.refreshToken({}, { token: stored, tokenOrigin: issuer.origin });
    } catch (error) {
      if (isRefusal(error)) {
        record.restorePending = false;
        await forget(key);
        log.info('remembered session no longer valid', { environmentId });
      } else {
        record.restorePending = true;
        log.warn('could not restore the remembered session', {
          environmentId,
          reason: describe(error),
        });
      }
      return;
    }
    record.restorePending = false;
    if (record.session || disposed) {
      // Signed in by hand meanwhile (or shutting down): that session and its stored token win.
      void revoke(record, pair.refreshToken, issuer);
      return;
    }
    // The stored token is spent now: keep its successor before anything else can fail.
    await write(key, pair.refreshToken);
    let session: Session;
    try {
      session = await sessionFrom(record, pair, true, email, issuer);
    } catch (error) {
      await forget(key);
      log.warn('could not read the user of the remembered session', {
        environmentId,
        reason: describe(error),
      });
      return;
    }
    if (record.session || disposed) {
      void revoke(record, session.tokens.refresh, session);
      return;
    }
    if (session.email !== normalizeEmail(email)) {
      await forget(key);
      await write(
        secretKeys.refreshToken(environmentId, session.origin, session.email),
        session.tokens.refresh,
      );
    }
    await install(record, session);
    log.info('remembered session restored', { environmentId });
  }

  // ── Address changes ───────────────────────────────────────────────────────────────────────

  /** Deletes the remembered e-mail and its refresh token of the environment at its address. */
  async function forgetRemembered(environment: Environment): Promise<void> {
    const email = deps.secrets.available
      ? await read(secretKeys.rememberedEmail(environment.id))
      : undefined;
    if (email !== undefined) {
      await forget(secretKeys.refreshToken(environment.id, credentialOrigin(environment), email));
    }
    await forget(secretKeys.rememberedEmail(environment.id));
  }

  /**
   * The environment now names another server: nothing of the old one's goes there. Its session
   * ends and is revoked where it was issued, the keychain forgets it, and the user signs in anew.
   */
  async function leaveOrigin(
    record: EnvironmentRecord,
    before: Environment,
    after: Environment,
  ): Promise<void> {
    const session = record.session;
    record.restorePending = false;
    if (session) {
      end(record, session);
      await session.refreshing?.catch(() => {});
    }
    await forgetRemembered(before);
    if (session) {
      await forget(secretKeys.refreshToken(before.id, session.origin, session.email));
    }
    record.rememberedEmail = undefined;
    changed(record);
    log.info('environment moved to another server: signed out', { environmentId: after.id });
    if (session) {
      if (isActive(record)) {
        deps.emit('session.expired', {
          environmentId: after.id,
          email: session.email,
          message: say('host.session.moved', {
            environment: after.name,
            address: credentialOrigin(after),
          }),
        });
      }
      await revoke(record, session.tokens.refresh, session);
    }
  }

  /** Signs in at the record's environment, active or not. */
  async function signInAt(record: EnvironmentRecord, input: SignInInput): Promise<SessionState> {
    const environmentId = record.environment.id;
    const typed = input.email.trim();
    const issuer = {
      origin: credentialOrigin(record.environment),
      issuedAt: record.environment.baseUrl,
    };
    // A wrong password is ApiError 'api' 401 with the server's message: the renderer shows it.
    const pair = await record.client.login({ body: { email: typed, password: input.password } });
    const session = await sessionFrom(record, pair, input.remember, typed, issuer);
    const keepInKeychain = input.remember && deps.secrets.available;
    session.remember = keepInKeychain;
    const formerlyRemembered = record.rememberedEmail;
    await install(record, session);
    record.restorePending = false;
    if (input.remember) {
      record.rememberedEmail = session.email;
      if (keepInKeychain) {
        await write(secretKeys.rememberedEmail(environmentId), session.email);
        await storeRefreshToken(record, session);
      }
    } else {
      record.rememberedEmail = undefined;
      await forget(secretKeys.rememberedEmail(environmentId));
      await forget(secretKeys.refreshToken(environmentId, session.origin, session.email));
    }
    if (formerlyRemembered !== undefined && formerlyRemembered !== record.rememberedEmail) {
      await forget(secretKeys.refreshToken(environmentId, session.origin, formerlyRemembered));
    }
    log.info('signed in', { environmentId, remember: keepInKeychain });
    changed(record);
    return stateOf(record);
  }

  // ── The manager ───────────────────────────────────────────────────────────────────────────

  return {
    async activate(environment) {
      const record = recordFor(environment);
      const previous = activeRecord();
      activeId = environment.id;
      if (previous && previous !== record && previous.session) {
        // Its tokens stay in memory (and the keychain); they are renewed when it is used again.
        clearTimeout(previous.session.timer);
        previous.session.timer = undefined;
      }
      if (record.session) {
        schedule(record, record.session);
      } else {
        // Without a keychain the e-mail remembered in this run is all there is: keep it.
        if (deps.secrets.available) {
          record.rememberedEmail = await read(secretKeys.rememberedEmail(environment.id));
        }
        await restore(record);
      }
      changed(record);
      return stateOf(record);
    },

    async environmentChanged(environment) {
      const record = records.get(environment.id);
      if (!record) return;
      const before = record.environment;
      const moved = before.baseUrl !== environment.baseUrl;
      record.environment = environment;
      if (credentialOrigin(before) !== credentialOrigin(environment)) {
        await leaveOrigin(record, before, environment);
        return;
      }
      if (moved && record.restorePending && !record.session && isActive(record)) {
        void restore(record).then(() => {
          if (record.session) changed(record);
        });
      }
    },

    async forgetEnvironment(environment) {
      const record = records.get(environment.id) ?? recordFor(environment);
      const session = record.session;
      if (session) {
        end(record, session);
        await session.refreshing?.catch(() => {});
        await forget(secretKeys.refreshToken(environment.id, session.origin, session.email));
        await revoke(record, session.tokens.refresh, session);
      }
      await forgetRemembered(environment);
      records.delete(environment.id);
      log.info('environment forgotten', { environmentId: environment.id });
    },

    state() {
      const record = activeRecord();
      return record ? stateOf(record) : { environmentId: '', status: 'signedOut' };
    },

    signIn(input) {
      return signInAt(requireActive(), input);
    },

    async sessionOf(environment) {
      const record = recordFor(environment);
      if (!record.session) {
        if (deps.secrets.available) {
          record.rememberedEmail = await read(secretKeys.rememberedEmail(environment.id));
        }
        await restore(record);
      }
      return stateOf(record);
    },

    signInTo(environment, input) {
      return signInAt(recordFor(environment), input);
    },

    async signOut() {
      const record = requireActive();
      const session = record.session;
      if (!session) return stateOf(record);
      end(record, session);
      changed(record);
      // A refresh in flight would otherwise rotate the token after we revoke it, or store it.
      await session.refreshing?.catch(() => {});
      await forget(secretKeys.refreshToken(record.environment.id, session.origin, session.email));
      await revoke(record, session.tokens.refresh, session);
      log.info('signed out', { environmentId: record.environment.id });
      return stateOf(record);
    },

    async refreshUser() {
      const record = requireActive();
      const session = record.session;
      if (!session) return stateOf(record);
      try {
        const user = await record.client.currentUser({});
        if (record.session === session) session.user = user;
      } catch (error) {
        // The refresh was refused while reading it: that is a sign-out, already announced.
        if (record.session !== session) return stateOf(record);
        throw error;
      }
      changed(record);
      return stateOf(record);
    },

    api() {
      const record = activeRecord();
      if (record) return record.client;
      detachedClient ??= signedOutClient();
      return detachedClient;
    },

    signedIn() {
      return [...records.values()].flatMap((record) =>
        record.session && !record.session.ended
          ? [
              {
                environmentId: record.environment.id,
                client: record.client,
                email: record.session.user.email ?? record.session.email,
              },
            ]
          : [],
      );
    },

    dispose() {
      disposed = true;
      for (const record of records.values()) {
        clearTimeout(record.session?.timer);
        if (record.session) record.session.timer = undefined;
      }
    },
  };
}

/** For a client that only ever sends the tokens it is given. */
const NO_CREDENTIALS: Credentials = {
  token: async () => undefined,
  renewAfter401: async () => false,
};

/** Answers every call with "signed out": there is no environment to call yet. */
function signedOutClient(): ApiClient {
  const refuse = async () => {
    throw new ApiError('signedOut', 'Select an environment and sign in first');
  };
  const client: Record<string, unknown> = { call: refuse };
  for (const routeId of Object.keys(routes)) client[routeId] = refuse;
  return client as ApiClient;
}

/** An error's message only: causes may hold request configurations with passwords or tokens. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
