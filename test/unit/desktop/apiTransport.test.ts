import { describe, expect, test } from 'vitest';
import {
  createApiClient,
  type ApiClientOptions,
} from '../../../electron/services/api/apiClient.ts';
import {
  API_PARTITION,
  apiTransportFor,
  netTransport,
  type FetchingSession,
} from '../../../electron/main/netTransport.ts';
import { testConnection } from '../../../electron/services/plantDesk.ts';
import { fakeServer, json, type FakeServer } from '../../support/fakeHttpServer.ts';
import {
  rejection,
  standInSession,
  TRANSPORTS,
  USER,
  type SessionCall,
} from '../../support/apiTransports.ts';

/**
 * What the transport changes under the client: the answer is read within the deadline and the
 * size limit, and a redirect is never followed, on Node's transport and the net.fetch adapter
 * alike (test/unit/desktop/apiClient.test.ts runs retries, deadlines and cancellation on both);
 * then the adapter's own wiring and Chromium's failures.
 */

const TOKEN = 'secret-access-token';

describe.each(TRANSPORTS)('%s', (_name, makeTransport) => {
  function client(server: FakeServer, options: Partial<ApiClientOptions> = {}) {
    return createApiClient({
      baseUrl: server.url,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
      fetch: makeTransport(),
      ...options,
    });
  }

  test('the deadline bounds the answer, its body included', async () => {
    const silent = await fakeServer(() => {});
    expect(
      (await rejection(client(silent).listPlants({}, { timeoutMs: 150 }))).toSerialized(),
    ).toEqual({
      kind: 'timeout',
      message: 'GET /plants timed out after 150 ms',
    });
    expect(silent.seen).toHaveLength(1);
    // Headers at once, then a body that trickles past the deadline.
    const trickle = await fakeServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"email":');
    });
    const error = await rejection(client(trickle).currentUser({}, { timeoutMs: 150 }));
    expect(error.kind).toBe('timeout');
  });

  test('an answer over the size limit is refused, declared or streamed', async () => {
    const big = JSON.stringify({ ...USER, displayName: 'x'.repeat(4096) });
    const server = await fakeServer((_request, response, index) => {
      if (index === 0) {
        json(response, 200, JSON.parse(big));
      } else {
        // No content-length: the limit is met while reading.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(big.slice(0, 2048));
        response.end(big.slice(2048));
      }
    });
    const api = client(server, { maxResponseBytes: 1024 });
    for (let call = 0; call < 2; call += 1) {
      expect((await rejection(api.currentUser({}))).toSerialized()).toEqual({
        kind: 'invalidResponse',
        message: "The server's answer could not be read: the answer is too large",
      });
    }
    expect(server.seen).toHaveLength(2); // not retried
  });

  test('a port that fetch refuses (as browsers do) is said so, and nothing is sent', async () => {
    const api = createApiClient({
      baseUrl: 'http://127.0.0.1:6000',
      fetch: makeTransport(),
      retry: { attempts: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect((await rejection(api.currentUser({}))).message).toBe(
      'Could not reach http://127.0.0.1:6000: the network stack refuses this port for safety (as browsers do): give the server another port',
    );
  });

  test('a redirect to another origin is not followed: the token stays with its server', async () => {
    const elsewhere = await fakeServer((_request, response) => json(response, 200, USER));
    const server = await fakeServer((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/auth/me` }).end();
    });
    const api = client(server, {
      credentials: { token: async () => TOKEN, renewAfter401: async () => false },
    });
    const error = await rejection(api.currentUser({}));
    expect(error).toMatchObject({ kind: 'api', status: 307 });
    expect(error.message).toContain(`to ${elsewhere.url}/auth/me`);
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(elsewhere.seen).toEqual([]);
  });
});

describe('the net.fetch adapter', () => {
  test('the app wires a session of its own, and every call bypasses custom protocols', async () => {
    const calls: SessionCall[] = [];
    const partitions: string[] = [];
    const transport = apiTransportFor({
      fromPartition(partition) {
        partitions.push(partition);
        return standInSession(calls);
      },
    });
    // In memory, and not the default session, whose request filter cancels remote requests.
    expect(partitions).toEqual([API_PARTITION]);
    expect(API_PARTITION).not.toMatch(/^persist:/);
    const server = await fakeServer((_request, response) => json(response, 200, USER));
    const api = createApiClient({ baseUrl: server.url, fetch: transport });
    await api.currentUser({}, { token: TOKEN });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: `${server.url}/auth/me`,
      init: {
        method: 'GET',
        redirect: 'manual',
        bypassCustomProtocolHandlers: true,
        headers: { Accept: 'application/json', Authorization: `Bearer ${TOKEN}` },
      },
    });
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });

  test('a redirect net.fetch hides (cancelled, or an opaque answer) is still said as one', async () => {
    const cancelled: FetchingSession = {
      fetch: async () => {
        throw new Error('Redirect was cancelled');
      },
    };
    // The fetch standard's answer to a 'manual' redirect: no status, no headers.
    const opaque: FetchingSession = {
      fetch: async () => ({
        type: 'opaqueredirect',
        status: 0,
        statusText: '',
        headers: new Headers(),
        body: null,
      }),
    };
    for (const session of [cancelled, opaque]) {
      const transport = netTransport(session);
      const api = createApiClient({ baseUrl: 'https://api.plantdesk.test', fetch: transport });
      expect((await rejection(api.listVendors({}, { token: TOKEN }))).toSerialized()).toEqual({
        kind: 'api',
        path: '/vendors',
        message:
          'The server answered GET /vendors with a redirect; PlantDesk does not follow redirects: use the final address for the environment',
      });
      expect(
        await testConnection('https://api.plantdesk.test', 1_000, undefined, transport),
      ).toMatchObject({
        ok: false,
        message: 'Reachable, but not a Plant Energy API: /auth/me answered 3xx',
      });
    }
  });

  test("Chromium's errors keep their kinds and words", async () => {
    const failing = (message: string): FetchingSession => ({
      fetch: async () => {
        throw new Error(message);
      },
    });
    const api = (message: string) =>
      createApiClient({
        baseUrl: 'https://api.plantdesk.test',
        fetch: netTransport(failing(message)),
        retry: { attempts: 0, baseDelayMs: 1, maxDelayMs: 1 },
      });
    const refused = await rejection(api('net::ERR_CONNECTION_REFUSED').currentUser({}));
    expect(refused.toSerialized()).toEqual({
      kind: 'network',
      message: 'Could not reach https://api.plantdesk.test: connection refused',
    });
    const proxy = await rejection(api('net::ERR_PROXY_AUTH_UNSUPPORTED').currentUser({}));
    expect(proxy.message).toBe(
      'Could not reach https://api.plantdesk.test: the proxy asks for credentials that were not given or were refused',
    );
  });
});
