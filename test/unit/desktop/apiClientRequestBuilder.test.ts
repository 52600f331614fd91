import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { routes } from '../../../api/routes.ts';
import { RedirectRefused } from '../../../electron/services/api/transport.ts';
import { ApiError, describeZodIssues } from '../../../electron/services/api/apiError.ts';
import { sayIn } from '../../../electron/services/hostText.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { backoffDelay, retryAfterMs } from '../../../electron/services/api/apiClient.ts';
import {
  buildPath,
  buildRequest,
  buildSearch,
  displayBaseUrl,
  isLoopbackUrl,
  joinUrl,
} from '../../../electron/services/api/requestBuilder.ts';

const PLANT = '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f';
const SENSOR = '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a';

function invalidArguments(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalidArguments');
    return error as ApiError;
  }
  throw new Error('expected an invalidArguments ApiError');
}

describe('buildPath', () => {
  test('fills every placeholder of a route', () => {
    expect(buildPath(routes.getSensor.path, { plantUuid: PLANT, sensorUuid: SENSOR })).toBe(
      `/plants/${PLANT}/sensors/${SENSOR}`,
    );
  });

  test('percent-encodes a value so that it stays one segment', () => {
    expect(buildPath('/plants/{plantUuid}', { plantUuid: 'a/b?c#d e%' })).toBe(
      '/plants/a%2Fb%3Fc%23d%20e%25',
    );
    expect(buildPath('/plants/{plantUuid}', { plantUuid: 'Grüße 🌞' })).toBe(
      `/plants/${encodeURIComponent('Grüße 🌞')}`,
    );
    expect(buildPath('/plants/{plantUuid}', { plantUuid: 'a..b' })).toBe('/plants/a..b');
  });

  test('sends a lone surrogate as U+FFFD, as browsers do', () => {
    expect(buildPath('/plants/{plantUuid}', { plantUuid: 'x\uD800' })).toBe('/plants/x%EF%BF%BD');
  });

  test('a missing, empty or dot-segment parameter is an error naming it', () => {
    expect(invalidArguments(() => buildPath('/plants/{plantUuid}', {})).message).toBe(
      "Path parameter 'plantUuid' is missing",
    );
    expect(invalidArguments(() => buildPath('/plants/{plantUuid}', undefined)).message).toContain(
      'plantUuid',
    );
    for (const value of ['', '.', '..']) {
      invalidArguments(() => buildPath('/plants/{plantUuid}', { plantUuid: value }));
    }
    invalidArguments(() => buildPath('/plants/{plantUuid}', { plantUuid: { id: 1 } }));
  });
});

describe('buildSearch', () => {
  test('lists become repeated parameters, sort entries keep their commas', () => {
    expect(buildSearch({ sort: ['name,desc', 'createdAt'], page: 2, size: 5 })).toBe(
      '?sort=name%2Cdesc&sort=createdAt&page=2&size=5',
    );
  });

  test('undefined and null are left out; booleans are true/false', () => {
    expect(
      buildSearch({ search: undefined, mode: null, includeRelationships: true, x: false }),
    ).toBe('?includeRelationships=true&x=false');
    expect(buildSearch({})).toBe('');
    expect(buildSearch(undefined)).toBe('');
    expect(buildSearch({ plantUuids: [] })).toBe('');
  });

  test('spaces are %20 and reserved characters are encoded', () => {
    expect(buildSearch({ search: 'Demo Home & co=1+2' })).toBe(
      '?search=Demo%20Home%20%26%20co%3D1%2B2',
    );
  });

  test('objects and non-finite numbers are refused', () => {
    invalidArguments(() => buildSearch({ page: Number.NaN }));
    invalidArguments(() => buildSearch({ filter: { a: 1 } }));
  });
});

