import type {
  ApiCallOptions,
  ChannelName,
  CommissioningNotes,
  Draft,
  DraftSaveInput,
  DraftSendInput,
  DraftSendResult,
  Envelope,
  EventName,
  Events,
  FieldRefusal,
  NotePhotoInput,
  NoteStep,
  NotesSubject,
  PlantDeskBridge,
  PreloadApi,
  ProxyLoginAnswerInput,
  ProxyLoginRequest,
  SerializedError,
  Unsubscribe,
} from '../../electron/ipc/contract.ts';

/**
 * The only renderer module that reaches the host. Inside Electron the preload exposes the
 * contract as `window.plantdesk`; in browser mode (`npm run web`) the same contract travels over
 * HTTP to the web host: `POST /rpc/<channel>` with the JSON argument list, and server-sent events
 * from `/events`. Either way every answer is an envelope, unwrapped here into a value or a
 * `PlantDeskError`, so screens never see which transport they run on, nor a token.
 */

declare global {
  interface Window {
    plantdesk?: PreloadApi;
  }
}

/** An error from the host or the API, with the fields the screens show. */
export class PlantDeskError extends Error {
  readonly kind: SerializedError['kind'];
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly path: string | undefined;
  /** The fields a refusal is about, when the server lists them. */
  readonly fieldErrors: readonly FieldRefusal[];

  constructor(serialized: SerializedError) {
    super(serialized.message);
    this.name = 'PlantDeskError';
    this.kind = serialized.kind;
    this.status = serialized.status;
    this.error = serialized.error;
    this.path = serialized.path;
    this.fieldErrors = serialized.fieldErrors ?? [];
  }
}

