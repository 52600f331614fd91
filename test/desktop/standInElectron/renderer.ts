import { readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import vm from 'node:vm';

/**
 * The renderer side of a stand-in window: its sandboxed preload runs in a context of its own
 * (the isolated world), where `require` knows only 'electron', and what it exposes reaches the
 * page (the main world) as Electron's contextBridge passes it: functions proxied, every argument,
 * return value and error copied by the structured clone algorithm (v8's serializer, as Electron
 * uses), so a Vue reactive proxy fails here as it does in Electron.
 */

/** Copies a value across worlds or processes; throws Electron's error for what cannot be. */
export function cloneAcross<T>(value: T): T {
  try {
    return deserialize(serialize(value)) as T;
  } catch {
    throw new Error('An object could not be cloned.');
  }
}

/** What the main process sees of an `ipcRenderer.invoke` (IpcMainInvokeEvent's used part). */
export interface InvokeEvent {
  sender: unknown;
  senderFrame: unknown;
  processId: number;
  frameId: number;
}

export interface RendererHost {
  /** Delivers an invoke to ipcMain's handler; rejects as Electron does when there is none. */
  invoke(channel: string, args: unknown[]): Promise<unknown>;
}

type Listener = (event: unknown, ...args: unknown[]) => void;

export interface RendererWorlds {
  /** `window` of the page: what contextBridge exposed. */
  mainWorld: Record<string, unknown>;
  /** Called by webContents.send: delivers to ipcRenderer.on listeners. */
  deliver(channel: string, args: unknown[]): void;
  /** Modules the preload asked `require` for. */
  required: string[];
}

function bridged(value: unknown, path: string): unknown {
  if (typeof value === 'function') {
    return (...args: unknown[]) => {
      const copied = cloneAcross(args);
      const result = (value as (...a: unknown[]) => unknown)(...copied);
      if (result instanceof Promise) return result.then((resolved) => cloneAcross(resolved));
      return cloneAcross(result);
    };
  }
  if (Array.isArray(value))
    return Object.freeze(value.map((item, i) => bridged(item, `${path}[${i}]`)));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = bridged(item, `${path}.${key}`);
    return Object.freeze(copy);
  }
  if (typeof value === 'symbol') return undefined;
  return value;
}

/** Runs `preloadFile` (CommonJS) for a page of `host`, returning the page's world. */
export function runPreload(preloadFile: string, host: RendererHost): RendererWorlds {
  const mainWorld: Record<string, unknown> = {};
  const listeners = new Map<string, Set<Listener>>();
  const required: string[] = [];
  const ipcRenderer = {
    invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      let copied: unknown[];
      try {
        copied = cloneAcross(args);
      } catch (error) {
        return Promise.reject(error);
      }
      return host.invoke(channel, copied).then((value) => cloneAcross(value));
    },
    on(channel: string, listener: Listener) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: Listener) {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown) {
      if (key in mainWorld)
        throw new Error(`Cannot bind an API on top of an existing property on the window object`);
      mainWorld[key] = bridged(api, key);
    },
  };
  const electron = Object.freeze({ contextBridge, ipcRenderer });
  const module = { exports: {} as unknown };
  const sandboxRequire = (name: string) => {
    required.push(name);
    // A sandboxed preload may require 'electron' (and a few polyfilled Node modules, which ours
    // does not need: asking for one means the bundle kept an import it should not have).
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name}`);
  };
  const context = vm.createContext({ console, setTimeout, clearTimeout, queueMicrotask });
  const wrapper = vm.runInContext(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(preloadFile, 'utf8')}\n})`,
    context,
    { filename: preloadFile },
  ) as (...args: unknown[]) => void;
  wrapper(module.exports, sandboxRequire, module, preloadFile, '.');
  return {
    mainWorld,
    required,
    deliver(channel, args) {
      const copied = cloneAcross(args);
      for (const listener of [...(listeners.get(channel) ?? [])])
        listener({ sender: ipcRenderer }, ...copied);
    },
  };
}
