import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes, type RouteId, type RouteSpec } from '../../api/index.ts';
import { reasonPhrase } from '../../server/http/errors.ts';
import { freshLogin } from '../support/entities.ts';
import { DEMO_ACCOUNTS, expectErrorBody, MISSING_UUID, TestServer } from '../support/testServer.ts';

/**
 * Malformed paths, query strings, headers and bodies thrown at every route of the table, with a
 * valid admin token and without: no answer may be a 5xx, and every 4xx carries the error body.
 */

const RUNS_PER_ROUTE = 100;
/** Per route, so that a slow machine runs fewer cases rather than blowing the file's budget. */
const TIME_LIMIT_PER_ROUTE_MS = 1_200;

let server: TestServer;
const runtime = { admin: '', refresh: '', demoPlant: '' };

beforeAll(async () => {
  server = await TestServer.start({
    // Fuzzed logins fail a lot; the throttle answering 429 would hide the login handler.
    loginThrottle: { maxFailuresPerAccount: 1_000_000 },
  });
  runtime.admin = await server.tokenFor('admin');
  runtime.refresh = (
    await freshLogin(server, DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password)
  ).refreshToken;
  runtime.demoPlant = await server.demoPlantUuid();
});

afterAll(async () => {
  await server?.close();
});

// ── Building blocks ────────────────────────────────────────────────────────────

/** Percent-encodes every byte but the unreserved ones; survives lone surrogates. */
function encode(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Placeholders resolved when the request is made (the values exist only after `beforeAll`). */
function resolve(text: string): string {
  return text
    .replaceAll('@demo', runtime.demoPlant)
    .replaceAll('@admin', runtime.admin)
    .replaceAll('@refresh', runtime.refresh);
}

const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20, unit: 'grapheme' }),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.string({ maxLength: 20, unit: 'binary-ascii' }),
);

const printableAscii = fc.string({
  maxLength: 60,
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
});

/** One path segment, already in URL form. */
const pathSegment = fc.oneof(
  fc.constantFrom('@demo', MISSING_UUID, MISSING_UUID.toUpperCase(), '@demo'.toUpperCase()),
  fc.uuid().map(encode),
  anyText.filter((text) => text.length > 0).map(encode),
  fc.string({ minLength: 190, maxLength: 260 }).map(encode),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%2F',
    '%2e%2e',
    '..',
    '.',
    '%C0%AF',
    '%FF%FE',
    '9'.repeat(5000),
    `${MISSING_UUID}%00`,
    ' ',
  ),
);

const numberText = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '99999999999999999999',
    '-0',
    'NaN',
    'Infinity',
    '-1',
    '0',
    '200',
    '201',
    '0x10',
    ' 5 ',
    '',
    '1.5',
    '+3',
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
);

function queryKey(route: RouteSpec) {
  const known = Object.keys(route.query?.shape ?? {});
  return fc.oneof(
    ...(known.length > 0 ? [fc.constantFrom(...known)] : []),
    fc.constantFrom(
      'page',
      'size',
      'sort',
      'search',
      '__proto__',
      'constructor',
      'page[]',
      'size[a]',
      'a.b',
      '',
    ),
    anyText,
  );
}

const queryValue = fc.oneof(
  anyText,
  numberText,
  fc.uuid(),
  fc.constantFrom(
    '@demo',
    'name,desc',
    'name,colour,asc',
    'true',
    'false',
    'config',
    'not_config',
    ',,,',
    `${MISSING_UUID},x`,
  ),
);

function queryString(route: RouteSpec) {
  const encodedPair = fc
    .tuple(queryKey(route), queryValue)
    .map(([key, value]) => `${encode(key)}=${encode(value)}`);
  const rawPair = fc.constantFrom(
    'search=%E0%A4%A',
    'page=%',
    'size',
    '=',
    '&&',
    'sort=%00',
    'a=%ZZ',
  );
  return fc
    .array(fc.oneof({ weight: 4, arbitrary: encodedPair }, { weight: 1, arbitrary: rawPair }), {
      maxLength: 6,
    })
    .chain((pairs) =>
      // Sometimes repeat a parameter, as clients do for lists.
      fc.boolean().map((repeat) => (repeat && pairs.length > 0 ? [...pairs, pairs[0]!] : pairs)),
    )
    .map((pairs) => (pairs.length > 0 ? `?${pairs.join('&')}` : ''));
}