describe('buildRequest', () => {
  test('GET with params and query, no body', () => {
    expect(
      buildRequest(routes.listDevices, {
        params: { plantUuid: PLANT },
        query: { search: 'heat pump', includeRelationships: true },
      }),
    ).toEqual({
      method: 'GET',
      path: `/plants/${PLANT}/devices`,
      search: '?search=heat%20pump&includeRelationships=true',
      body: undefined,
    });
  });

  test('a body is JSON text, only for routes that take one', () => {
    const built = buildRequest(routes.login, { body: { email: 'a@b.c', password: 'x' } });
    expect(built).toMatchObject({ method: 'POST', path: '/auth/login', search: '' });
    expect(JSON.parse(built.body!)).toEqual({ email: 'a@b.c', password: 'x' });
    expect(buildRequest(routes.currentUser, { body: { ignored: true } } as never).body).toBe(
      undefined,
    );
    invalidArguments(() => buildRequest(routes.createPlant, { body: { n: 1n } }));
  });
});

describe('joinUrl and friends', () => {
  test('keeps a base path prefix, with or without a trailing slash', () => {
    expect(joinUrl('https://host.example/api', '/plants?page=1')).toBe(
      'https://host.example/api/plants?page=1',
    );
    expect(joinUrl('https://host.example/api/', '/plants')).toBe('https://host.example/api/plants');
    expect(joinUrl('http://127.0.0.1:8080', '/plants')).toBe('http://127.0.0.1:8080/plants');
    expect(joinUrl('http://127.0.0.1:8080/', '/plants')).toBe('http://127.0.0.1:8080/plants');
  });

  test('refuses addresses that are not http or https', () => {
    invalidArguments(() => joinUrl('ftp://host.example', '/plants'));
    invalidArguments(() => joinUrl('not a url', '/plants'));
  });

  test('displayBaseUrl drops credentials and query', () => {
    expect(displayBaseUrl('https://user:secret@host.example/api/?x=1')).toBe(
      'https://host.example/api',
    );
  });

  test('isLoopbackUrl', () => {
    expect(isLoopbackUrl('http://127.0.0.1:3000/plants')).toBe(true);
    expect(isLoopbackUrl('http://localhost:3000')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:3000')).toBe(true);
    expect(isLoopbackUrl('https://api.example.com')).toBe(false);
    expect(isLoopbackUrl('http://127.0.0.1.example.com')).toBe(false);
  });
});

describe('retry timing', () => {
  const policy = { baseDelayMs: 250, maxDelayMs: 4_000 };

  test('backoff doubles, is capped, and jitters within [half, full]', () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, policy, () => 1))).toEqual([
      250, 500, 1000, 2000, 4000, 4000,
    ]);
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, policy, () => 0))).toEqual([
      125, 250, 500, 1000, 2000, 2000,
    ]);
  });

  test('Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(undefined);
    expect(retryAfterMs(undefined, now)).toBe(undefined);
  });
});

