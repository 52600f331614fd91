import { expect } from 'vitest';
import { ApiError } from '../../electron/services/api/apiError.ts';
import {
  createNodeTransport,
  type FetchTransport,
  type TransportInit,
} from '../../electron/services/api/transport.ts';
import { netTransport, type FetchingSession } from '../../electron/main/netTransport.ts';
import type { AuthChallenge } from '../../electron/services/proxyAuth.ts';

/**
 * The API client's two transports, for tests that must hold on both: Node's (browser mode) and
 * the desktop's net.fetch adapter over a stand-in session. Electron's net.fetch cannot run
 * outside Electron; the stand-in sends with the platform's fetch, which honours AbortSignal and
 * 'manual' redirects as Chromium's does.
 */

export interface SessionCall {
  url: string;
  init: TransportInit & { bypassCustomProtocolHandlers?: boolean };
}

/** A stand-in for Electron's Session: records each call, sends it with the platform's fetch. */
export function standInSession(calls: SessionCall[] = []): FetchingSession {
  return {
    fetch: (url, init) => {
      calls.push({ url, init });
      return fetch(url, init);
    },
  };
}

/** A corporate proxy's request for a typed password, as Chromium describes it. */
export const PROXY_CHALLENGE: AuthChallenge = {
  isProxy: true,
  scheme: 'basic',
  host: 'proxy.corp.example',
  port: 3128,
  realm: 'Corp',
};

/** A `currentUser` answer. */
export const USER = {
  userUuid: '7F0C2A52-9D1E-4F7A-8A59-3B8B6C1D2E4F',
  email: 'admin@plantdesk.test',
  displayName: 'Admin',
  organizationUuid: '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a',
  organizationName: 'Demo',
  permissions: ['PLANTS:READ'],
};

export const TRANSPORTS: [name: string, make: () => FetchTransport][] = [
  ['Node transport', () => createNodeTransport()],
  ['net.fetch adapter', () => netTransport(standInSession())],
];

/** The ApiError a call fails with; fails the test if it succeeds or throws something else. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}