/** What differs between Electron IPC and HTTP: sending one call, and receiving events. */
export interface Transport {
  request(channel: ChannelName, args: unknown[]): Promise<Envelope<unknown>>;
  on(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

export function createBridge(transport: Transport): PlantDeskBridge {
  async function send(channel: ChannelName, args: unknown[]): Promise<unknown> {
    const envelope = await transport.request(channel, args);
    if (envelope.ok) return envelope.value;
    throw new PlantDeskError(envelope.error);
  }
  return {
    invoke: ((channel: ChannelName, ...args: unknown[]) =>
      send(channel, args)) as PlantDeskBridge['invoke'],
    call: ((route: string, input: unknown, options?: ApiCallOptions) =>
      send(
        'api.call',
        options ? [route, input, options] : [route, input],
      )) as PlantDeskBridge['call'],
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): Unsubscribe {
      return transport.on(event, listener as (payload: unknown) => void);
    },
  };
}

export function ipcTransport(api: PreloadApi): Transport {
  return {
    request(channel, args) {
      const method = api[channel] as (...values: unknown[]) => Promise<Envelope<unknown>>;
      return method(...args);
    },
    on: (event, listener) => api.on(event, listener),
  };
}

const KEY_STORAGE = 'plantdesk.webKey';

/**
 * The web host's key arrives once in the address (`/?key=…`). It is moved to sessionStorage (it
 * survives a reload of this tab, not the browser) and taken out of the address bar, so it is not
 * bookmarked, shared in a screenshot or kept in history.
 */
export function takeWebKey(location: Location, history: History, storage: Storage): string | null {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('key');
  if (fromUrl) {
    storage.setItem(KEY_STORAGE, fromUrl);
    url.searchParams.delete('key');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  return storage.getItem(KEY_STORAGE);
}

function transportFailure(message: string, kind: SerializedError['kind'] = 'network') {
  return { ok: false as const, error: { kind, message } };
}

export function httpTransport(key: string | null, fetchImpl: typeof fetch = fetch): Transport {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let source: EventSource | undefined;

  function connectEvents(): void {
    if (source) return;
    // Without a key the page's session cookie (HttpOnly, set by the host) opens the stream.
    source = new EventSource(key === null ? './events' : `./events?key=${encodeURIComponent(key)}`);
    source.onmessage = (message: MessageEvent<string>) => {
      let parsed: { event: EventName; payload: unknown };
      try {
        parsed = JSON.parse(message.data) as typeof parsed;
      } catch {
        return;
      }
      for (const listener of [...(listeners.get(parsed.event) ?? [])]) listener(parsed.payload);
    };
  }

  return {
    async request(channel, args) {
      let response: Response;
      try {
        response = await fetchImpl(`./rpc/${channel}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(key !== null && { 'x-plantdesk-key': key }),
          },
          // The session cookie the host set when the page was opened.
          credentials: 'same-origin',
          body: JSON.stringify(args),
        });
      } catch {
        return transportFailure(
          'The PlantDesk web host is not reachable; is `npm run web` running?',
        );
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return transportFailure(
          `The PlantDesk web host answered ${response.status} without a readable body`,
          'internal',
        );
      }
      if (isEnvelope(body)) {
        if (!body.ok && response.status === 403 && body.error.message === 'Missing or wrong key') {
          return transportFailure(
            'This page was opened without its key: open the address that `npm run web` printed.',
            'forbidden',
          );
        }
        return body;
      }
      return transportFailure(`The PlantDesk web host answered ${response.status}`, 'internal');
    },
    on(event, listener) {
      connectEvents();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  if (typeof body !== 'object' || body === null || !('ok' in body)) return false;
  return body.ok === true || (body.ok === false && 'error' in body);
}

/** One settled call, as `onCallSettled` listeners see it (the offline banner, for one). */
export interface CallSettlement {
  channel: ChannelName;
  /** For `api.call`: the route. */
  route?: string;
  ok: boolean;
  /** What a successful call answered (what some answers say of the server, e.g. a draft's send). */
  value?: unknown;
  error?: PlantDeskError;
}
export type CallSettledListener = (settlement: CallSettlement) => void;

const settledListeners = new Set<CallSettledListener>();

/**
 * Observes every call and invoke of the window's bridge once it settles: what the connectivity
 * store uses to show the offline banner on a network failure and hide it on any success.
 */
export function onCallSettled(listener: CallSettledListener): Unsubscribe {
  settledListeners.add(listener);
  return () => settledListeners.delete(listener);
}

function settle(settlement: CallSettlement): void {
  for (const listener of [...settledListeners]) {
    try {
      listener(settlement);
    } catch (error) {
      console.error('A call-settled listener failed', error);
    }
  }
}

/** Wraps a bridge so that every call and invoke reports its outcome to `onCallSettled`. */
export function observeBridge(bridge: PlantDeskBridge): PlantDeskBridge {
  async function observed<T>(
    channel: ChannelName,
    route: string | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      const value = await run();
      settle({ channel, route, ok: true, value });
      return value;
    } catch (caught) {
      settle({
        channel,
        route,
        ok: false,
        error: caught instanceof PlantDeskError ? caught : undefined,
      });
      throw caught;
    }
  }
  return {
    invoke: ((channel: Exclude<ChannelName, 'api.call'>, ...args: unknown[]) =>
      observed(channel, undefined, () =>
        (bridge.invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(channel, ...args),
      )) as PlantDeskBridge['invoke'],
    call: ((route: string, input: unknown, options?: ApiCallOptions) =>
      observed('api.call', route, () =>
        (bridge.call as (r: string, i: unknown, o?: ApiCallOptions) => Promise<unknown>)(
          route,
          input,
          options,
        ),
      )) as PlantDeskBridge['call'],
    on: (event, listener) => bridge.on(event, listener),
  };
}

let instance: PlantDeskBridge | undefined;

/** The bridge of this window: IPC when the preload is there, HTTP otherwise. */
export function useBridge(): PlantDeskBridge {
  instance ??= observeBridge(
    createBridge(
      window.plantdesk
        ? ipcTransport(window.plantdesk)
        : httpTransport(takeWebKey(window.location, window.history, window.sessionStorage)),
    ),
  );
  return instance;
}

/** The host's commissioning drafts, as typed calls (see the `drafts.*` channels). */
export interface DraftCalls {
  /** The active environment's drafts of its account, newest first. */
  list(): Promise<Draft[]>;
  get(draftId: string): Promise<Draft>;
  /** Without `draftId`, a new draft. */
  save(input: DraftSaveInput): Promise<Draft>;
  remove(draftId: string): Promise<void>;
  /** `secrets`: the secret vendor settings the draft names, typed again for this send only. */
  send(draftId: string, input?: DraftSendInput): Promise<DraftSendResult>;
}

export function draftCalls(bridge: PlantDeskBridge = useBridge()): DraftCalls {
  return {
    list: () => bridge.invoke('drafts.list'),
    get: (draftId) => bridge.invoke('drafts.get', draftId),
    save: (input) => bridge.invoke('drafts.save', input),
    remove: (draftId) => bridge.invoke('drafts.delete', draftId),
    send: (draftId, input) =>
      input === undefined
        ? bridge.invoke('drafts.send', draftId)
        : bridge.invoke('drafts.send', draftId, input),
  };
}

/** The host's notes and photos of a commissioning (see the `commissioningNotes.*` channels). */
export interface NotesCalls {
  get(subject: NotesSubject): Promise<CommissioningNotes>;
  setText(subject: NotesSubject, step: NoteStep, text: string): Promise<CommissioningNotes>;
  addPhoto(
    subject: NotesSubject,
    step: NoteStep,
    photo: NotePhotoInput,
  ): Promise<CommissioningNotes>;
  removePhoto(subject: NotesSubject, step: NoteStep, photoId: string): Promise<CommissioningNotes>;
}

export function notesCalls(bridge: PlantDeskBridge = useBridge()): NotesCalls {
  return {
    get: (subject) => bridge.invoke('commissioningNotes.get', subject),
    setText: (subject, step, text) =>
      bridge.invoke('commissioningNotes.setText', subject, step, text),
    addPhoto: (subject, step, photo) =>
      bridge.invoke('commissioningNotes.addPhoto', subject, step, photo),
    removePhoto: (subject, step, photoId) =>
      bridge.invoke('commissioningNotes.removePhoto', subject, step, photoId),
  };
}

/**
 * A proxy between the host and the server asks for a user name and password (the desktop app):
 * the host's questions, and the page's answers (null: cancelled).
 */
export interface ProxyLoginCalls {
  onRequested(listener: (request: ProxyLoginRequest) => void): Unsubscribe;
  answer(requestId: string, answer: ProxyLoginAnswerInput | null): Promise<boolean>;
}

export function proxyLoginCalls(bridge: PlantDeskBridge = useBridge()): ProxyLoginCalls {
  return {
    onRequested: (listener) => bridge.on('proxyAuth.requested', listener),
    answer: (requestId, answer) => bridge.invoke('proxyAuth.answer', requestId, answer),
  };
}

/**
 * Component tests: the bridge every later `useBridge()` answers (observed like the real one), and
 * no call-settled listener left over from an earlier test. Create a fresh Pinia after this, so
 * the stores pick the new bridge up.
 */
export function provideBridgeForTests(bridge: PlantDeskBridge): PlantDeskBridge {
  settledListeners.clear();
  instance = observeBridge(bridge);
  return instance;
}
