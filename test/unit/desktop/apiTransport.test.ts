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
import { createTranslator } from '../../../i18n/translator.ts';
import { failureCode } from '../../../electron/services/api/transport.ts';
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
  });

  test("a proxy's refusal is the proxy's kind, said with what to check, and not retried", async () => {
    const proxyCodes = {
      'net::ERR_PROXY_AUTH_UNSUPPORTED': /asks for a user name and password/,
      'net::ERR_PROXY_AUTH_REQUESTED': /asks for a user name and password/,
      'net::ERR_TUNNEL_CONNECTION_FAILED':
        /refused the connection\. Check that your company's proxy allows this address/,
      'net::ERR_PROXY_CONNECTION_FAILED':
        /The proxy for https:\/\/api\.plantdesk\.test could not be reached/,
      'net::ERR_MANDATORY_PROXY_CONFIGURATION_FAILED': /\(PAC script\) .* failed/,
    };
    for (const [message, words] of Object.entries(proxyCodes)) {
      let sent = 0;
      const api = createApiClient({
        baseUrl: 'https://api.plantdesk.test',
        fetch: netTransport({
          fetch: async () => {
            sent += 1;
            throw new Error(`${message} (-1) loading 'https://api.plantdesk.test/auth/me'`);
          },
        }),
        retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      });
      const error = await rejection(api.currentUser({}));
      expect(error.kind, message).toBe('proxy');
      expect(error.message, message).toMatch(words);
      expect(sent, message).toBe(1);
    }
  });

  test("a proxy's 407 that stays unanswered is the proxy's refusal, not retried", async () => {
    // Chromium hands a plain-http request the proxy's 407 when nothing signs in (undici and the
    // fetch standard make it a blank network error, which is why only this adapter meets it).
    let sent = 0;
    const api = createApiClient({
      baseUrl: 'http://api.plantdesk.test',
      fetch: netTransport({
        fetch: async () => {
          sent += 1;
          return new Response(null, {
            status: 407,
            headers: { 'proxy-authenticate': 'Basic realm="corp"' },
          });
        },
      }),
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect((await rejection(api.listPlants({}))).toSerialized()).toEqual({
      kind: 'proxy',
      message:
        'The proxy between PlantDesk and http://api.plantdesk.test asks for a user name and password, and none was given or it refused them. Check the proxy user name and password (often your company network account) and try again.',
    });
    expect(sent).toBe(1);
  });

  test("undici's refusals of CONNECT are the proxy's too", () => {
    const aborted = (status: number) =>
      new TypeError('fetch failed', {
        cause: Object.assign(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), {
          code: 'UND_ERR_ABORTED',
        }),
      });
    expect(failureCode(aborted(407))).toBe('PROXY_AUTH');
    expect(failureCode(aborted(403))).toBe('PROXY_REFUSED');
    expect(failureCode(aborted(502))).toBe('PROXY_REFUSED');
    const plain = Object.assign(new Error('Proxy Authentication Required (407)'), {
      code: 'UND_ERR_INVALID_ARG',
    });
    expect(failureCode(new TypeError('fetch failed', { cause: plain }))).toBe('PROXY_AUTH');
  });

  test('in German, as the user reads it', async () => {
    const german = createTranslator('de');
    const api = createApiClient({
      baseUrl: 'https://api.plantdesk.test',
      fetch: netTransport({
        fetch: async () => {
          throw new Error('net::ERR_TUNNEL_CONNECTION_FAILED');
        },
      }),
      t: () => german,
    });
    expect((await rejection(api.currentUser({}))).message).toBe(
      'Der Proxy zwischen PlantDesk und https://api.plantdesk.test hat die Verbindung abgelehnt. Prüfen Sie, ob der Proxy Ihrer Firma diese Adresse zulässt (Ihre IT-Abteilung weiß es) und ob die Proxy-Einstellungen dieses Computers stimmen.',
    );
  });
});