describe('ApiError', () => {
  const request = { method: 'GET', path: '/plants/x' };

  test('takes status, error, message and path from the error body', () => {
    const body = {
      timestamp: '2025-01-01T00:00:00Z',
      status: 404,
      error: 'Not Found',
      message: 'Plant x not found',
      path: '/plants/x',
    };
    const error = ApiError.fromResponse({ status: 404, data: JSON.stringify(body) }, request);
    expect(error.toSerialized()).toEqual({
      kind: 'api',
      status: 404,
      error: 'Not Found',
      message: 'Plant x not found',
      path: '/plants/x',
    });
    expect(error).toBeInstanceOf(Error);
  });

  test('falls back to the HTTP status when the body is not the error shape', () => {
    const error = ApiError.fromResponse(
      { status: 502, statusText: 'Bad Gateway', data: '<html><h1>502 Bad Gateway</h1></html>' },
      request,
    );
    expect(error.toSerialized()).toEqual({
      kind: 'api',
      status: 502,
      error: 'Bad Gateway',
      message: 'GET /plants/x failed: 502 Bad Gateway',
      path: '/plants/x',
    });
  });

  test('a redirect names its target', () => {
    const error = ApiError.fromResponse(
      { status: 301, data: '', headers: { location: 'https://new.example/api/plants' } },
      request,
    );
    expect(error.message).toContain('https://new.example/api/plants');
    expect(error.status).toBe(301);
  });

  test('network errors say which server and why, from undici and Chromium alike', () => {
    const label = { method: 'GET', path: '/plants' };
    const serialized = (error: unknown) =>
      ApiError.fromTransportError(error, 'http://127.0.0.1:9', label).toSerialized();
    const refused = {
      kind: 'network',
      message: 'Could not reach http://127.0.0.1:9: connection refused',
    };
    // Node's fetch: "fetch failed", the socket's code on its cause.
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(serialized(new TypeError('fetch failed', { cause }))).toEqual(refused);
    // Electron's net.fetch: Chromium's error name in the message.
    expect(serialized(new Error('net::ERR_CONNECTION_REFUSED'))).toEqual(refused);
    // A proxy's failure is the proxy's, whichever stack says it.
    expect(serialized(new Error('net::ERR_PROXY_CONNECTION_FAILED'))).toEqual({
      kind: 'proxy',
      message:
        "The proxy for http://127.0.0.1:9 could not be reached. Check this computer's proxy settings (in browser mode: HTTPS_PROXY, HTTP_PROXY and NO_PROXY) and that you are on the company network or its VPN.",
    });
    expect(serialized(new Error('net::ERR_UNSAFE_PORT')).message).toMatch(/refuses this port/);
    // A code without words of its own is shown as the stack gave it, "fetch failed" skipped.
    expect(serialized(new Error('net::ERR_SSL_PROTOCOL_ERROR')).message).toBe(
      'Could not reach http://127.0.0.1:9: net::ERR_SSL_PROTOCOL_ERROR',
    );
    const odd = Object.assign(new Error('unexpected proxy answer'), { code: 'UND_ERR_X' });
    expect(serialized(new TypeError('fetch failed', { cause: odd })).message).toBe(
      'Could not reach http://127.0.0.1:9: unexpected proxy answer',
    );
    expect(serialized(new DOMException('aborted', 'AbortError')).kind).toBe('cancelled');
    expect(serialized(new RedirectRefused())).toEqual({
      kind: 'api',
      path: '/plants',
      message:
        'The server answered GET /plants with a redirect; PlantDesk does not follow redirects: use the final address for the environment',
    });
  });

  test('timeouts, cancellation and contract mismatches read well', () => {
    expect(ApiError.timeout({ method: 'GET', path: '/plants' }, 30_000).message).toBe(
      'GET /plants timed out after 30 sec',
    );
    expect(ApiError.timeout({ method: 'GET', path: '/x' }, 1500).message).toBe(
      'GET /x timed out after 1.5 sec',
    );
    // In the language of the moment, also through the host's sayIn (the API client's words).
    let language = createTranslator('de');
    const say = sayIn(() => language);
    expect(ApiError.timeout({ method: 'GET', path: '/x' }, 1500, say).message).toBe(
      'GET /x: keine Antwort nach 1,5 Sek.',
    );
    language = createTranslator('it');
    expect(ApiError.timeout({ method: 'GET', path: '/x' }, 200, say).message).toBe(
      'GET /x: nessuna risposta dopo 200 ms',
    );
    expect(ApiError.cancelled().toSerialized()).toEqual({
      kind: 'cancelled',
      message: 'Request cancelled',
    });
    const zodError = z.object({ name: z.string() }).safeParse({}).error!;
    expect(describeZodIssues(zodError)).toMatch(/^name: /);
    expect(
      ApiError.invalidResponse({ method: 'GET', path: '/plants' }, describeZodIssues(zodError))
        .message,
    ).toMatch(/^The server's answer to GET \/plants does not match the contract: name: /);
  });

  test('a broken answer is described in the language of the moment, three issues at most', () => {
    const shape = z.object({
      name: z.string(),
      peak: z.number().min(0.5),
      tags: z.array(z.string()).max(1),
      a: z.string(),
      b: z.string(),
    });
    const error = shape.safeParse({ peak: 0.2, tags: ['x', 'y'] }).error!;
    expect(describeZodIssues(error)).toBe(
      'name: Required; peak: Must be at least 0.5; tags: At most 1 entry (and 2 more issues)',
    );
    expect(describeZodIssues(error, createTranslator('de'))).toBe(
      'name: Pflichtfeld; peak: Muss mindestens 0,5 sein; tags: Höchstens 1 Eintrag (und 2 weitere Probleme)',
    );
    const one = z.object({ name: z.string() }).safeParse({}).error!;
    expect(describeZodIssues(one, createTranslator('it'))).toBe('name: Campo obbligatorio');
  });
});
