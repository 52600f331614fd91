import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorBody } from '../../api/index.ts';
import { createPlant } from '../support/entities.ts';
import { expectErrorBody, MISSING_UUID, newPlantBody, TestServer } from '../support/testServer.ts';

let server: TestServer;
let admin: string;
let demoPlant: string;

beforeAll(async () => {
  server = await TestServer.start();
  admin = await server.tokenFor('admin');
  demoPlant = await server.demoPlantUuid();
});

afterAll(async () => {
  await server?.close();
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Sends bytes as they are over a socket: for requests `fetch` refuses to make. */
function rawHttp(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
    socket.write(request);
  });
}

function parseRawAnswer(answer: string): { status: number; headers: string; body: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, headers: head, body: body ? JSON.parse(body) : undefined };
}

describe('the error body', () => {
  test('has exactly the specified fields, an ISO timestamp and the reason phrase', async () => {
    const before = Date.now();
    const response = await server.request('GET', '/nowhere');
    const body = expectErrorBody(response, 404, '/nowhere');
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'path', 'status', 'timestamp']);
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(body.timestamp).toMatch(ISO_WITH_OFFSET);
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.timestamp)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(body.error).toBe('Not Found');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  test('path is the path without the query string', async () => {
    expectErrorBody(await server.request('GET', '/nowhere?secret=1&x=2'), 404, '/nowhere');
    const response = await server.request('GET', '/plants', {
      token: admin,
      query: { size: 999, search: 'private words' },
    });
    expectErrorBody(response, 400, '/plants');
    expect(JSON.stringify(response.body)).not.toContain('private words');
  });

  test.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [405, 'Method Not Allowed'],
    [409, 'Conflict'],
  ])('%i is called %s', async (status, phrase) => {
    const manager = await server.tokenFor('manager');
    const requests: Record<number, () => Promise<any>> = {
      400: () => server.request('GET', '/plants', { token: admin, query: { page: -1 } }),
      401: () => server.request('GET', '/plants'),
      403: () => server.request('POST', '/plants', { token: manager, body: newPlantBody() }),
      404: () => server.request('GET', `/plants/${MISSING_UUID}`, { token: admin }),
      405: () => server.request('PATCH', '/plants'),
      409: () =>
        server.request('POST', '/plants', {
          token: admin,
          body: newPlantBody({ externalIds: ['DEMO-HOME-001'] }),
        }),
    };
    const body = expectErrorBody(await requests[status]!(), status);
    expect(body.error).toBe(phrase);
  });
});

describe('routing errors', () => {
  test.each(['/nowhere', '/plants/x/y/z/w', '/auth', '/plantsx', '/PLANTS'])(
    'GET %s → 404 naming method and path',
    async (path) => {
      const body = expectErrorBody(await server.request('GET', path, { token: admin }), 404, path);
      expect(body.message).toBe(`No route for GET ${path}`);
    },
  );

  test('an unknown route is 404 with or without a token (nothing to authenticate)', async () => {
    expectErrorBody(await server.request('POST', '/nowhere', { body: {} }), 404);
  });

  test.each([
    ['DELETE', '/plants', ['GET', 'POST']],
    ['PATCH', '/plants', ['GET', 'POST']],
    ['PATCH', `/plants/${MISSING_UUID}`, ['DELETE', 'GET', 'PUT']],
    ['POST', `/plants/${MISSING_UUID}/devices/${MISSING_UUID}`, ['DELETE', 'GET', 'PUT']],
    ['GET', '/auth/login', ['POST']],
    ['DELETE', '/auth/me', ['GET']],
    ['OPTIONS', '/plants', ['GET', 'POST']],
  ] as const)('%s %s → 405 with Allow', async (method, path, allowed) => {
    const response = await server.request(method, path, { token: admin });
    const body = expectErrorBody(response, 405, path);
    const allow = (response.headers.get('allow') ?? '').split(/,\s*/).sort();
    expect(allow).toEqual([...allowed]);
    for (const name of allowed) expect(body.message).toContain(name);
    expect(body.message).toContain(method);
  });

  test('a trailing slash is the same route', async () => {
    const response = await server.request('GET', '/plants/', { token: admin });
    expect(response.status).toBe(200);
  });
});

