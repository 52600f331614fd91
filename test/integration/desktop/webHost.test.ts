import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANNEL_NAMES,
  type ChannelHandlers,
  type EventName,
  type SessionState,
} from '../../../electron/ipc/contract.ts';
import { spawnNodeServer } from '../../../electron/services/childProcessServer.ts';
import { createEventBus } from '../../../electron/services/eventBus.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import { createMemoryStore } from '../../../electron/services/secrets.ts';
import { createWebHost, type WebHost } from '../../../electron/web/host.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/services/contentSecurityPolicy.ts';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

/**
 * One request with exactly the headers given: fetch forbids setting Host (and browsers set
 * Origin themselves), which is what the DNS-rebinding and cross-site checks are about.
 */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  const headers = options.headers ?? {};
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers,
        setHost: !Object.keys(headers).some((name) => name.toLowerCase() === 'host'),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            json: () => JSON.parse(body),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

interface StreamedEvent {
  event: EventName;
  payload: any;
}

/** Opens an event stream; `next()` waits for the next event matching the predicate. */
function openEvents(url: string, headers: Record<string, string> = {}) {
  const received: StreamedEvent[] = [];
  const waiters: { match: (e: StreamedEvent) => boolean; resolve: (e: StreamedEvent) => void }[] =
    [];
  let request: http.ClientRequest;
  const opened = new Promise<http.IncomingMessage>((resolve, reject) => {
    request = http.get(url, { headers }, (response) => {
      resolve(response);
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice('data: '.length))
            .join('\n');
          buffer = buffer.slice(end + 2);
          if (!data) continue;
          const event = JSON.parse(data) as StreamedEvent;
          received.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.match(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      });
    });
    request.on('error', reject);
  });
  return {
    opened,
    received,
    next(match: (event: StreamedEvent) => boolean, timeoutMs = 5_000): Promise<StreamedEvent> {
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching event')), timeoutMs);
        waiters.push({
          match,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
      });
    },
    close: () => request.destroy(),
  };
}

function stubHandlers(overrides: Partial<ChannelHandlers>): ChannelHandlers {
  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((name) => [
      name,
      async () => {
        throw new Error(`${name} is not part of this test`);
      },
    ]),
  );
  return { ...handlers, ...overrides } as ChannelHandlers;
}

