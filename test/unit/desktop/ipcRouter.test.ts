import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import {
  CHANNEL_NAMES,
  type ChannelHandlers,
  type EventName,
  type Events,
} from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import {
  createSenderCheck,
  forwardEvents,
  registerChannels,
  type IpcMainLike,
} from '../../../electron/main/ipcRouter.ts';
import { APP_ORIGIN } from '../../../electron/main/security.ts';
import type { Logger } from '../../../electron/services/logger.ts';

// ── Fakes: just the fields the router reads, cast to Electron's types ──────────────────────

interface FakeFrame {
  url: string;
  processId: number;
  routingId: number;
  parent: FakeFrame | null;
}

let nextId = 1;
function fakeContents(url = `${APP_ORIGIN}/index.html`) {
  const id = nextId++;
  const mainFrame: FakeFrame = { url, processId: id, routingId: 1, parent: null };
  const sent: Array<{ channel: string; payload: unknown }> = [];
  const contents = {
    id,
    mainFrame,
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
    getURL: () => mainFrame.url,
    send: (channel: string, payload: unknown) => sent.push({ channel, payload }),
  };
  return { contents, asElectron: contents as unknown as WebContents, mainFrame, sent };
}

function eventFrom(
  sender: ReturnType<typeof fakeContents>,
  frame: FakeFrame | null = sender.mainFrame,
): IpcMainInvokeEvent {
  return { sender: sender.asElectron, senderFrame: frame } as unknown as IpcMainInvokeEvent;
}

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  const ipcMain: IpcMainLike = {
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
  };
  const invoke = (channel: string, event: IpcMainInvokeEvent, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  };
  return { ipcMain, handlers, invoke };
}

function recordingLog() {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const log: Logger = {
    info() {},
    warn: (message, fields) => warnings.push({ message, fields }),
    error() {},
  };
  return { log, warnings };
}

const signedIn = {
  environmentId: 'local',
  status: 'signedIn' as const,
  user: undefined,
};

function setup(appOrigin = APP_ORIGIN, windowUrl = `${APP_ORIGIN}/index.html`) {
  const window = fakeContents(windowUrl);
  const signIn = vi.fn(async () => signedIn);
  const handlers = { 'session.signIn': signIn } as unknown as ChannelHandlers;
  const { ipcMain, handlers: registered, invoke } = fakeIpcMain();
  const { log, warnings } = recordingLog();
  const unregister = registerChannels({
    ipcMain,
    dispatch: createDispatcher(handlers),
    isTrustedSender: createSenderCheck({ ourWebContents: () => [window.asElectron], appOrigin }),
    log,
  });
  return { window, signIn, registered, invoke, warnings, unregister };
}

const goodSignIn = { email: 'admin@plantdesk.test', password: 'admin-pass-1', remember: false };
const forbidden = {
  ok: false,
  error: { kind: 'forbidden', message: 'This window may not use PlantDesk services' },
};

