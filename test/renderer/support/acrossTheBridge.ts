import { afterEach, expect } from 'vitest';
import type { PlantDeskBridge } from '../../../electron/ipc/contract.ts';

/**
 * What crossing Electron's bridge does to a call's arguments: contextBridge and IPC copy them
 * with the structured clone algorithm (Node's structuredClone here, the same v8 serializer),
 * which refuses a Proxy, so a Vue reactive
 * object passed to the bridge fails only in Electron. Component tests' fake hosts copy every
 * argument list through here; a refusal fails the call, as in Electron, and the test after it.
 */

const refused: string[] = [];

export function acrossTheBridge(channel: string, args: unknown[]): unknown[] {
  try {
    return structuredClone(args);
  } catch (error) {
    refused.push(`${channel}: ${String(error)}`);
    // Electron's words for it.
    throw new Error('An object could not be cloned.', { cause: error });
  }
}

/** The refusals so far, taken (for tests of the refusal itself). */
export function takeRefusals(): string[] {
  return refused.splice(0);
}

/** A bridge whose calls copy their arguments as Electron's would (for tests with their own host). */
export function cloningBridge(bridge: PlantDeskBridge): PlantDeskBridge {
  return {
    invoke: ((channel: string, ...args: unknown[]) =>
      (bridge.invoke as (c: string, ...a: unknown[]) => Promise<unknown>)(
        channel,
        ...acrossTheBridge(channel, args),
      )) as PlantDeskBridge['invoke'],
    call: ((route: string, ...rest: unknown[]) =>
      (bridge.call as (r: string, ...a: unknown[]) => Promise<unknown>)(
        route,
        ...acrossTheBridge(`api.call ${route}`, rest),
      )) as PlantDeskBridge['call'],
    on: (event, listener) => bridge.on(event, listener),
  };
}

// A screen that catches the failed call would hide it; the test still fails, naming the call.
afterEach(() => {
  const calls = takeRefusals();
  expect(calls, 'arguments that Electron could not send across the bridge').toEqual([]);
});