describe('web host security checks (stub services)', () => {
  const KEY = 'test-key-0123456789';
  const events = createEventBus();
  const signedIn: SessionState = { environmentId: 'local', status: 'signedIn' };
  const calls: unknown[][] = [];
  const browserLanguages: string[][] = [];
  let host: WebHost;
  let rendererDir: string;

  const rpc = (channel: string, args: unknown, headers: Record<string, string> = {}) =>
    rawRequest(`${host.origin}/rpc/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-plantdesk-key': KEY, ...headers },
      body: JSON.stringify(args),
    });

  beforeAll(async () => {
    rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-renderer-'));
    fs.writeFileSync(
      path.join(rendererDir, 'index.html'),
      '<!doctype html><title>PlantDesk</title>',
    );
    host = await createWebHost({
      plantDesk: {
        events,
        handlers: stubHandlers({
          'session.state': async () => ({ environmentId: 'local', status: 'signedOut' }),
          'session.signIn': async (input) => {
            calls.push(['session.signIn', input.email]);
            events.emit('session.changed', signedIn);
            return signedIn;
          },
        }),
      },
      port: 0,
      rendererDir,
      key: KEY,
      heartbeatMs: 50,
      onBrowserLanguages: (languages) => browserLanguages.push(languages),
    });
  });
  afterAll(async () => {
    await host.close();
    fs.rmSync(rendererDir, { recursive: true, force: true });
  });

  it('prints its address with the key, on 127.0.0.1', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?key=${KEY}`);
    expect(host.port).toBeGreaterThan(0);
  });

  it('answers a call with the right key with 200 and the envelope', async () => {
    const response = await rpc('session.state', []);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({
      ok: true,
      value: { environmentId: 'local', status: 'signedOut' },
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('tells the services the browser’s languages of each accepted call, none of a refused one', async () => {
    browserLanguages.length = 0;
    await rpc('session.state', [], { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' });
    await rpc('session.state', [], {
      'accept-language': 'it',
      'x-plantdesk-key': 'wrong-key-0123456789',
    });
    expect(browserLanguages).toEqual([['de-AT', 'de', 'en']]);
  });

  it('accepts its own origin, under 127.0.0.1 and localhost', async () => {
    for (const origin of [host.origin, `http://localhost:${host.port}`]) {
      expect((await rpc('session.state', [], { origin })).status).toBe(200);
    }
    const viaLocalhost = await rpc('session.state', [], { host: `localhost:${host.port}` });
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses a call without the key, or with a wrong one, with 403', async () => {
    const noKey = await rawRequest(`${host.origin}/rpc/session.state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    expect(noKey.status).toBe(403);
    expect(noKey.json()).toEqual({
      ok: false,
      error: { kind: 'forbidden', message: 'Missing or wrong key' },
    });
    for (const wrong of ['', 'test-key-012345678', `${KEY}x`, KEY.toUpperCase()]) {
      expect((await rpc('session.state', [], { 'x-plantdesk-key': wrong })).status).toBe(403);
    }
  });

  it('refuses a foreign Origin with 403 even with the right key', async () => {
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${host.port + 1}`,
      `https://127.0.0.1:${host.port}`,
      'null',
    ]) {
      const response = await rpc('session.state', [], { origin });
      expect(response.status, origin).toBe(403);
      expect(response.json().error.message).toBe('Foreign Origin');
    }
  });

  it('refuses a foreign Host with 403 on every path (DNS rebinding)', async () => {
    for (const hostHeader of [
      'evil.example',
      `evil.example:${host.port}`,
      '127.0.0.1',
      `127.0.0.2:${host.port}`,
    ]) {
      const call = await rpc('session.state', [], { host: hostHeader });
      expect(call.status, hostHeader).toBe(403);
      const page = await rawRequest(`${host.origin}/`, { headers: { host: hostHeader } });
      expect(page.status, hostHeader).toBe(403);
      expect(page.body).not.toContain('<title>PlantDesk</title>');
    }
  });

  it('does not call the service when refused', async () => {
    calls.length = 0;
    await rpc('session.signIn', [{ email: 'a@b.c', password: 'x', remember: false }], {
      'x-plantdesk-key': 'wrong',
    });
    await rpc('session.signIn', [{ email: 'a@b.c', password: 'x', remember: false }], {
      origin: 'http://evil.example',
    });
    expect(calls).toEqual([]);
  });

  it('answers invalid arguments and unknown channels with an error envelope', async () => {
    const invalid = await rpc('session.signIn', [{ email: 'a@b.c' }]);
    expect(invalid.status).toBe(200);
    expect(invalid.json()).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
    expect(invalid.json().error.message).toMatch(/Invalid arguments for 'session.signIn'/);

    const notAList = await rpc('session.state', { not: 'a list' });
    expect(notAList.json()).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });

    const unknown = await rpc('session.steal', []);
    expect(unknown.json()).toEqual({
      ok: false,
      error: { kind: 'invalidArguments', message: "Unknown channel 'session.steal'" },
    });

    const malformed = await rawRequest(`${host.origin}/rpc/session.state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-plantdesk-key': KEY },
      body: '[',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
  });

  it('answers an unexpected service failure as internal, without its details', async () => {
    const response = await rpc('app.info', []);
    expect(response.json()).toEqual({
      ok: false,
      error: { kind: 'internal', message: "'app.info' failed unexpectedly" },
    });
  });

  it('streams events after a sign-in to a client with the key', async () => {
    const stream = openEvents(`${host.origin}/events?key=${KEY}`);
    const response = await stream.opened;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    await rpc('session.signIn', [
      { email: 'installer@plantdesk.test', password: 'x', remember: false },
    ]);
    const event = await stream.next((candidate) => candidate.event === 'session.changed');
    expect(event.payload).toEqual(signedIn);
    stream.close();
  });

  it('refuses an event stream without the key, or from a foreign Origin or Host', async () => {
    expect((await rawRequest(`${host.origin}/events`)).status).toBe(403);
    expect((await rawRequest(`${host.origin}/events?key=wrong`)).status).toBe(403);
    const foreignOrigin = await rawRequest(`${host.origin}/events?key=${KEY}`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(foreignOrigin.status).toBe(403);
    const foreignHost = await rawRequest(`${host.origin}/events?key=${KEY}`, {
      headers: { host: 'evil.example' },
    });
    expect(foreignHost.status).toBe(403);
  });

  it('serves the page with the strict CSP and without a referrer', async () => {
    const page = await rawRequest(`${host.origin}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>PlantDesk</title>');
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('uses the same CSP as the renderer page', () => {
    const html = fs.readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });
});

describe('opening the page: single-use codes and the session cookie', () => {
  const KEY = 'cookie-test-key-0123456789';
  let clock = 0;
  let host: WebHost;
  let rendererDir: string;

  beforeAll(async () => {
    rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-renderer-'));
    fs.writeFileSync(
      path.join(rendererDir, 'index.html'),
      '<!doctype html><title>PlantDesk</title>',
    );
    host = await createWebHost({
      plantDesk: {
        events: createEventBus(),
        handlers: stubHandlers({
          'session.state': async () => ({ environmentId: 'local', status: 'signedOut' }),
        }),
      },
      port: 0,
      rendererDir,
      key: KEY,
      openCodeTtlMs: 30_000,
      now: () => clock,
    });
  });
  afterAll(async () => {
    await host.close();
    fs.rmSync(rendererDir, { recursive: true, force: true });
  });

  const cookieFrom = (response: RawResponse) =>
    String(response.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  const call = (headers: Record<string, string>) =>
    rawRequest(`${host.origin}/rpc/session.state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '[]',
    });

  it('the opener gets a code, not the key; the code works once for an HttpOnly, SameSite=Strict cookie', async () => {
    const opened = host.openUrl();
    expect(opened).toMatch(new RegExp(`^${host.origin}/\\?code=[A-Za-z0-9_-]{20,}$`));
    expect(opened).not.toContain(KEY);

    const first = await rawRequest(opened);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = first.headers['set-cookie']!;
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(
      new RegExp(`^${host.cookieName}=[A-Za-z0-9_-]{40,}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    expect(host.cookieName).toBe(`plantdesk-${host.port}`);

    const again = await rawRequest(opened);
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain('has expired or was used already');

    // The cookie alone opens the services and the event stream.
    const cookie = cookieFrom(first);
    const answered = await call({ cookie });
    expect(answered.status).toBe(200);
    expect(answered.json()).toEqual({
      ok: true,
      value: { environmentId: 'local', status: 'signedOut' },
    });
    const stream = openEvents(`${host.origin}/events`, { cookie });
    expect((await stream.opened).statusCode).toBe(200);
    stream.close();
  });

  it('a code expires in seconds', async () => {
    const opened = host.openUrl();
    clock += 30_000;
    const late = await rawRequest(opened);
    expect(late.status).toBe(403);
    expect(late.headers['set-cookie']).toBeUndefined();
  });

  it('the printed address (with the key) still opens the page the same way', async () => {
    const printed = await rawRequest(host.url);
    expect(printed.status).toBe(303);
    expect(printed.headers.location).toBe('/');
    expect((await call({ cookie: cookieFrom(printed) })).status).toBe(200);
    expect((await rawRequest(`${host.origin}/?key=wrong`)).status).toBe(403);
  });

  it('refuses calls without the cookie or with a made-up one, and cookies from another origin', async () => {
    expect((await call({})).status).toBe(403);
    expect((await call({ cookie: `${host.cookieName}=made-up` })).status).toBe(403);
    const opened = await rawRequest(host.openUrl());
    const foreign = await call({ cookie: cookieFrom(opened), origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json().error.message).toBe('Foreign Origin');
  });
});

describe('web host over the real services and Local sandbox', () => {
  let root: string;
  let plantDesk: PlantDesk;
  let host: WebHost;
  const keychainNotices: unknown[] = [];

  const rpc = async (channel: string, ...args: unknown[]) => {
    const response = await rawRequest(`${host.origin}/rpc/${channel}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-plantdesk-key': host.key,
        origin: host.origin,
      },
      body: JSON.stringify(args),
    });
    expect(response.status).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-web-'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>PlantDesk</title>');
    plantDesk = await startPlantDesk({
      host: 'web',
      version: 'test',
      dataDir: path.join(root, 'data'),
      spawnServer: spawnNodeServer(),
      localSandboxArgs: ['--no-simulation', '--quiet'],
      secrets: { store: createMemoryStore(), status: { available: false, message: 'none here' } },
      log: { info() {}, warn() {}, error() {} },
      openExternal: async () => {},
    });
    // Subscribed as the hosts do, right after start: the notice is deferred until then.
    plantDesk.events.on('keychain.unavailable', (status) => keychainNotices.push(status));
    host = await createWebHost({ plantDesk, port: 0, rendererDir: root });
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await plantDesk?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('makes a new random key at each start', async () => {
    expect(host.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await createWebHost({ plantDesk, port: 0, rendererDir: root });
    expect(other.key).not.toBe(host.key);
    await other.close();
  });

  it('signs in to the Local sandbox as the installer, streams the change and lists Demo Home', async () => {
    const stream = openEvents(`${host.origin}/events?key=${host.key}`, { origin: host.origin });
    await stream.opened;
    const running = await stream
      .next(
        (event) => event.event === 'localSandbox.changed' && event.payload.status === 'running',
        60_000,
      )
      .catch(async () => ({ payload: (await rpc('localSandbox.state')).value }));
    expect(running.payload.status).toBe('running');
    // The environment follows the sandbox's address.
    const list = await rpc('environments.list');
    expect(list.value.environments[0]).toMatchObject({ id: 'local', baseUrl: running.payload.url });

    const signIn = await rpc('session.signIn', {
      email: 'installer@plantdesk.test',
      password: 'installer-pass-1',
      remember: false,
    });
    expect(signIn).toMatchObject({ ok: true, value: { status: 'signedIn' } });
    const changed = await stream.next(
      (event) => event.event === 'session.changed' && event.payload.status === 'signedIn',
    );
    expect(changed.payload.user.email).toBe('installer@plantdesk.test');

    const plants = await rpc('api.call', 'listPlants', { query: { sort: 'name,asc' } });
    expect(plants.ok).toBe(true);
    expect(plants.value.content.map((plant: { name: string }) => plant.name)).toContain(
      'Demo Home',
    );
    stream.close();
  }, 90_000);

  it('cancels an API call by its request id, and a reused id replaces the older call', async () => {
    const { handlers } = plantDesk;
    const cancelled = handlers['api.call']('listPlants', {}, { requestId: 'plants-1' });
    await handlers['api.cancel']('plants-1');
    await expect(cancelled).rejects.toMatchObject({ kind: 'cancelled' });

    const older = handlers['api.call']('listPlants', {}, { requestId: 'search' });
    const newer = handlers['api.call']('listPlants', {}, { requestId: 'search' });
    await expect(older).rejects.toMatchObject({ kind: 'cancelled' });
    await expect(newer).resolves.toMatchObject({ page: { number: 0 } });
    // Unknown or finished ids are fine to cancel.
    await expect(handlers['api.cancel']('search')).resolves.toBeUndefined();
  });

  it('keeps a draft’s notes and photos over HTTP, gives them to its plant when sent, and deletes them with the draft', async () => {
    const photo =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const saved = await rpc('drafts.save', {
      content: {
        plant: {
          name: `Notes ${Date.now().toString(36)}`,
          location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
        },
      },
    });
    expect(saved.ok).toBe(true);
    const draft = { draftId: saved.value.draftId as string };
    expect(
      await rpc('commissioningNotes.setText', draft, 'plant', 'Key at the neighbour’s'),
    ).toMatchObject({ ok: true });
    const kept = await rpc('commissioningNotes.addPhoto', draft, 'plant', { dataUrl: photo });
    expect(kept.value.steps.plant.photos).toHaveLength(1);
    const notesFile = path.join(
      root,
      'data',
      'drafts',
      fs.readdirSync(path.join(root, 'data', 'drafts'))[0]!,
      `${draft.draftId}.notes.json`,
    );
    expect(fs.statSync(notesFile).mode & 0o777).toBe(0o600);

    const sent = await rpc('drafts.send', draft.draftId);
    expect(sent.value.outcome).toBe('sent');
    const plantUuid = sent.value.draft.sent.plantUuid as string;
    try {
      const plantNotes = await rpc('commissioningNotes.get', { plantUuid });
      expect(plantNotes.value.steps.plant).toMatchObject({
        text: 'Key at the neighbour’s',
        photos: [{ dataUrl: photo }],
      });
      expect(await rpc('drafts.delete', draft.draftId)).toEqual({ ok: true });
      expect(fs.existsSync(notesFile)).toBe(false);
      expect((await rpc('commissioningNotes.get', { plantUuid })).value.steps.plant.text).toBe(
        'Key at the neighbour’s',
      );
    } finally {
      await rpc('api.call', 'deletePlant', { params: { plantUuid } });
    }
  });

  it("answers a wrong password with the server's 401 message", async () => {
    const answer = await rpc('session.signIn', {
      email: 'installer@plantdesk.test',
      password: 'not-the-password',
      remember: false,
    });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'api', status: 401 } });
    expect(answer.error.message).toBeTruthy();
  });

  it('refuses the token routes through api.call: tokens stay in the host', async () => {
    const answer = await rpc('api.call', 'login', {
      body: { email: 'installer@plantdesk.test', password: 'installer-pass-1' },
    });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(JSON.stringify(answer)).not.toMatch(/accessToken|refreshToken/);
  });

  it('opens only allow-listed https addresses', async () => {
    const refused = await rpc('shell.openExternal', 'https://evil.example/');
    expect(refused).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await rpc('shell.openExternal', 'https://plantdesk.example/docs')).toEqual({
      ok: true,
    });
  });

  it('tells a Plant Energy API from other servers in testConnection', async () => {
    const state = (await rpc('localSandbox.state')).value;
    const reachable = await rpc('environments.testConnection', state.url);
    expect(reachable.value).toMatchObject({ ok: true });
    expect(reachable.value.message).toMatch(/^Reachable: Plant Energy API answered in \d+ ms$/);

    const notApi = await rpc('environments.testConnection', host.origin);
    expect(notApi.value.ok).toBe(false);
    expect(notApi.value.message).toMatch(/not a Plant Energy API/);

    // A port that was free a moment ago: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const closed = await rpc('environments.testConnection', `http://127.0.0.1:${freePort}`);
    expect(closed.value).toEqual({ ok: false, message: 'Not reachable: ECONNREFUSED' });
  });

  it('says once that there is no keychain, and reports it in app.info', async () => {
    expect(keychainNotices).toEqual([{ available: false, message: 'none here' }]);
    expect((await rpc('app.info')).value).toEqual({
      name: 'PlantDesk',
      version: 'test',
      host: 'web',
      keychain: { available: false, message: 'none here' },
      now: expect.any(Number),
      language: { chosen: null, system: expect.stringMatching(/^(en|de|it)$/) },
    });
  });

  it('keeps the language chosen over the channel, refuses one it does not speak', async () => {
    expect((await rpc('app.setLanguage', 'de')).value).toMatchObject({ chosen: 'de' });
    expect(((await rpc('app.info')).value as { language: unknown }).language).toMatchObject({
      chosen: 'de',
    });
    const refused = await rpc('app.setLanguage', 'fr');
    expect(refused.ok).toBe(false);
    expect(refused.error?.kind).toBe('invalidArguments');
    expect((await rpc('app.setLanguage', null)).value).toMatchObject({ chosen: null });
  });

  it('tells the page the host’s time: the system clock without --clock', async () => {
    const before = Date.now();
    const { now } = (await rpc('app.info')).value as { now: number };
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('keeps commissioning drafts of the signed-in account and sends them over the channels', async () => {
    const signIn = await rpc('session.signIn', {
      email: 'installer@plantdesk.test',
      password: 'installer-pass-1',
      remember: false,
    });
    expect(signIn.ok).toBe(true);
    const codes = async (route: string, idField: string) =>
      Object.fromEntries(
        (await rpc('api.call', route, { query: { size: 200 } })).value.content.map(
          (entry: Record<string, string>) => [entry.code, entry[idField]],
        ),
      ) as Record<string, string>;
    const deviceTypes = await codes('listDeviceTypes', 'deviceTypeUuid');
    const sensorTypes = await codes('listSensorTypes', 'sensorTypeUuid');
    const content = {
      plant: {
        name: 'Web host draft',
        location: { latitude: 41.9, longitude: 12.5, timezone: 'Europe/Rome' },
      },
      devices: [{ key: 'meter', name: 'Meter', deviceTypeUuid: deviceTypes.METER }],
      sensors: [
        {
          key: 'grid',
          name: 'Grid',
          sensorTypeUuid: sensorTypes.POWER_METER,
          flow: 'GRID',
          deviceKey: 'meter',
        },
      ],
    };
    const saved = await rpc('drafts.save', { content });
    expect(saved).toMatchObject({
      ok: true,
      value: { environmentId: 'local', account: 'installer@plantdesk.test', status: 'notSent' },
    });
    const draftId = saved.value.draftId as string;
    expect(
      (await rpc('drafts.list')).value.map((draft: { draftId: string }) => draft.draftId),
    ).toEqual([draftId]);
    // The contract's checks: a secret value is no part of a draft, an id is a uuid.
    const withSecret = await rpc('drafts.save', {
      content: {
        ...content,
        vendors: [
          { vendorUuid: deviceTypes.METER, settings: { apiKey: 'x' }, secretFields: ['apiKey'] },
        ],
      },
    });
    expect(withSecret).toMatchObject({ ok: false, error: { kind: 'invalidArguments' } });
    expect(await rpc('drafts.get', '../../secrets')).toMatchObject({
      ok: false,
      error: { kind: 'invalidArguments' },
    });

    const sent = await rpc('drafts.send', draftId);
    expect(sent).toMatchObject({ ok: true, value: { outcome: 'sent', draft: { status: 'sent' } } });
    const plant = await rpc('api.call', 'getPlant', {
      params: { plantUuid: sent.value.draft.sent.plantUuid },
    });
    expect(plant.value.name).toBe('Web host draft');

    // Signed out, with no account remembered for the environment: no drafts to show or send.
    await rpc('session.signOut');
    expect(await rpc('drafts.list')).toMatchObject({ ok: false, error: { kind: 'signedOut' } });
    expect(await rpc('drafts.send', draftId)).toMatchObject({
      ok: false,
      error: { kind: 'signedOut' },
    });
  }, 60_000);
});

describe('a web host run at a chosen instant', () => {
  /** The services alone, without a Local sandbox, on `clock`. */
  const servicesAt = (clock: string, dataDir: string) =>
    startPlantDesk({
      host: 'web',
      version: 'test',
      dataDir,
      // A Local sandbox that never gets to listen, and ends when it is told to.
      spawnServer: () => {
        const exits: ((code: number | null) => void)[] = [];
        const end = () => exits.splice(0).forEach((exit) => exit(0));
        return {
          onOutput() {},
          onExit: (listener) => void exits.push(listener),
          kill: end,
          forceKill: end,
        };
      },
      secrets: { store: createMemoryStore(), status: { available: true } },
      log: { info() {}, warn() {}, error() {} },
      openExternal: async () => {},
      clock,
    });

  it('reports that instant to the page, advancing from it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-web-clock-'));
    const plantDesk = await servicesAt('2026-03-29T03:30:00+02:00', path.join(root, 'data'));
    try {
      const info = await plantDesk.handlers['app.info']();
      expect(info.now - Date.parse('2026-03-29T01:30:00Z')).toBeGreaterThanOrEqual(0);
      expect(info.now - Date.parse('2026-03-29T01:30:00Z')).toBeLessThan(10_000);
    } finally {
      await plantDesk.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses to start with a malformed clock', async () => {
    await expect(
      servicesAt('half past two', path.join(os.tmpdir(), 'plantdesk-never-created')),
    ).rejects.toThrow('The clock must be an ISO 8601 date-time with an offset');
  });
});
