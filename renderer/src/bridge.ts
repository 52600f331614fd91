import type {
  ApiCallOptions,
  ChannelName,
  Envelope,
  EventName,
  Events,
  PlantDeskBridge,
  PreloadApi,
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

  constructor(serialized: SerializedError) {
    super(serialized.message);
    this.name = 'PlantDeskError';
    this.kind = serialized.kind;
    this.status = serialized.status;
    this.error = serialized.error;
    this.path = serialized.path;
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
    if (source || key === null) return;
    source = new EventSource(`./events?key=${encodeURIComponent(key)}`);
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
      if (key === null) {
        return transportFailure(
          'This page was opened without its key: open the address that `npm run web` printed.',
          'forbidden',
        );
      }
      let response: Response;
      try {
        response = await fetchImpl(`./rpc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-plantdesk-key': key },
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
      if (isEnvelope(body)) return body;
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

let instance: PlantDeskBridge | undefined;

/** The bridge of this window: IPC when the preload is there, HTTP otherwise. */
export function useBridge(): PlantDeskBridge {
  instance ??= createBridge(
    window.plantdesk
      ? ipcTransport(window.plantdesk)
      : httpTransport(takeWebKey(window.location, window.history, window.sessionStorage)),
  );
  return instance;
}
