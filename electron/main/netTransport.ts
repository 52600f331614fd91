import {
  RedirectRefused,
  type FetchTransport,
  type TransportInit,
  type TransportResponse,
} from '../services/api/transport.ts';

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

export function apiTransportFor(sessions: SessionSource): FetchTransport {
  return netTransport(sessions.fromPartition(API_PARTITION, { cache: false }));
}

export function netTransport(session: FetchingSession): FetchTransport {
  return async (url, init) => {
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
  };
}
