// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { Envelope, PreloadApi } from '../../electron/ipc/contract.ts';
import {
  createBridge,
  httpTransport,
  ipcTransport,
  PlantDeskError,
  takeWebKey,
} from '../../renderer/src/bridge.ts';

/** A preload double: records calls, answers the envelope a test sets, forwards events. */
function fakePreload(answer: Envelope<unknown>) {
  const calls: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const api = new Proxy({} as Record<string, unknown>, {
    get(_target, name: string) {
      if (name === 'on') {
        return (event: string, listener: (payload: unknown) => void) => {
          const set = listeners.get(event) ?? new Set();
          listeners.set(event, set.add(listener));
          return () => set.delete(listener);
        };
      }
      return async (...args: unknown[]) => {
        calls.push({ channel: name, args });
        return answer;
      };
    },
  }) as unknown as PreloadApi;
  const emit = (event: string, payload: unknown) =>
    listeners.get(event)?.forEach((listener) => listener(payload));
  return { api, calls, emit };
}

describe('bridge over the preload', () => {
  test('invoke and call send the channel with its argument list and answer the value', async () => {
    const preload = fakePreload({ ok: true, value: { content: [] } });
    const bridge = createBridge(ipcTransport(preload.api));
    await expect(bridge.call('listPlants', { query: { search: 'home' } })).resolves.toEqual({
      content: [],
    });
    await bridge.call('getPlant', { params: { plantUuid: 'x' } }, { requestId: 'r1' });
    await bridge.invoke('environments.select', 'local');
    expect(preload.calls).toEqual([
      { channel: 'api.call', args: ['listPlants', { query: { search: 'home' } }] },
      {
        channel: 'api.call',
        args: ['getPlant', { params: { plantUuid: 'x' } }, { requestId: 'r1' }],
      },
      { channel: 'environments.select', args: ['local'] },
    ]);
  });

  test('a failed envelope rejects with a PlantDeskError keeping the server fields', async () => {
    const error = {
      kind: 'api' as const,
      message: 'Plant not found',
      status: 404,
      error: 'Not Found',
      path: '/plants/x',
    };
    const bridge = createBridge(ipcTransport(fakePreload({ ok: false, error }).api));
    const rejection = await bridge.invoke('session.refreshUser').catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(PlantDeskError);
    expect(rejection).toMatchObject(error);
  });

  test('events reach listeners until they unsubscribe', () => {
    const preload = fakePreload({ ok: true, value: undefined });
    const bridge = createBridge(ipcTransport(preload.api));
    const seen: unknown[] = [];
    const unsubscribe = bridge.on('localSandbox.changed', (state) => seen.push(state.status));
    preload.emit('localSandbox.changed', { status: 'running', restarts: 0 });
    unsubscribe();
    preload.emit('localSandbox.changed', { status: 'stopped', restarts: 0 });
    expect(seen).toEqual(['running']);
  });
});

describe('bridge over HTTP (browser mode)', () => {
  function recordingFetch(respond: () => Response | Promise<Response>) {
    const requests: { url: string; init: RequestInit }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return respond();
    }) as unknown as typeof fetch;
    return { fetchImpl, requests };
  }

  test('POSTs the argument list to /rpc/<channel> with the key header', async () => {
    const { fetchImpl, requests } = recordingFetch(() =>
      Response.json({ ok: true, value: { status: 'signedOut', environmentId: 'local' } }),
    );
    const bridge = createBridge(httpTransport('k3y', fetchImpl));
    await expect(bridge.invoke('session.state')).resolves.toMatchObject({ status: 'signedOut' });
    expect(requests[0]!.url).toBe('./rpc/session.state');
    expect(requests[0]!.init.method).toBe('POST');
    expect(requests[0]!.init.headers).toMatchObject({ 'x-plantdesk-key': 'k3y' });
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual([]);
  });

  test('transport failures become PlantDeskErrors of the right kind', async () => {
    const unreachable = createBridge(
      httpTransport('k', (async () => {
        throw new TypeError('fetch failed');
      }) as unknown as typeof fetch),
    );
    await expect(unreachable.invoke('app.info')).rejects.toMatchObject({ kind: 'network' });

    const html = createBridge(
      httpTransport(
        'k',
        recordingFetch(() => new Response('<h1>502</h1>', { status: 502 })).fetchImpl,
      ),
    );
    await expect(html.invoke('app.info')).rejects.toMatchObject({ kind: 'internal' });

    // Without a key and without the host's cookie: the host's refusal, said in the user's words.
    const refusing = recordingFetch(
      () =>
        new Response(
          JSON.stringify({
            ok: false,
            error: { kind: 'forbidden', message: 'Missing or wrong key' },
          }),
          { status: 403 },
        ),
    );
    const keyless = createBridge(httpTransport(null, refusing.fetchImpl));
    await expect(keyless.invoke('app.info')).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'This page was opened without its key: open the address that `npm run web` printed.',
    });
  });

  test('without a key, calls go with the session cookie and no key header', async () => {
    const recorded = recordingFetch(
      () => new Response(JSON.stringify({ ok: true, value: 1 }), { status: 200 }),
    );
    await createBridge(httpTransport(null, recorded.fetchImpl)).invoke('app.info');
    const init = recorded.requests[0]!.init;
    expect(init.credentials).toBe('same-origin');
    expect(init.headers).not.toHaveProperty('x-plantdesk-key');
  });

  test('the key moves from the address bar to session storage', () => {
    window.history.replaceState(null, '', '/?key=abc&x=1#/plants');
    const key = takeWebKey(window.location, window.history, window.sessionStorage);
    expect(key).toBe('abc');
    expect(window.location.search).toBe('?x=1');
    expect(window.location.hash).toBe('#/plants');
    // A reload of the tab (no key in the address) still finds it.
    expect(takeWebKey(window.location, window.history, window.sessionStorage)).toBe('abc');
  });
});
