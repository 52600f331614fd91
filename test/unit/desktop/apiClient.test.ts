import { describe, expect, test, vi } from 'vitest';
import { routes } from '../../../api/routes.ts';
import {
  createApiClient,
  type ApiClientOptions,
  type Credentials,
} from '../../../electron/services/api/apiClient.ts';
import { ApiError } from '../../../electron/services/api/apiError.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import type { LogFields, Logger } from '../../../electron/services/logger.ts';
import { fakeServer, json, type FakeServer } from '../../support/fakeHttpServer.ts';
import { rejection, TRANSPORTS, USER } from '../../support/apiTransports.ts';
import type { FetchTransport } from '../../../electron/services/api/transport.ts';

/**
 * The client against throwaway node:http servers that answer exactly what each test needs:
 * failures, wrong shapes, slow answers.
 */

function errorBody(status: number, error: string, message: string, path: string) {
  return { timestamp: new Date().toISOString(), status, error, message, path };
}

const EMPTY_PAGE = { content: [], page: { number: 0, size: 20, totalElements: 0, totalPages: 0 } };
const PLANT_BODY = {
  name: 'Roof',
  location: { latitude: 45, longitude: 7, timezone: 'Europe/Rome' },
};
const FAST_RETRY = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 };

function client(server: FakeServer, options: Partial<ApiClientOptions> = {}) {
  return createApiClient({ baseUrl: server.url, retry: FAST_RETRY, ...options });
}

/** `client` on a given transport: retries, deadlines and cancellation hold on each. */
function clientOn(transport: () => FetchTransport): typeof client {
  return (server, options = {}) => client(server, { fetch: transport(), ...options });
}

const staticToken = (token: string | undefined): Credentials => ({
  token: async () => token,
  renewAfter401: async () => false,
});

describe('generated methods', () => {
  test('one function per route of the table, plus call', async () => {
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    for (const routeId of Object.keys(routes)) {
      expect(typeof (api as unknown as Record<string, unknown>)[routeId]).toBe('function');
    }
    expect(typeof api.call).toBe('function');
  });
});

