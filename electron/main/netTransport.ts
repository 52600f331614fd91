import {
  failureCode,
  RedirectRefused,
  type FetchTransport,
  type TransportInit,
  type TransportResponse,
} from '../services/api/transport.ts';
import { ProxyAuthRefused, type AuthChallenge, type ProxyAuth } from '../services/proxyAuth.ts';

/**
 * The desktop app's API transport: Chromium's network stack through a session's `fetch`, so that
 * calls use the system and PAC proxies, proxy authentication and the OS trust store (a company's
 * TLS-inspection root), none of which Node's stack sees in the packaged app.
 */

/** The session's `fetch` (Electron's `Session.fetch`); tests pass a stand-in. */
export interface FetchingSession {
  fetch(
    url: string,
    init: TransportInit & { bypassCustomProtocolHandlers?: boolean },
  ): Promise<TransportResponse>;
}

export interface SessionSource {
  fromPartition(partition: string, options?: { cache: boolean }): FetchingSession;
}

/**
 * In memory (no `persist:`), apart from the default session: that one cancels every remote
 * request (blockRemoteRequests, for the renderer's sake), and the API needs no cookies or cache.
 */
export const API_PARTITION = 'plantdesk-api';

/** The part of Electron's `ClientRequest` a proxy sign-in uses. */
export interface LoginRequest {
  on(
    event: 'login',
    listener: (
      authInfo: AuthChallenge,
      callback: (username?: string, password?: string) => void,
    ) => void,
  ): this;
  on(event: 'response', listener: (response: { statusCode: number; resume(): void }) => void): this;
  on(event: 'redirect', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  end(): void;
  abort(): void;
}

/** `net.request` with the options a sign-in sends. */
export type RequestMaker<S> = (options: {
  method: string;
  url: string;
  session: S;
  credentials: 'include';
  redirect: 'manual';
  bypassCustomProtocolHandlers: true;
}) => LoginRequest;

export interface ProxyLogin<S> {
  request: RequestMaker<S>;
  auth: ProxyAuth;
}

export function apiTransportFor<S extends FetchingSession>(
  sessions: { fromPartition(partition: string, options?: { cache: boolean }): S },
  proxyLogin?: ProxyLogin<S>,
): FetchTransport {
  const session = sessions.fromPartition(API_PARTITION, { cache: false });
  return netTransport(session, proxyLogin && signInThrough(session, proxyLogin));
}

/**
 * A session's `fetch` answers no `login` event: a proxy that wants a typed password fails it
 * (electron/electron#44249). So when a call meets such a proxy, a `net.request` of the same
 * session, whose `login` event can be answered, signs in first; Chromium keeps the proxy's
 * credentials in the session, and the call is sent again once.
 */
export function netTransport(
  session: FetchingSession,
  signIn?: (url: string) => Promise<void>,
): FetchTransport {
  let signingIn: Promise<void> | undefined;
  // Calls that meet the proxy together wait for one sign-in (one dialog).
  const signInOnce = (url: string) =>
    (signingIn ??= signIn!(url).finally(() => (signingIn = undefined)));

  async function send(url: string, init: TransportInit): Promise<TransportResponse> {
    try {
      // The API is http(s) only; a handler the app registers must never answer for a server.
      return await session.fetch(url, { ...init, bypassCustomProtocolHandlers: true });
    } catch (error) {
      // net.fetch cancels a request whose redirect is not followed in 'manual' mode rather than
      // answering it (electron/electron#43715).
      if (error instanceof Error && /redirect was cancelled/i.test(error.message)) {
        throw new RedirectRefused(error);
      }
      throw error;
    }
  }

  return async (url, init) => {
    if (!signIn) return send(url, init);
    let failure: unknown;
    try {
      const response = await send(url, init);
      if (response.status !== 407) return response;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      // A cancelled proxy sign-in fails the request itself (or, through a tunnel, its CONNECT).
      if (!PROXY_SIGN_IN_FAILURES.has(failureCode(error) ?? '')) throw error;
      failure = error;
    }
    await untilSignedIn(signInOnce(url), init.signal, failure);
    return send(url, init);
  };
}

const PROXY_SIGN_IN_FAILURES = new Set(['PROXY_AUTH', 'PROXY_REFUSED']);

/** The sign-in, cut short by the call's cancellation or deadline (the dialog stays open). */
function untilSignedIn(signedIn: Promise<void>, signal: AbortSignal, failure: unknown) {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? failure);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    signedIn.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Signs the session in to the proxy on the way to `url`'s server: a HEAD of its origin (no
 * token, no body), whose `login` events for the proxy are answered by `auth`; a server's own
 * challenge is refused. Rejects with ProxyAuthRefused when the user cancelled or the proxy kept
 * refusing, else with the request's failure.
 */
export function signInThrough<S>(session: S, { request, auth }: ProxyLogin<S>) {
  return (url: string) =>
    new Promise<void>((resolve, reject) => {
      const round = auth.round();
      const probe = request({
        method: 'HEAD',
        url: `${new URL(url).origin}/`,
        session,
        credentials: 'include',
        redirect: 'manual',
        bypassCustomProtocolHandlers: true,
      });
      probe.on('login', (authInfo, callback) => {
        round.answer(authInfo).then(
          (credentials) =>
            credentials ? callback(credentials.username, credentials.password) : callback(),
          () => callback(),
        );
      });
      let settled = false;
      const passed = () => {
        settled = true;
        round.succeeded().then(resolve, resolve);
      };
      probe.on('response', (response) => {
        settled = true;
        response.resume();
        // A 407 here: the sign-in was cancelled and the proxy's answer came through.
        if (response.statusCode === 407 || round.gaveUp) {
          reject(new ProxyAuthRefused(round.gaveUp ?? 'cancelled'));
          return;
        }
        passed();
      });
      // The server answered a redirect: the proxy let the request through, which is all we asked.
      probe.on('redirect', () => {
        passed();
        probe.abort();
      });
      probe.on('error', (error) => {
        if (settled) return;
        reject(round.gaveUp ? new ProxyAuthRefused(round.gaveUp) : error);
      });
      probe.end();
    });
}
