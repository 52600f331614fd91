import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApiClient, type ApiClient } from '../../../electron/services/api/apiClient.ts';
import {
  createNodeTransport,
  type NodeTransportOptions,
} from '../../../electron/services/api/transport.ts';
import { testConnection } from '../../../electron/services/plantDesk.ts';
import { netTransport } from '../../../electron/main/netTransport.ts';
import { startTestPlantDesk } from '../../support/testPlantDesk.ts';
import { MISSING_UUID, TestServer } from '../../support/testServer.ts';
import {
  rejection,
  standInSession,
  TRANSPORTS,
  type SessionCall,
} from '../../support/apiTransports.ts';

/**
 * The client on each transport against the real server over loopback, then Node's transport
 * through a forward proxy, as on a corporate network. The server is addressed by a name that no
 * resolver knows (`.test` is reserved), which only the proxy maps to loopback: a request that
 * went around the proxy could not arrive.
 */

const ADMIN = { email: 'admin@plantdesk.test', password: 'admin-pass-1' };
const HIDDEN_HOST = 'api.plantdesk.test';

let server: TestServer;
let demoPlant: string;

beforeAll(async () => {
  server = await TestServer.start();
  demoPlant = await server.demoPlantUuid();
});

afterAll(async () => {
  await server?.close();
});

/** A session's worth of calls; answers what each request line was, as the server saw it. */
async function session(api: ApiClient): Promise<string[]> {
  const tokens = await api.login({ body: ADMIN });
  const token = tokens.accessToken;
  expect((await api.currentUser({}, { token })).email).toBe(ADMIN.email);
  const page = await api.listPlants({ query: { search: 'demo home', size: 5 } }, { token });
  expect(page.content.map((plant) => plant.name)).toContain('Demo Home');
  expect(await api.getPlant({ params: { plantUuid: demoPlant } }, { token })).toMatchObject({
    name: 'Demo Home',
  });
  const missing = await rejection(api.getPlant({ params: { plantUuid: MISSING_UUID } }, { token }));
  expect(missing).toMatchObject({ kind: 'api', status: 404, error: 'Not Found' });
  return [
    'POST /auth/login',
    'GET /auth/me',
    'GET /plants?search=demo%20home&size=5',
    `GET /plants/${demoPlant}`,
    `GET /plants/${MISSING_UUID}`,
  ];
}

describe.each(TRANSPORTS)('the %s against the real server', (_name, transport) => {
  test('a session: sign-in, reads, and an error with its body', async () => {
    await session(createApiClient({ baseUrl: server.url, fetch: transport() }));
  });
});

