import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { referenceUuids, type ReferenceUuids } from '../support/referenceData.ts';
import { expectErrorBody, TestServer } from '../support/testServer.ts';

/**
 * What a server reachable from outside must not do: probe its own network for a client, answer
 * for any host name, be framed, or hold a connection for a client that never finishes.
 */

const servers: TestServer[] = [];
async function started(options: Parameters<typeof TestServer.start>[0] = {}) {
  const server = await TestServer.start(options);
  servers.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('sensor connection tests', () => {
  let server: TestServer;
  let catalogs: ReferenceUuids;
  let token: string;
  let plantUuid: string;

  beforeAll(async () => {
    server = await started({ connectionTests: { timeoutMs: 200 } });
    catalogs = await referenceUuids(server);
    token = await server.tokenFor('installer');
    plantUuid = await server.demoPlantUuid();
  });

  const sensorAt = (address: string, uuids = catalogs) => ({
    name: `probe ${address}`,
    sensorTypeUuid: uuids.sensorTypes.POWER_METER,
    connection: { vendorUuid: uuids.vendors.FRONIUS, address },
  });

  test('loopback, metadata-service and private addresses are refused, not probed', async () => {
    for (const address of [
      'modbus://127.0.0.1:502',
      'tcp://[::1]:502',
      'http://169.254.169.254:80',
      'modbus://192.168.1.20:502',
      'modbus://localhost:502',
    ]) {
      const response = await server.request('POST', `/plants/${plantUuid}/sensors`, {
        token,
        body: sensorAt(address),
      });
      expect(expectErrorBody(response, 422).message, address).toMatch(
        /is on a private, loopback, link-local or multicast network, which this server does not connect to/,
      );
    }
  });

  test('a port its scheme does not use is refused before any connection', async () => {
    const response = await server.request('POST', `/plants/${plantUuid}/sensors`, {
      token,
      body: sensorAt('modbus://203.0.113.7:22'),
    });
    expect(expectErrorBody(response, 422).message).toContain(
      'Port 22 is not one that modbus integrations use (502, 1502)',
    );
  });

  test('reruns are limited per user: 429 with Retry-After', async () => {
    const server = await started({ connectionTests: { maxTestsPerMinute: 2, timeoutMs: 200 } });
    const plantUuid = await server.demoPlantUuid();
    const token = await server.tokenFor('installer');
    const saved = await server.request('POST', `/plants/${plantUuid}/sensors`, {
      token,
      body: sensorAt('modbus://127.0.0.1:502', await referenceUuids(server)),
      query: { ignoreConnectionsTest: 'true' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const rerun = () =>
      server.request(
        'POST',
        `/plants/${plantUuid}/sensors/${saved.body.sensorUuid}/connection-test`,
        { token },
      );
    for (let i = 0; i < 2; i++) {
      const answer = await rerun();
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ ok: false, address: 'modbus://127.0.0.1:502' });
    }
    const refused = await rerun();
    expect(expectErrorBody(refused, 429).message).toBe(
      'Too many connection tests; try again in 60 seconds',
    );
    expect(refused.headers.get('retry-after')).toBe('60');
    // Another user is not held back.
    const admin = await server.request(
      'POST',
      `/plants/${plantUuid}/sensors/${saved.body.sensorUuid}/connection-test`,
      { token: await server.tokenFor('admin') },
    );
    expect(admin.status).toBe(200);
  });
});

describe('documentation pages', () => {
  test('/docs forbids framing and loads nothing from elsewhere', async () => {
    const server = await started();
    const response = await server.request('GET', '/docs/');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).not.toMatch(/https:|unsafe-inline|unsafe-eval|upgrade-insecure-requests|\*/);
  });

  test('/openapi.json and every API answer forbid everything a page could do', async () => {
    const server = await started();
    for (const path of ['/openapi.json', '/plants', '/no-such-route']) {
      const response = await server.request('GET', path);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  test('docs: false turns /docs off and keeps /openapi.json', async () => {
    const server = await started({ docs: false });
    expectErrorBody(await server.request('GET', '/docs'), 404);
    expectErrorBody(await server.request('GET', '/docs/static/index.html'), 404);
    expect((await server.request('GET', '/openapi.json')).status).toBe(200);
  });
});

function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      new URL('/openapi.json', url),
      { headers: { host } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('Host names answered', () => {
  test('only its own loopback host and port, for the Local sandbox', async () => {
    const server = await started({ onlyOwnLoopbackHost: true });
    const { port } = server.server;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
    ]) {
      expect((await getWithHost(server.url, host)).status, host).toBe(200);
    }
    for (const host of [
      `rebound.attacker.example:${port}`,
      `127.0.0.1:${port + 1}`,
      'localhost',
      `127.0.0.1.attacker.example:${port}`,
    ]) {
      const answer = await getWithHost(server.url, host);
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 421,
        message: `This server does not answer for host '${host}'`,
      });
    }
  });

  test('the names it is given, for a deployment', async () => {
    const server = await started({ allowedHosts: ['api.plantdesk.example'] });
    expect((await getWithHost(server.url, 'api.plantdesk.example')).status).toBe(200);
    expect((await getWithHost(server.url, `127.0.0.1:${server.server.port}`)).status).toBe(421);
  });

  test('any name by default', async () => {
    const server = await started();
    expect((await getWithHost(server.url, 'whatever.example')).status).toBe(200);
  });
});

describe('slow clients', () => {
  /** Sends the request's start, then one byte of its body every `everyMs`; resolves at close. */
  function trickle(
    url: string,
    everyMs: number,
  ): Promise<{ closedAfterMs: number; answer: string }> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve) => {
      const started = performance.now();
      let answer = '';
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.write(
          `POST /auth/login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
        );
      });
      const timer = setInterval(() => socket.write(' '), everyMs);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfterMs: performance.now() - started, answer });
      });
    });
  }

  test('a body sent a byte at a time is cut off at the request time limit', async () => {
    const server = await started({ timeouts: { requestMs: 600, headersMs: 600 } });
    const { closedAfterMs, answer } = await trickle(server.url, 100);
    expect(closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(closedAfterMs).toBeLessThan(5000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  test('headers that never end are cut off too', async () => {
    const server = await started({ timeouts: { requestMs: 600, headersMs: 600 } });
    const { hostname, port } = new URL(server.url);
    const closedAfterMs = await new Promise<number>((resolve) => {
      const started = performance.now();
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.write('GET /openapi.json HTTP/1.1\r\nHost: x\r\n');
      });
      const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve(performance.now() - started);
      });
    });
    expect(closedAfterMs).toBeLessThan(5000);
  });
});
