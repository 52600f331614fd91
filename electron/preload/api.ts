// Types only from the contract: its schemas (zod, the route table) stay out of the preload.
import type { PreloadApi, Unsubscribe } from '../ipc/contract.ts';
import { CHANNEL_NAMES, EVENT_NAMES, type EventName } from '../ipc/names.ts';

/** The channel an event travels on from main to the renderer. */
export function eventChannel(event: EventName): string {
  return `event:${event}`;
}

/** The part of `ipcRenderer` the bridge uses; it never leaves this module. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);
}

/**
 * `window.plantdesk`: exactly one method per contract channel, each forwarding its arguments
 * to `ipcRenderer.invoke`, and `on` for the contract's events. The page never gets
 * `ipcRenderer` itself, nor the `IpcRendererEvent` (whose `sender` is ipcRenderer): listeners
 * receive the payload only.
 */
export function createPreloadApi(ipc: IpcRendererLike): PreloadApi {
  const api: Record<string, unknown> = {};
  for (const channel of CHANNEL_NAMES) {
    api[channel] = (...args: unknown[]) => ipc.invoke(channel, ...args);
  }
  api.on = (event: unknown, listener: unknown): Unsubscribe => {
    if (!isEventName(event)) throw new TypeError(`Unknown PlantDesk event '${String(event)}'`);
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function');
    const relay = (_event: unknown, payload: unknown) =>
      (listener as (p: unknown) => void)(payload);
    ipc.on(eventChannel(event), relay);
    return () => {
      ipc.removeListener(eventChannel(event), relay);
    };
  };
  return Object.freeze(api) as PreloadApi;
}