describe("the host's transport", () => {
  test('carries the connection test, the sign-in and the calls of the services', async () => {
    const calls: SessionCall[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-transport-'));
    const plantDesk = await startTestPlantDesk({
      host: 'electron',
      dataDir,
      clock: '2026-06-21T12:00:00+02:00',
      // What electron/main passes: the net.fetch adapter, here over a stand-in session.
      fetch: netTransport(standInSession(calls)),
    });
    try {
      const { handlers } = plantDesk;
      expect(await handlers['environments.testConnection'](server.url)).toMatchObject({ ok: true });
      const environment = await handlers['environments.add']({
        name: 'Test server',
        kind: 'sandbox',
        baseUrl: server.url,
      });
      await handlers['environments.select'](environment.id);
      expect((await handlers['session.signIn']({ ...ADMIN, remember: false })).status).toBe(
        'signedIn',
      );
      await handlers['api.call']('getPlant', { params: { plantUuid: demoPlant } });
      const sent = calls.map(({ url, init }) => `${init.method} ${url.replace(server.url, '')}`);
      expect(sent).toEqual(
        expect.arrayContaining(['GET /auth/me', 'POST /auth/login', `GET /plants/${demoPlant}`]),
      );
      expect(sent[0]).toBe('GET /auth/me'); // the connection test
    } finally {
      await plantDesk.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

interface TestProxy {
  url: string;
  /** Every request line the proxy received: absolute-URI requests and CONNECTs. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy: absolute-URI requests (plain http) are forwarded, CONNECT opens a tunnel.
 * The hidden host name goes to loopback; with `credentials`, anything without them gets a 407;
 * `refuseConnect`: every CONNECT is answered 403, as a proxy's filter does.
 */
async function startProxy(
  options: { credentials?: string; refuseConnect?: boolean } = {},
): Promise<TestProxy> {
  const { credentials } = options;
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const target = (hostname: string) => (hostname === HIDDEN_HOST ? '127.0.0.1' : hostname);
  const authorized = (request: http.IncomingMessage) =>
    credentials === undefined ||
    request.headers['proxy-authorization'] ===
      `Basic ${Buffer.from(credentials).toString('base64')}`;

  const proxy = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (!authorized(request)) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const url = new URL(request.url ?? '');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      {
        host: target(url.hostname),
        port: url.port,
        method: request.method,
        path: url.pathname + url.search,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  proxy.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${request.url}`);
    if (options.refuseConnect) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    if (!authorized(request)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    const [hostname = '', port = ''] = (request.url ?? '').split(':');
    const upstream = net.connect(Number(port), target(hostname), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream).add(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe("Node's transport behind a corporate proxy (HTTP_PROXY)", () => {
  let proxy: TestProxy | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await proxy?.close();
    proxy = undefined;
  });

  function behind(proxyUrl: string, options?: NodeTransportOptions) {
    vi.stubEnv('HTTP_PROXY', proxyUrl);
    vi.stubEnv('http_proxy', proxyUrl);
    vi.stubEnv('NO_PROXY', '');
    vi.stubEnv('no_proxy', '');
    const hidden = new URL(server.url);
    hidden.hostname = HIDDEN_HOST;
    const baseUrl = hidden.origin;
    // A proxy's refusal is never retried; a network failure would be, quickly here.
    const retry = { attempts: 1, baseDelayMs: 5, maxDelayMs: 5 };
    return {
      baseUrl,
      api: createApiClient({ baseUrl, retry, fetch: createNodeTransport(options) }),
    };
  }

  test('every request goes through the proxy, as an absolute URI', async () => {
    proxy = await startProxy();
    const { baseUrl, api } = behind(proxy.url);
    const lines = await session(api);
    expect(proxy.seen).toEqual(lines.map((line) => line.replace(' /', ` ${baseUrl}/`)));
  });

  test('through a CONNECT tunnel, as https always goes', async () => {
    proxy = await startProxy();
    const { baseUrl, api } = behind(proxy.url, { proxy: { proxyTunnel: true } });
    await session(api);
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(new Set(proxy.seen)).toEqual(new Set([`CONNECT ${new URL(baseUrl).host}`]));
  });

  test('a proxy that wants credentials gets those of the proxy address', async () => {
    proxy = await startProxy({ credentials: 'corp:s3cret' });
    for (const options of [undefined, { proxy: { proxyTunnel: true } }]) {
      const { baseUrl, api } = behind(proxy.url, options);
      proxy.seen.length = 0;
      // The proxy's refusal, said as such, and not asked again (a retry cannot change its mind).
      expect((await rejection(api.currentUser({}))).toSerialized()).toEqual({
        kind: 'proxy',
        message: `The proxy between PlantDesk and ${baseUrl} asks for a user name and password, and none was given or it refused them. Check the proxy user name and password (often your company network account) and try again.`,
      });
      expect(proxy.seen).toHaveLength(1);
    }
    const { api } = behind(proxy.url.replace('http://', 'http://corp:s3cret@'));
    await session(api);
  });

  test('a proxy that refuses the tunnel to the server is said as the proxy refusing', async () => {
    proxy = await startProxy({ refuseConnect: true });
    const { baseUrl, api } = behind(proxy.url, { proxy: { proxyTunnel: true } });
    const error = await rejection(api.listPlants({}));
    expect(error.toSerialized()).toEqual({
      kind: 'proxy',
      message: `The proxy between PlantDesk and ${baseUrl} refused the connection. Check that your company's proxy allows this address (your IT department can tell) and that this computer's proxy settings are right.`,
    });
    expect(proxy.seen).toEqual([`CONNECT ${new URL(baseUrl).host}`]);
    // The connection test says the same, rather than a code.
    const tested = await testConnection(
      baseUrl,
      5_000,
      undefined,
      createNodeTransport({ proxy: { proxyTunnel: true } }),
    );
    expect(tested).toEqual({ ok: false, message: error.message });
  });

  test('a proxy that cannot be reached is said as the proxy, not the server, and not retried', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { baseUrl } = behind(`http://127.0.0.1:${port}`);
    // Retries a second apart: a retried failure would take seconds.
    const retry = { attempts: 3, baseDelayMs: 1_000, maxDelayMs: 1_000 };
    const api = createApiClient({ baseUrl, retry, fetch: createNodeTransport() });
    const started = performance.now();
    expect((await rejection(api.currentUser({}))).toSerialized()).toEqual({
      kind: 'proxy',
      message: `The proxy for ${baseUrl} could not be reached. Check this computer's proxy settings (in browser mode: HTTPS_PROXY, HTTP_PROXY and NO_PROXY) and that you are on the company network or its VPN.`,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test('the connection test goes where the calls go', async () => {
    proxy = await startProxy();
    const { baseUrl } = behind(proxy.url);
    const result = await testConnection(baseUrl, 5_000, undefined, createNodeTransport());
    expect(result).toMatchObject({ ok: true });
    expect(proxy.seen).toEqual([`GET ${baseUrl}/auth/me`]);
  });

  test('loopback, the Local sandbox, never goes through the proxy', async () => {
    proxy = await startProxy();
    behind(proxy.url);
    await session(createApiClient({ baseUrl: server.url, fetch: createNodeTransport() }));
    expect(proxy.seen).toEqual([]);
  });
});
