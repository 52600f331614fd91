import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { createApiClient } from '../../../electron/services/api/apiClient.ts';
import {
  apiTransportFor,
  API_PARTITION,
  type FetchingSession,
  type LoginRequest,
  type RequestMaker,
} from '../../../electron/main/netTransport.ts';
import {
  createProxyAuth,
  type AuthChallenge,
  type ProxyLoginAnswer,
} from '../../../electron/services/proxyAuth.ts';
import { createProxyPrompt } from '../../../electron/services/proxyPrompt.ts';
import type { ProxyLoginRequest } from '../../../electron/ipc/contract.ts';
import { PROXY_CHALLENGE, rejection, USER } from '../../support/apiTransports.ts';

/**
 * A session's fetch cannot answer a proxy's request for a password; the desktop transport signs
 * the session in with a `net.request` whose `login` event it answers from the window's dialog,
 * then sends the call again. Here Chromium is played by a session that refuses until it holds
 * the proxy's credentials, and a request that asks for them through `login`.
 */

const PROXY = PROXY_CHALLENGE;
const GOOD = { username: 'alice', password: 's3cret' };
const BASE = 'https://api.plantdesk.test';

/** Chromium behind a proxy that wants GOOD: what fetch sees, and what net.request asks. */
function corporateNetwork(serverChallenge = false, serverRedirects = false) {
  let signedIn = false;
  const fetches: string[] = [];
  const probes: Parameters<RequestMaker<FetchingSession>>[0][] = [];
  const given: (string | undefined)[][] = [];
  const session: FetchingSession = {
    fetch: async (url, init) => {
      fetches.push(`${init.method} ${url}`);
      if (!signedIn) throw new Error(`net::ERR_PROXY_AUTH_REQUESTED loading '${url}'`);
      return new Response(JSON.stringify(USER), { status: 200 });
    },
  };
  const request: RequestMaker<FetchingSession> = (options) => {
    probes.push(options);
    const emitter = new EventEmitter() as EventEmitter & LoginRequest;
    let challenges = 0;
    const challenge = (info: AuthChallenge) => {
      challenges += 1;
      emitter.emit('login', info, (username?: string, password?: string) => {
        given.push([username, password]);
        if (username === undefined) {
          emitter.emit('error', new Error('net::ERR_PROXY_AUTH_REQUESTED'));
        } else if (username === GOOD.username && password === GOOD.password) {
          signedIn = true;
          // Electron cancels a redirect in 'manual' mode unless followed: the request then fails.
          if (serverRedirects) {
            emitter.emit('redirect');
            emitter.emit('error', new Error('net::ERR_ABORTED'));
          } else {
            emitter.emit('response', { statusCode: 404, resume() {} });
          }
        } else if (challenges < 10) {
          challenge(PROXY);
        }
      });
    };
    emitter.end = () => {
      setImmediate(() =>
        serverChallenge
          ? challenge({ ...PROXY, isProxy: false, host: 'api.plantdesk.test', port: 443 })
          : challenge(PROXY),
      );
    };
    emitter.abort = () => {};
    return emitter;
  };
  return { session, request, fetches, probes, given };
}

/** The page: answers each `proxyAuth.requested` from a list (null: cancels). */
function windowAnswering(answers: (ProxyLoginAnswer | null)[]) {
  const requested: ProxyLoginRequest[] = [];
  const prompt = createProxyPrompt((event, payload) => {
    if (event !== 'proxyAuth.requested') return;
    const question = payload as ProxyLoginRequest;
    requested.push(question);
    setImmediate(() => prompt.answer(question.requestId, answers.shift() ?? null));
  });
  return { prompt, requested };
}

function desktopClient(
  network: ReturnType<typeof corporateNetwork>,
  answers: (ProxyLoginAnswer | null)[],
) {
  const page = windowAnswering(answers);
  const partitions: string[] = [];
  const transport = apiTransportFor(
    {
      fromPartition: (partition) => {
        partitions.push(partition);
        return network.session;
      },
    },
    { request: network.request, auth: createProxyAuth({ ask: page.prompt.ask, maxRetries: 1 }) },
  );
  const api = createApiClient({
    baseUrl: BASE,
    fetch: transport,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
  });
  return { api, page, partitions };
}

describe('the desktop transport behind a proxy that asks for a password', () => {
  test('asks the window, signs the session in, and sends the call again', async () => {
    const network = corporateNetwork();
    const { api, page, partitions } = desktopClient(network, [{ ...GOOD, remember: false }]);
    expect(await api.currentUser({}, { token: 'access-token' })).toMatchObject({
      email: USER.email,
    });
    expect(page.requested).toEqual([
      {
        requestId: expect.any(String),
        host: 'proxy.corp.example',
        port: 3128,
        realm: 'Corp',
        scheme: 'basic',
        refused: false,
      },
    ]);
    // The sign-in: the origin, in the API's session, without the call's token or body.
    expect(network.probes).toEqual([
      {
        method: 'HEAD',
        url: `${BASE}/`,
        session: network.session,
        credentials: 'include',
        redirect: 'manual',
        bypassCustomProtocolHandlers: true,
      },
    ]);
    expect(partitions).toEqual([API_PARTITION]);
    expect(network.given).toEqual([[GOOD.username, GOOD.password]]);
    expect(network.fetches).toEqual([`GET ${BASE}/auth/me`, `GET ${BASE}/auth/me`]);
  });

  test('a server whose origin redirects signs in all the same', async () => {
    const network = corporateNetwork(false, true);
    const { api } = desktopClient(network, [{ ...GOOD, remember: false }]);
    expect(await api.currentUser({})).toMatchObject({ email: USER.email });
    expect(network.fetches).toHaveLength(2);
  });

  test('calls that meet the proxy together share one dialog', async () => {
    const network = corporateNetwork();
    const { api, page } = desktopClient(network, [{ ...GOOD, remember: false }]);
    await Promise.all([api.currentUser({}), api.currentUser({}), api.currentUser({})]);
    expect(page.requested).toHaveLength(1);
    expect(network.probes).toHaveLength(1);
  });

  test('a wrong password is asked again, then the call fails as the proxy refusing', async () => {
    const network = corporateNetwork();
    const wrong = { username: 'alice', password: 'nope', remember: false };
    const { api, page } = desktopClient(network, [wrong, wrong, wrong]);
    const error = await rejection(api.currentUser({}));
    expect(error.kind).toBe('proxy');
    expect(error.message).toMatch(/asks for a user name and password/);
    // maxRetries 1: asked twice, the third challenge cancelled; the call not sent again.
    expect(page.requested.map((question) => question.refused)).toEqual([false, true]);
    expect(network.given.at(-1)).toEqual([undefined, undefined]);
    expect(network.fetches).toHaveLength(1);
  });

  test('cancelling the dialog fails the call as the proxy refusing', async () => {
    const network = corporateNetwork();
    const { api } = desktopClient(network, [null]);
    expect((await rejection(api.currentUser({}))).kind).toBe('proxy');
    expect(network.fetches).toHaveLength(1);
  });

  test("a server's own password challenge is refused without asking", async () => {
    const network = corporateNetwork(true);
    const { api, page } = desktopClient(network, [{ ...GOOD, remember: false }]);
    expect((await rejection(api.currentUser({}))).kind).toBe('proxy');
    expect(page.requested).toEqual([]);
    expect(network.given).toEqual([[undefined, undefined]]);
  });
});