describe('registerChannels', () => {
  it('registers exactly the contract channels, and unregisters them all', () => {
    const { registered, unregister } = setup();
    expect([...registered.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());
    unregister();
    expect(registered.size).toBe(0);
  });

  it('passes a call from our window to its handler and answers the value', async () => {
    const { window, signIn, invoke } = setup();
    const answer = await invoke('session.signIn', eventFrom(window), goodSignIn);
    expect(answer).toEqual({ ok: true, value: signedIn });
    expect(signIn).toHaveBeenCalledWith(goodSignIn);
  });

  it('answers invalidArguments when the arguments fail the channel schema', async () => {
    const { window, signIn, invoke } = setup();
    const answer = (await invoke('session.signIn', eventFrom(window), {
      ...goodSignIn,
      password: '',
    })) as { ok: boolean; error: { kind: string; message: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error.kind).toBe('invalidArguments');
    expect(answer.error.message).toContain('password is required');
    // An extra argument, an extra field: the strict schemas refuse both.
    const extraArgument = (await invoke(
      'session.signIn',
      eventFrom(window),
      goodSignIn,
      'more',
    )) as { error: { kind: string } };
    expect(extraArgument.error.kind).toBe('invalidArguments');
    const extraField = (await invoke('session.signIn', eventFrom(window), {
      ...goodSignIn,
      admin: true,
    })) as { error: { kind: string } };
    expect(extraField.error.kind).toBe('invalidArguments');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('keeps a channel with a sender rule to the windows the rule names', async () => {
    const main = fakeContents();
    const print = fakeContents(`${APP_ORIGIN}/index.html#/reports/print`);
    const prepared = vi.fn(async () => ({ fleet: {}, madeAt: '2026-06-01T00:00:00.000Z' }));
    const handlers = { 'reports.preparedReport': prepared } as unknown as ChannelHandlers;
    const { ipcMain, invoke } = fakeIpcMain();
    const { log, warnings } = recordingLog();
    registerChannels({
      ipcMain,
      dispatch: createDispatcher(handlers),
      isTrustedSender: createSenderCheck({
        ourWebContents: () => [main.asElectron, print.asElectron],
        appOrigin: APP_ORIGIN,
      }),
      senderRules: { 'reports.preparedReport': (event) => event.sender === print.asElectron },
      log,
    });
    const request = { token: '0f0e0d0c-0b0a-4909-8807-060504030201' };
    expect(await invoke('reports.preparedReport', eventFrom(main), request)).toEqual(forbidden);
    expect(prepared).not.toHaveBeenCalled();
    expect(warnings[0]).toMatchObject({
      message: 'IPC call refused: this window may not use the channel',
      fields: { channel: 'reports.preparedReport', webContentsId: main.contents.id },
    });
    expect(await invoke('reports.preparedReport', eventFrom(print), request)).toMatchObject({
      ok: true,
    });
    expect(prepared).toHaveBeenCalledWith(request);
    // Its arguments are checked as any channel's.
    expect(await invoke('reports.preparedReport', eventFrom(print), { token: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'invalidArguments' },
    });
  });

  it('refuses a frame showing another origin, and logs it without the full address', async () => {
    const { window, signIn, invoke, warnings } = setup();
    window.mainFrame.url = 'https://evil.example/steal?token=secret';
    expect(await invoke('session.signIn', eventFrom(window), goodSignIn)).toEqual(forbidden);
    expect(signIn).not.toHaveBeenCalled();
    expect(warnings).toEqual([
      {
        message: 'IPC call refused: sender is not a PlantDesk window',
        fields: {
          channel: 'session.signIn',
          webContentsId: window.contents.id,
          origin: 'https://evil.example',
          mainFrame: true,
        },
      },
    ]);
    expect(JSON.stringify(warnings)).not.toContain('secret');
  });

  it.each([
    ['file://', 'file:///etc/passwd'],
    ['another app: host', 'app://other/index.html'],
    ['a data: URL', 'data:text/html,<script>1</script>'],
    ['about:blank', 'about:blank'],
    ['a lookalike host', 'app://plantdesk.evil.example/index.html'],
  ])('refuses a main frame showing %s', async (_name, url) => {
    const { window, invoke } = setup();
    window.mainFrame.url = url;
    expect(await invoke('session.signIn', eventFrom(window), goodSignIn)).toEqual(forbidden);
  });

  it('refuses a subframe of our window, even one showing our origin', async () => {
    const { window, signIn, invoke } = setup();
    const subframe: FakeFrame = {
      url: `${APP_ORIGIN}/index.html`,
      processId: window.mainFrame.processId,
      routingId: 2,
      parent: window.mainFrame,
    };
    expect(await invoke('session.signIn', eventFrom(window, subframe), goodSignIn)).toEqual(
      forbidden,
    );
    expect(signIn).not.toHaveBeenCalled();
  });

  it('refuses a top frame that is not the main frame of its web contents', async () => {
    const { window, invoke } = setup();
    const stranger: FakeFrame = { ...window.mainFrame, routingId: 99 };
    expect(await invoke('session.signIn', eventFrom(window, stranger), goodSignIn)).toEqual(
      forbidden,
    );
  });

  it('refuses web contents that are not one of our windows', async () => {
    const { signIn, invoke } = setup();
    const other = fakeContents(`${APP_ORIGIN}/index.html`);
    expect(await invoke('session.signIn', eventFrom(other), goodSignIn)).toEqual(forbidden);
    expect(signIn).not.toHaveBeenCalled();
  });

  it('refuses a sender whose frame is gone (navigated or destroyed)', async () => {
    const { window, invoke } = setup();
    expect(await invoke('session.signIn', eventFrom(window, null), goodSignIn)).toEqual(forbidden);
  });

  it('trusts the development server origin when that is the app origin', async () => {
    const dev = 'http://localhost:5173';
    const { window, invoke } = setup(dev, `${dev}/`);
    expect(await invoke('session.signIn', eventFrom(window), goodSignIn)).toEqual({
      ok: true,
      value: signedIn,
    });
    window.mainFrame.url = `${APP_ORIGIN}/index.html`;
    expect(await invoke('session.signIn', eventFrom(window), goodSignIn)).toEqual(forbidden);
  });
});

describe('forwardEvents', () => {
  function fakeBus() {
    const listeners = new Set<(event: EventName, payload: Events[EventName]) => void>();
    return {
      onAny(listener: (event: EventName, payload: Events[EventName]) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      emit<E extends EventName>(event: E, payload: Events[E]) {
        for (const listener of listeners) listener(event, payload);
      },
    };
  }
  const state = { environmentId: 'local', status: 'signedOut' as const };

  it('sends each event as event:<name> with its payload to our windows', () => {
    const bus = fakeBus();
    const first = fakeContents();
    const second = fakeContents();
    forwardEvents(bus, () => [first.asElectron, second.asElectron], APP_ORIGIN);
    bus.emit('session.changed', state);
    expect(first.sent).toEqual([{ channel: 'event:session.changed', payload: state }]);
    expect(second.sent).toEqual([{ channel: 'event:session.changed', payload: state }]);
  });

  it('skips destroyed windows and windows not showing our origin', () => {
    const bus = fakeBus();
    const destroyed = fakeContents();
    destroyed.contents.destroyed = true;
    const elsewhere = fakeContents('https://evil.example/');
    forwardEvents(bus, () => [destroyed.asElectron, elsewhere.asElectron], APP_ORIGIN);
    bus.emit('session.changed', state);
    expect(destroyed.sent).toEqual([]);
    expect(elsewhere.sent).toEqual([]);
  });

  it('stops when unsubscribed', () => {
    const bus = fakeBus();
    const window = fakeContents();
    const stop = forwardEvents(bus, () => [window.asElectron], APP_ORIGIN);
    stop();
    bus.emit('session.changed', state);
    expect(window.sent).toEqual([]);
  });
});
