import type { Envelope, LocalSandboxState } from '../../electron/ipc/contract.ts';
import { createMemoryStore } from '../../electron/services/secrets.ts';
import type { createDispatcher } from '../../electron/ipc/dispatch.ts';
import { until } from './until.ts';

/** Host calls in tests of the real services: a channel's value, or its error message thrown. */
export function channelValues(dispatch: ReturnType<typeof createDispatcher>) {
  return async function value<T>(channel: string, ...args: unknown[]): Promise<T> {
    const envelope = (await dispatch(channel, args)) as Envelope<T>;
    if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
    return envelope.value;
  };
}

/** Waits for the host's Local sandbox to run (a minute at most); fails when it failed. */
export function sandboxRunning(
  value: ReturnType<typeof channelValues>,
): Promise<LocalSandboxState> {
  return until(async () => {
    const sandbox = await value<LocalSandboxState>('localSandbox.state');
    if (sandbox.status === 'failed') throw new Error('the Local sandbox failed');
    return sandbox.status === 'running' ? sandbox : undefined;
  }, 60_000);
}

/** startPlantDesk's secrets in memory, with a keychain said to be there. */
export function memorySecrets() {
  return {
    store: { ...createMemoryStore(), available: true },
    status: async () => ({ available: true }),
  };
}
