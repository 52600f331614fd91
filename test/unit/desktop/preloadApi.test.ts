import { describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../../electron/ipc/contract.ts';
import { createPreloadApi, type IpcRendererLike } from '../../../electron/preload/api.ts';

type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpcRenderer() {
  const listeners = new Map<string, Set<Listener>>();
  const ipc = {
    invoke: vi.fn(async (channel: string, ...args: unknown[]) => ({
      ok: true,
      value: { channel, args },
    })),
    on(channel: string, listener: Listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener(channel: string, listener: Listener) {
      listeners.get(channel)?.delete(listener);
    },
  } satisfies IpcRendererLike;
  // What Electron passes: an IpcRendererEvent whose `sender` is ipcRenderer itself.
  const emit = (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: ipc }, payload);
  };
  const count = (channel: string) => listeners.get(channel)?.size ?? 0;
  return { ipc, emit, count };
}

describe('window.plantdesk (preload API)', () => {
  it('has exactly one method per contract channel, plus on, and is frozen', () => {
    const api = createPreloadApi(fakeIpcRenderer().ipc);
    expect(Object.keys(api).sort()).toEqual([...CHANNEL_NAMES, 'on'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
  });

  it('forwards each method to ipcRenderer.invoke on its own channel', async () => {
    const { ipc } = fakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const input = { email: 'a@b.c', password: 'pw', remember: true };
    expect(await api['session.signIn'](input)).toEqual({
      ok: true,
      value: { channel: 'session.signIn', args: [input] },
    });
    await api['api.call']('listPlants', { query: { page: 1 } }, { requestId: 'r1' });
    expect(ipc.invoke).toHaveBeenLastCalledWith(
      'api.call',
      'listPlants',
      { query: { page: 1 } },
      { requestId: 'r1' },
    );
    await api['app.info']();
    expect(ipc.invoke).toHaveBeenLastCalledWith('app.info');
  });

  it('delivers only the payload of an event, never the IPC event', () => {
    const { ipc, emit } = fakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const received: unknown[][] = [];
    api.on('session.changed', (...args: unknown[]) => received.push(args));
    emit('event:session.changed', { status: 'signedOut' });
    expect(received).toEqual([[{ status: 'signedOut' }]]);
  });

  it('accepts every contract event and refuses anything else', () => {
    const { ipc, count } = fakeIpcRenderer();
    const api = createPreloadApi(ipc);
    for (const event of EVENT_NAMES) {
      api.on(event, () => {});
      expect(count(`event:${event}`)).toBe(1);
    }
    for (const bad of ['session.changed ', 'ELECTRON_BROWSER_REQUIRE', '', 'api.call']) {
      expect(() => api.on(bad as never, () => {})).toThrow(/Unknown PlantDesk event/);
    }
    expect(() => api.on('session.changed', 'not a function' as never)).toThrow(TypeError);
  });

  it('returns an unsubscribe that removes exactly that listener', () => {
    const { ipc, emit, count } = fakeIpcRenderer();
    const api = createPreloadApi(ipc);
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = api.on('localSandbox.changed', first);
    api.on('localSandbox.changed', second);
    stopFirst();
    emit('event:localSandbox.changed', { status: 'running', restarts: 0 });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledOnce();
    expect(count('event:localSandbox.changed')).toBe(1);
  });
});