describe('requests', () => {
  test('method, base path prefix, query, headers and JSON body', async () => {
    const server = await fakeServer((_request, response, index) =>
      index === 0 ? json(response, 200, EMPTY_PAGE) : json(response, 201, {}),
    );
    const api = createApiClient({
      baseUrl: `${server.url}/api/`,
      credentials: staticToken('access-1'),
    });
    const page = await api.listPlants({
      query: { search: 'Demo Home', sort: ['name,desc', 'createdAt'], page: 0, size: 5 },
    });
    expect(page).toEqual(EMPTY_PAGE);
    expect(server.seen[0]).toMatchObject({
      method: 'GET',
      url: '/api/plants?search=Demo%20Home&sort=name%2Cdesc&sort=createdAt&page=0&size=5',
      body: '',
    });
    expect(server.seen[0]!.headers.authorization).toBe('Bearer access-1');
    expect(server.seen[0]!.headers.accept).toBe('application/json');

    await rejection(api.createPlant({ body: PLANT_BODY })); // 201 with a wrong shape
    expect(server.seen[1]!.method).toBe('POST');
    expect(server.seen[1]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[1]!.body)).toEqual(PLANT_BODY);
  });

  test('public routes carry no token; an explicit token wins over credentials', async () => {
    const server = await fakeServer((_request, response) => json(response, 200, USER));
    const api = client(server, { credentials: staticToken('from-credentials') });
    await rejection(api.login({ body: { email: 'a@b.c', password: 'p' } }));
    expect(server.seen[0]!.headers.authorization).toBe(undefined);
    await api.currentUser({}, { token: 'explicit' });
    expect(server.seen[1]!.headers.authorization).toBe('Bearer explicit');
  });

  test('signed out (credentials without a token): no request, kind signedOut', async () => {
    const server = await fakeServer((_request, response) => json(response, 200, USER));
    const error = await rejection(
      client(server, { credentials: staticToken(undefined) }).currentUser({}),
    );
    expect(error.kind).toBe('signedOut');
    expect(server.seen).toHaveLength(0);
  });

  test('a function base URL is read at each call; an empty one is a network error', async () => {
    const server = await fakeServer((_request, response) => json(response, 200, USER));
    let baseUrl = '';
    const api = createApiClient({ baseUrl: () => baseUrl });
    const error = await rejection(api.currentUser({}));
    expect(error.kind).toBe('network');
    baseUrl = server.url;
    await expect(api.currentUser({})).resolves.toMatchObject({ email: USER.email });
  });

  test('loopback ignores HTTP_PROXY', async () => {
    const server = await fakeServer((_request, response) => json(response, 200, USER));
    vi.stubEnv('HTTP_PROXY', 'http://127.0.0.1:9');
    vi.stubEnv('http_proxy', 'http://127.0.0.1:9');
    try {
      await expect(client(server).currentUser({})).resolves.toMatchObject({ email: USER.email });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('responses against the contract', () => {
  test('unknown fields from a newer server are dropped, known ones parsed', async () => {
    const server = await fakeServer((request, response) =>
      request.url.startsWith('/auth/me')
        ? json(response, 200, { ...USER, avatarUrl: 'https://x/y.png', team: { id: 1 } })
        : json(response, 200, { ...EMPTY_PAGE, links: [], page: { ...EMPTY_PAGE.page, x: 1 } }),
    );
    const api = client(server);
    const user = await api.currentUser({});
    expect(user).toEqual({ ...USER, userUuid: USER.userUuid.toLowerCase() });
    expect(await api.listPlants({})).toEqual(EMPTY_PAGE);
  });

  test('a wrong shape is invalidResponse naming the field', async () => {
    const server = await fakeServer((_request, response) =>
      json(response, 200, { content: 'nope', page: EMPTY_PAGE.page }),
    );
    const error = await rejection(client(server).listPlants({}));
    expect(error.kind).toBe('invalidResponse');
    expect(error.message).toMatch(
      /^The server's answer to GET \/plants does not match the contract: content: /,
    );
  });

  test('a body that is not JSON, or an unexpected status, is invalidResponse', async () => {
    const server = await fakeServer((request, response) => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>hello</html>');
      } else json(response, 200, {});
    });
    const api = client(server);
    const notJson = await rejection(api.currentUser({}));
    expect(notJson.kind).toBe('invalidResponse');
    expect(notJson.message).toContain('not JSON');
    const wrongStatus = await rejection(api.createPlant({ body: PLANT_BODY }));
    expect(wrongStatus.kind).toBe('invalidResponse');
    expect(wrongStatus.message).toContain('status 200, expected 201');
  });

  test('204 answers undefined', async () => {
    const server = await fakeServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    await expect(
      client(server).deletePlant({ params: { plantUuid: USER.userUuid } }),
    ).resolves.toBeUndefined();
  });

  test('an error status keeps the body fields; an HTML 502 falls back to the status', async () => {
    const server = await fakeServer((request, response) => {
      if (request.url.startsWith('/auth/me')) {
        json(response, 403, errorBody(403, 'Forbidden', 'Missing permission X', '/auth/me'));
      } else {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body><h1>502 Bad Gateway</h1>nginx</body></html>');
      }
    });
    const api = client(server, { retry: { attempts: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    expect((await rejection(api.currentUser({}))).toSerialized()).toEqual({
      kind: 'api',
      status: 403,
      error: 'Forbidden',
      message: 'Missing permission X',
      path: '/auth/me',
    });
    expect((await rejection(api.listPlants({ query: { search: 'x' } }))).toSerialized()).toEqual({
      kind: 'api',
      status: 502,
      error: 'Bad Gateway',
      message: 'GET /plants failed: 502 Bad Gateway',
      path: '/plants',
    });
  });
});

describe.each(TRANSPORTS)('on the %s', (_name, transport) => {
  const client = clientOn(transport);

  describe('retries', () => {
    test('GET: 503 twice, then 200, answers after three attempts', async () => {
      const server = await fakeServer((_request, response, index) =>
        index < 2
          ? json(response, 503, errorBody(503, 'Service Unavailable', 'Restarting', '/plants'))
          : json(response, 200, EMPTY_PAGE),
      );
      await expect(client(server).listPlants({})).resolves.toEqual(EMPTY_PAGE);
      expect(server.seen).toHaveLength(3);
    });

    test('gives up after the configured retries with the last error', async () => {
      const server = await fakeServer((request, response) =>
        json(response, 504, errorBody(504, 'Gateway Timeout', 'Upstream slow', request.url)),
      );
      const error = await rejection(client(server).currentUser({}));
      expect(error).toMatchObject({ kind: 'api', status: 504, message: 'Upstream slow' });
      expect(server.seen).toHaveLength(1 + FAST_RETRY.attempts);
    });

    test('POST is never retried', async () => {
      const server = await fakeServer((_request, response) =>
        json(response, 503, errorBody(503, 'Service Unavailable', 'Busy', '/plants')),
      );
      const error = await rejection(client(server).createPlant({ body: PLANT_BODY }));
      expect(error).toMatchObject({ kind: 'api', status: 503 });
      expect(server.seen).toHaveLength(1);
    });

    test('a token refresh is never retried: its refresh token may already be spent', async () => {
      const server = await fakeServer((_request, response) =>
        json(response, 503, errorBody(503, 'Service Unavailable', 'Busy', '/auth/token')),
      );
      const error = await rejection(client(server).refreshToken({}, { token: 'refresh-1' }));
      expect(error).toMatchObject({ kind: 'api', status: 503 });
      expect(server.seen).toHaveLength(1);
    });

    test('PUT and DELETE are retried; 500 and 4xx are not', async () => {
      const server = await fakeServer((request, response, index) => {
        if (request.method === 'PUT') {
          if (index === 0) json(response, 502, {});
          else json(response, 500, errorBody(500, 'Internal Server Error', 'Boom', request.url));
        } else json(response, 404, errorBody(404, 'Not Found', 'No such plant', request.url));
      });
      const api = client(server);
      const params = { plantUuid: USER.organizationUuid };
      expect(await rejection(api.updatePlant({ params, body: {} }))).toMatchObject({ status: 500 });
      expect(server.seen).toHaveLength(2);
      expect(await rejection(api.deletePlant({ params }))).toMatchObject({ status: 404 });
      expect(server.seen).toHaveLength(3);
    });

    test('a dropped connection is a network error, retried for GET only', async () => {
      const server = await fakeServer((request, response, index) => {
        if (index === 0 || request.method === 'POST') response.socket?.destroy();
        else json(response, 200, USER);
      });
      const api = client(server);
      await expect(api.currentUser({})).resolves.toMatchObject({ email: USER.email });
      expect(server.seen).toHaveLength(2);
      const error = await rejection(api.createPlant({ body: PLANT_BODY }));
      expect(error.kind).toBe('network');
      expect(error.message).toMatch(new RegExp(`^Could not reach ${server.url}: `));
      expect(server.seen).toHaveLength(3);
    });

    test('connection refused, after the retries', async () => {
      const server = await fakeServer(() => {});
      await server.close();
      const started = performance.now();
      const error = await rejection(client(server).currentUser({}));
      expect(error.toSerialized()).toEqual({
        kind: 'network',
        message: `Could not reach ${server.url}: connection refused`,
      });
      expect(performance.now() - started).toBeLessThan(2_000);
    });

    test('in the user’s language of the moment: German, then Italian', async () => {
      const server = await fakeServer(() => {});
      await server.close();
      let locale: AppLocale = 'de';
      const api = client(server, { t: () => createTranslator(locale) });
      expect((await rejection(api.currentUser({}))).message).toBe(
        `${server.url} ist nicht erreichbar: Verbindung abgelehnt`,
      );
      locale = 'it';
      expect((await rejection(api.currentUser({}))).message).toBe(
        `Impossibile raggiungere ${server.url}: connessione rifiutata`,
      );
    });

    test('Retry-After is honoured, up to its cap', async () => {
      const server = await fakeServer((_request, response, index) =>
        index % 2 === 0
          ? json(response, 503, {}, { 'retry-after': index === 0 ? '1' : '120' })
          : json(response, 200, USER),
      );
      let started = performance.now();
      await client(server).currentUser({});
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);

      started = performance.now();
      await client(server, { retry: { ...FAST_RETRY, maxRetryAfterMs: 50 } }).currentUser({});
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(server.seen).toHaveLength(4);
    });
  });

  describe('time limits and cancellation', () => {
    test('a server that does not answer times out', async () => {
      const server = await fakeServer(() => {}); // never answers
      const started = performance.now();
      const error = await rejection(client(server).listPlants({}, { timeoutMs: 200 }));
      expect(error.toSerialized()).toEqual({
        kind: 'timeout',
        message: 'GET /plants timed out after 200 ms',
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(server.seen).toHaveLength(1); // timeouts are not retried
    });

    test('the client-wide time limit applies by default', async () => {
      const server = await fakeServer(() => {});
      const error = await rejection(client(server, { timeoutMs: 150 }).currentUser({}));
      expect(error.kind).toBe('timeout');
      expect(error.message).toBe('GET /auth/me timed out after 150 ms');
    });

    test('aborting mid-request cancels it', async () => {
      const server = await fakeServer(() => {});
      const controller = new AbortController();
      const pending = client(server).listPlants({}, { signal: controller.signal });
      await vi.waitFor(() => expect(server.seen).toHaveLength(1));
      controller.abort();
      expect((await rejection(pending)).toSerialized()).toEqual({
        kind: 'cancelled',
        message: 'Request cancelled',
      });
    });

    test('aborting during the backoff wait cancels without another attempt', async () => {
      const server = await fakeServer((_request, response) => json(response, 503, {}));
      const controller = new AbortController();
      const api = client(server, {
        retry: { attempts: 3, baseDelayMs: 20_000, maxDelayMs: 20_000 },
      });
      const started = performance.now();
      const pending = api.listPlants({}, { signal: controller.signal });
      await vi.waitFor(() => expect(server.seen).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      expect((await rejection(pending)).kind).toBe('cancelled');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(server.seen).toHaveLength(1);
    });

    test('an already aborted signal sends nothing', async () => {
      const server = await fakeServer((_request, response) => json(response, 200, USER));
      const error = await rejection(
        client(server).currentUser({}, { signal: AbortSignal.abort() }),
      );
      expect(error.kind).toBe('cancelled');
      expect(server.seen).toHaveLength(0);
    });
  });
});

describe('renewing after a 401', () => {
  function tokenServer() {
    return fakeServer((request, response) =>
      request.headers.authorization === 'Bearer fresh'
        ? json(response, 200, USER)
        : json(response, 401, errorBody(401, 'Unauthorized', 'Token expired', request.url)),
    );
  }

  function renewingCredentials(renews: boolean) {
    let current = 'stale';
    const rejected: string[] = [];
    const credentials: Credentials = {
      token: async () => current,
      renewAfter401: async (token) => {
        rejected.push(token);
        if (renews) current = 'fresh';
        return renews;
      },
    };
    return { credentials, rejected };
  }

  test('an access route retries once with the renewed token', async () => {
    const server = await tokenServer();
    const { credentials, rejected } = renewingCredentials(true);
    await expect(client(server, { credentials }).currentUser({})).resolves.toMatchObject({
      email: USER.email,
    });
    expect(rejected).toEqual(['stale']);
    expect(server.seen.map((seen) => seen.headers.authorization)).toEqual([
      'Bearer stale',
      'Bearer fresh',
    ]);
  });

  test('no renewal possible: signed out, said in words, not as the server 401', async () => {
    const server = await tokenServer();
    const { credentials, rejected } = renewingCredentials(false);
    const error = await rejection(client(server, { credentials }).currentUser({}));
    expect(error).toMatchObject({
      kind: 'signedOut',
      status: 401,
      path: '/auth/me',
      message: 'Your session had ended, so this was not done: sign in again, then try again.',
    });
    expect(rejected).toEqual(['stale']);
    expect(server.seen).toHaveLength(1);
  });

  test('never for refresh routes nor with an explicit token', async () => {
    const server = await tokenServer();
    const { credentials, rejected } = renewingCredentials(true);
    const api = client(server, { credentials });
    expect((await rejection(api.refreshToken({}))).status).toBe(401);
    expect((await rejection(api.currentUser({}, { token: 'explicit' }))).status).toBe(401);
    expect(rejected).toEqual([]);
    expect(server.seen).toHaveLength(2);
  });
});

describe('logging', () => {
  test('a cancelled call is logged as traffic (info, left out of main.log), a timeout as a problem', async () => {
    const server = await fakeServer(() => {}); // never answers
    const records: { level: string; message: string }[] = [];
    const log: Logger = {
      info: (message) => records.push({ level: 'info', message }),
      warn: (message) => records.push({ level: 'warn', message }),
      error: (message) => records.push({ level: 'error', message }),
    };
    const api = client(server, { log });
    const controller = new AbortController();
    const cancelled = api.listPlants({}, { signal: controller.signal });
    await vi.waitFor(() => expect(server.seen).toHaveLength(1));
    controller.abort();
    expect((await rejection(cancelled)).kind).toBe('cancelled');
    expect((await rejection(api.listPlants({}, { timeoutMs: 100 }))).kind).toBe('timeout');
    expect(records).toEqual([
      { level: 'info', message: 'GET /plants cancelled' },
      { level: 'warn', message: 'GET /plants timeout' },
    ]);
  });

  test('method, path, status and duration; never tokens, query values or bodies', async () => {
    const server = await fakeServer((_request, response, index) =>
      index === 0 ? json(response, 503, {}) : json(response, 200, EMPTY_PAGE),
    );
    const records: { level: string; message: string; fields?: LogFields }[] = [];
    const log: Logger = {
      info: (message, fields) => records.push({ level: 'info', message, fields }),
      warn: (message, fields) => records.push({ level: 'warn', message, fields }),
      error: (message, fields) => records.push({ level: 'error', message, fields }),
    };
    await client(server, { log, credentials: staticToken('secret-token') }).listPlants({
      query: { search: 'private-search' },
    });
    expect(records.map((record) => [record.level, record.message])).toEqual([
      ['warn', 'GET /plants 503'],
      ['info', 'GET /plants 200'],
    ]);
    expect(records[1]!.fields).toMatchObject({
      route: 'listPlants',
      method: 'GET',
      path: '/plants',
      status: 200,
      attempt: 2,
    });
    expect(typeof records[1]!.fields!.ms).toBe('number');
    const text = JSON.stringify(records);
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('private-search');
  });
});

describe('tokens bound to their server', () => {
  test('a token is not sent when the address no longer is the server that issued it', async () => {
    const moved = await fakeServer((_request, response) => response.writeHead(200).end('{}'));
    const client = createApiClient({ baseUrl: moved.url });
    const error = await client
      .currentUser({}, { token: 'issued-elsewhere', tokenOrigin: 'https://api.example' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('signedOut');
    expect(moved.seen).toEqual([]);
  });

  test('credentials are asked for the address the call goes to', async () => {
    const server = await fakeServer((_request, response) =>
      response.writeHead(401, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          timestamp: 'x',
          status: 401,
          error: 'Unauthorized',
          message: 'no',
          path: '/auth/me',
        }),
      ),
    );
    const asked: string[] = [];
    const credentials: Credentials = {
      token: async (_auth, targetUrl) => {
        asked.push(targetUrl);
        return undefined;
      },
      renewAfter401: async () => false,
    };
    const client = createApiClient({ baseUrl: server.url, credentials });
    const error = await client.currentUser({}).catch((caught: unknown) => caught);
    expect((error as ApiError).kind).toBe('signedOut');
    expect(asked).toEqual([`${server.url}/auth/me`]);
    expect(server.seen).toEqual([]);
  });
});