describe('request bodies', () => {
  test.each([
    ['{"name":', 'truncated'],
    ["{'name':'x'}", 'single quotes'],
    ['{"name":"x",}', 'trailing comma'],
    ['name=x&location=y', 'a form'],
    ['\u0000\u0001', 'binary'],
  ])('%s (%s) → 400 naming the problem', async (rawBody) => {
    const response = await server.request('POST', '/plants', {
      token: admin,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    const body = expectErrorBody(response, 400, '/plants');
    expect(body.message).toMatch(/^Malformed JSON request body/);
  });

  test.each([
    ['{"name":"x","__proto__":{"polluted":true}}', '__proto__'],
    ['{"name":"x","metadata":{"constructor":{"prototype":{"polluted":true}}}}', 'constructor'],
  ])(
    'a body with a prototype-poisoning key (%s) is a 400, and no prototype changes',
    async (rawBody) => {
      const response = await server.request('POST', '/plants', {
        token: admin,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      const body = expectErrorBody(response, 400, '/plants');
      expect(body.message).toBe(
        'Malformed JSON request body: Object contains forbidden prototype property',
      );
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    },
  );

  test('"constructor" as an ordinary key (no prototype under it) is still accepted', async () => {
    const response = await server.request('POST', '/plants', {
      token: admin,
      rawBody: JSON.stringify(newPlantBody({ metadata: { constructor: 'Acme' } })),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(201);
    expect(response.body.metadata).toEqual({ constructor: 'Acme' });
  });

  test.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/octet-stream',
    'application/x-www-form-urlencoded',
  ])('a JSON body sent as %s is accepted', async (contentType) => {
    const response = await server.request('POST', '/plants', {
      token: admin,
      rawBody: JSON.stringify(newPlantBody({ name: `Sent as ${contentType}` })),
      headers: { 'content-type': contentType },
    });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(`Sent as ${contentType}`);
  });

  test('a JSON body without a content type is accepted', async () => {
    const token = admin;
    const body = JSON.stringify(newPlantBody({ name: 'No content type' }));
    const answer = parseRawAnswer(
      await rawHttp(
        server.server.port,
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.name).toBe('No content type');
  });

  test.each(['', 'json', '/', 'a/b c'])(
    'an unparseable Content-Type %j → 400 naming the header',
    async (contentType) => {
      const response = await server.request('POST', '/plants', {
        token: admin,
        rawBody: JSON.stringify(newPlantBody()),
        headers: { 'content-type': contentType },
      });
      const body = expectErrorBody(response, 400, '/plants');
      expect(body.message).toBe('Malformed Content-Type header');
    },
  );

  test('a Content-Type with odd parameters still reads the JSON body', async () => {
    for (const contentType of ['application/json; charset', 'application/json;;']) {
      const response = await server.request('POST', '/plants', {
        token: admin,
        rawBody: JSON.stringify(newPlantBody()),
        headers: { 'content-type': contentType },
      });
      expect(response.status, contentType).toBe(201);
    }
  });

  test.each([
    ['null', 'expected object'],
    ['[]', 'expected object'],
    ['"a string"', 'expected object'],
    ['42', 'expected object'],
  ])('body %s → 400', async (rawBody, text) => {
    const response = await server.request('POST', '/plants', {
      token: admin,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(expectErrorBody(response, 400).message).toContain(text);
  });

  test('each invalid field is listed in `errors` with its own message (extension)', async () => {
    const response = await server.request('POST', '/plants', {
      token: admin,
      body: newPlantBody({
        name: '',
        location: { latitude: 91, longitude: 7.69, timezone: 'Europe/Rome' },
      }),
    });
    const body = expectErrorBody(response, 400, '/plants') as ReturnType<typeof expectErrorBody> & {
      errors?: { field: string; message: string }[];
    };
    expect(body.errors?.map((error) => error.field).sort()).toEqual(['location.latitude', 'name']);
    // `message` is the same refusals joined, for clients that read only the specification's body.
    expect(body.message).toBe(body.errors!.map((error) => error.message).join('; '));
    for (const error of body.errors!) expect(error.message).toContain(`'${error.field}'`);
  });

  test('a refusal about no field in particular has no `errors`', async () => {
    const response = await server.request('POST', '/plants', {
      token: admin,
      rawBody: '[]',
      headers: { 'content-type': 'application/json' },
    });
    expect(expectErrorBody(response, 400)).not.toHaveProperty('errors');
  });

  describe('with a small body limit', () => {
    let small: TestServer;
    const LIMIT = 1024;

    beforeAll(async () => {
      small = await TestServer.start({ bodyLimitBytes: LIMIT });
    });

    afterAll(async () => {
      await small?.close();
    });

    test('a body over the limit → 413 with the error body', async () => {
      const token = await small.tokenFor('admin');
      const response = await small.request('POST', '/plants', {
        token,
        body: newPlantBody({ metadata: { padding: 'x'.repeat(LIMIT * 2) } }),
      });
      const body = expectErrorBody(response, 413, '/plants');
      expect(body.error).toBe('Payload Too Large');
      expect(body.message).toContain(String(LIMIT));
    });

    test('a body just under the limit is fine', async () => {
      const token = await small.tokenFor('admin');
      const body = newPlantBody({ metadata: {} });
      const padding = LIMIT - JSON.stringify({ ...body, metadata: { p: '' } }).length - 1;
      const response = await small.request('POST', '/plants', {
        token,
        body: { ...body, metadata: { p: 'x'.repeat(padding) } },
      });
      expect(response.status).toBe(201);
    });

    test('a large upload still receives its 413 (the server reads it out before answering)', async () => {
      const token = await small.tokenFor('admin');
      const rawBody = JSON.stringify(
        newPlantBody({ metadata: { p: 'x'.repeat(8 * 1024 * 1024) } }),
      );
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () =>
          small
            .request('POST', '/plants', {
              token,
              rawBody,
              headers: { 'content-type': 'application/json' },
            })
            .then((response) => expectErrorBody(response, 413, '/plants').status),
        ),
      );
      expect(statuses).toEqual([413, 413, 413, 413, 413]);
    });

    test('413 is answered for an unauthenticated request too, never a 500', async () => {
      const response = await small.request('POST', '/auth/login', {
        rawBody: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(LIMIT * 4) }),
        headers: { 'content-type': 'application/json' },
      });
      expectErrorBody(response, 413, '/auth/login');
    });
  });
});

describe('nasty inputs never produce a 500', () => {
  const deepArray = '['.repeat(20_000) + ']'.repeat(20_000);
  const deepObject = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

  test.each([
    { name: 'a percent-encoding that does not decode', method: 'GET', path: '/plants/%E0%A4%A' },
    { name: 'a lone percent sign', method: 'GET', path: '/plants/%' },
    { name: 'a NUL in the path', method: 'GET', path: '/plants/%00' },
    { name: 'a 300-character id', method: 'GET', path: `/plants/${'a'.repeat(300)}` },
    { name: 'a 5000-character id', method: 'DELETE', path: `/plants/${'9'.repeat(5000)}` },
    { name: 'dot segments', method: 'GET', path: '/plants/%2e%2e/%2e%2e/auth/me' },
    { name: 'an encoded slash', method: 'GET', path: `/plants/${MISSING_UUID}%2Fdevices` },
    { name: 'unicode in the path', method: 'GET', path: '/plants/%F0%9F%8C%9E' },
    { name: 'a huge page', method: 'GET', path: '/plants?page=1e400&size=99999999999999999999' },
    { name: 'bracket query keys', method: 'GET', path: '/plants?page[]=1&size[a]=2&sort[]=name' },
    {
      name: 'prototype keys in the query',
      method: 'GET',
      path: '/plants?__proto__=x&constructor=y&toString=z',
    },
    { name: 'a bad percent in the query', method: 'GET', path: '/plants?search=%E0%A4%A' },
    { name: 'many repeated params', method: 'GET', path: `/plants?${'plantUuids=a&'.repeat(500)}` },
    {
      name: 'prototype keys in the body',
      method: 'POST',
      path: '/plants',
      rawBody: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}',
    },
    { name: 'deeply nested arrays', method: 'POST', path: '/plants', rawBody: deepArray },
    { name: 'deeply nested objects', method: 'PUT', path: '/plants/DEMO', rawBody: deepObject },
    {
      name: 'huge numbers',
      method: 'POST',
      path: '/plants',
      rawBody: '{"name":"n","location":{"latitude":1e400,"longitude":-1e400,"timezone":"UTC"}}',
    },
    {
      name: 'a lone surrogate',
      method: 'POST',
      path: '/plants',
      rawBody: '{"name":"\\ud800","location":{"latitude":1,"longitude":1,"timezone":"UTC"}}',
    },
    {
      name: 'an overlong time zone',
      method: 'POST',
      path: '/plants',
      rawBody: JSON.stringify(
        newPlantBody({
          location: { latitude: 1, longitude: 1, timezone: 'A/'.repeat(5000) + 'B' },
        }),
      ),
    },
    {
      name: 'metadata with every JSON type',
      method: 'POST',
      path: '/plants',
      rawBody: JSON.stringify(
        newPlantBody({ metadata: { a: null, b: [1, 'x', { c: false }], d: 1.5e300 } }),
      ),
    },
    {
      name: 'a body on a DELETE',
      method: 'DELETE',
      path: `/plants/${MISSING_UUID}`,
      rawBody: '{not json',
    },
    { name: 'a body on logout', method: 'POST', path: '/auth/logout', rawBody: '[1,2' },
  ])('$name', async ({ method, path, rawBody }) => {
    const target = path.replace('DEMO', demoPlant);
    const response = await server.request(method, target, {
      token: admin,
      ...(rawBody !== undefined && { rawBody, headers: { 'content-type': 'application/json' } }),
    });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBeLessThan(500);
    if (response.status >= 400) expectErrorBody(response, response.status);
  });

  test.each([
    { path: '/plants?search=%00', field: "query parameter 'search'" },
    { path: '/plant-summaries?externalIds=a%00b', field: "query parameter 'externalIds.0'" },
    { path: '/device-types?search=x%00', field: "query parameter 'search'" },
  ])('a NUL in $path → 400 naming the field, on every engine', async ({ path, field }) => {
    const response = await server.request('GET', path, { token: admin });
    expectErrorBody(response, 400);
    expect(response.body.message).toBe(
      `Invalid ${field}: text must not contain the NUL character (U+0000)`,
    );
  });

  test('a NUL in a body text or key → 400 naming the field', async () => {
    const named = await server.request('POST', '/plants', {
      token: admin,
      body: newPlantBody({ name: 'a\u0000b' }),
    });
    expectErrorBody(named, 400);
    expect(named.body.message).toContain("body field 'name'");
    const keyed = await server.request('POST', '/plants', {
      token: admin,
      body: newPlantBody({ metadata: { 'k\u0000': 1 } }),
    });
    expectErrorBody(keyed, 400);
    expect(keyed.body.message).toContain('NUL character');
  });

  test('a page far past the end (offset beyond 32 bits) is an empty page with the total', async () => {
    const response = await server.request('GET', '/load-signatures', {
      token: admin,
      query: { page: 107_374_183, size: 20 },
    });
    expect(response.status).toBe(200);
    expect(response.body.content).toEqual([]);
    expect(response.body.page).toMatchObject({ number: 107_374_183, size: 20 });
    expect(response.body.page.totalElements).toBeGreaterThan(0);
  });

  test('headers over the size limit → 431 with the error body', async () => {
    const response = await server.request('GET', '/plants?x=1', {
      headers: { authorization: `Bearer ${'a'.repeat(40_000)}` },
    });
    const body = expectErrorBody(response, 431, '/plants');
    expect(body.error).toBe('Request Header Fields Too Large');
  });

  test('a request Node cannot parse → 400 with the error body', async () => {
    const answer = parseRawAnswer(
      await rawHttp(server.server.port, 'GET /plants HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', path: '/plants' });
    expect(ErrorBody.safeParse(answer.body).success).toBe(true);
  });

  test('the server still answers afterwards', async () => {
    expect((await server.request('GET', '/plants', { token: admin })).status).toBe(200);
    await createPlant(server, admin);
  });
});

describe('a server fault', () => {
  test('500 carries the error body without a stack trace or internals', async () => {
    const broken = await TestServer.start();
    try {
      const token = await broken.tokenFor('admin');
      // Closing the database under the running server makes the next query fail.
      await broken.server.context.db.destroy();
      const response = await broken.request('GET', '/plants', { token, query: { search: 'x' } });
      const body = expectErrorBody(response, 500, '/plants');
      expect(body).toEqual({
        timestamp: body.timestamp,
        status: 500,
        error: 'Internal Server Error',
        message: 'Internal server error',
        path: '/plants',
      });
      const text = JSON.stringify(response.body);
      expect(text).not.toMatch(/\bat \S+ \(|\.ts:\d+|stack|kysely|sqlite/i);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });
});