const authorization = fc.oneof(
  { weight: 4, arbitrary: fc.constant('Bearer @admin') },
  { weight: 2, arbitrary: fc.constant(null) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic YWRtaW46YWRtaW4=',
        'Bearer @refresh',
        'bearer @admin',
        'Bearer @admin.x',
        'Bearer @adminA',
        'Bearer a.b.c',
        'Bearer ..',
        'Bearer ====',
        'Token @admin',
        `Bearer ${'x'.repeat(8000)}`,
        // Over Node's header size limit: refused before any route runs.
        `Bearer ${'x'.repeat(20_000)}`,
      ),
      printableAscii.map((text) => `Bearer ${text}`),
      printableAscii,
    ),
  },
);

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      '*/*',
      'json',
      '',
    ),
    printableAscii,
  ),
);

function nested(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

function bodyText(route: RouteSpec) {
  const fields = Object.keys((route.body as { shape?: object } | undefined)?.shape ?? {});
  const fieldName = fields.length > 0 ? fc.oneof(fc.constantFrom(...fields), anyText) : anyText;
  return fc.option(
    fc.oneof(
      // Right field names, any JSON values: type confusion.
      fc
        .dictionary(fieldName, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
        .map((value) => JSON.stringify(value)),
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc.integer({ min: 50, max: 20_000 }).map((depth) => nested(depth, '[', ']', '')),
      fc.integer({ min: 50, max: 20_000 }).map((depth) => nested(depth, '{"a":', '}', '1')),
      fc.constantFrom(
        '{',
        '{"a":}',
        'nul',
        '[1,]',
        '\u0000',
        '{"name":1e999}',
        '{"__proto__":{"polluted":true}}',
        '{"name":"\\ud800"}',
        '"\\u0000"',
      ),
      anyText,
    ),
  );
}

interface FuzzRequest {
  pathParams: string[];
  query: string;
  authorization: string | null;
  contentType: string | null;
  body: string | null;
}

function requestArbitrary(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const placeholders = route.path.match(/\{\w+\}/g) ?? [];
  return fc.record({
    pathParams: fc.tuple(...placeholders.map(() => pathSegment)) as fc.Arbitrary<string[]>,
    query: queryString(route),
    authorization,
    contentType,
    // fetch refuses a body on GET.
    body: route.method === 'GET' ? fc.constant(null) : bodyText(route),
  });
}

async function send(route: RouteSpec, request: FuzzRequest) {
  let index = 0;
  const path = route.path.replace(/\{\w+\}/g, () => resolve(request.pathParams[index++]!));
  const headers: Record<string, string> = {};
  if (request.authorization !== null) headers.authorization = resolve(request.authorization);
  if (request.contentType !== null) headers['content-type'] = request.contentType;
  return server.request(
    route.method,
    `${path}${request.query.replaceAll('@demo', runtime.demoPlant)}`,
    {
      headers,
      ...(request.body !== null && { rawBody: request.body }),
    },
  );
}

// ── The properties ─────────────────────────────────────────────────────────────

const ROUTES = Object.entries(routes as Record<RouteId, RouteSpec>) as [RouteId, RouteSpec][];

/** Every status the API answers; anything else (a stray 415 or 414, say) is a finding. */
const KNOWN_STATUSES = [200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 413, 422, 429, 431];

describe.each(
  ROUTES.map(([id, route]) => [`${id}: ${route.method} ${route.path}`, route] as const),
)('%s', (_name, route) => {
  test('no 5xx; every 4xx has the error body', async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(route), async (request) => {
        const response = await send(route, request);
        expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBeLessThan(500);
        expect(KNOWN_STATUSES).toContain(response.status);
        if (response.status >= 400) {
          const body = expectErrorBody(response, response.status);
          expect(body.error).toBe(reasonPhrase(response.status));
          expect(body.path).not.toContain('?');
        }
      }),
      {
        numRuns: RUNS_PER_ROUTE,
        plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_PER_ROUTE_MS)],
      },
    );
  });
});

test('the server survived the fuzzing', async () => {
  const response = await server.request('GET', '/auth/me', { token: runtime.admin });
  expect(response.status).toBe(200);
});
