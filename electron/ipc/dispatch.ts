import type { z } from 'zod';
import {
  channels,
  type ChannelHandlers,
  type ChannelName,
  type Envelope,
  type SerializedError,
} from './contract.ts';

/** Errors that already know how to cross the bridge (ApiError and friends) implement this. */
export interface BridgeableError {
  toSerialized(): SerializedError;
}

function isBridgeable(error: unknown): error is BridgeableError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<BridgeableError>).toSerialized === 'function'
  );
}

function isChannel(name: string): name is ChannelName {
  return Object.hasOwn(channels, name);
}

export type Dispatch = (channel: string, args: unknown) => Promise<Envelope<unknown>>;

/**
 * The transport-neutral half of the IPC router: checks that the channel exists and that the
 * arguments pass its schema, calls the handler, and answers an envelope so that an error keeps
 * its kind, status and message across Electron IPC and HTTP alike. Sender and origin checks are
 * the transport's job (Electron main, web host) and happen before this.
 */
export function createDispatcher(
  handlers: ChannelHandlers,
  onUnexpected: (channel: string, error: unknown) => void = () => {},
): Dispatch {
  return async (channel, args) => {
    if (!isChannel(channel)) {
      return failure({ kind: 'invalidArguments', message: `Unknown channel '${channel}'` });
    }
    const parsed = (channels[channel].args as z.ZodType).safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      return failure({
        kind: 'invalidArguments',
        message: `Invalid arguments for '${channel}'${where}: ${issue?.message ?? 'rejected'}`,
      });
    }
    const handler = handlers[channel] as (...values: unknown[]) => Promise<unknown>;
    try {
      return { ok: true, value: await handler(...(parsed.data as unknown[])) };
    } catch (error) {
      if (isBridgeable(error)) return failure(error.toSerialized());
      onUnexpected(channel, error);
      return failure({ kind: 'internal', message: `'${channel}' failed unexpectedly` });
    }
  };
}

function failure(error: SerializedError): Envelope<never> {
  return { ok: false, error };
}
