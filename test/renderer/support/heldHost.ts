import type { Envelope, SerializedError } from '../../../electron/ipc/contract.ts';
import { createBridge, provideBridgeForTests } from '../../../renderer/src/bridge.ts';

/**
 * A fake host whose answers the test releases one by one, for tests of what the renderer does
 * with slow, out-of-order and failed answers: every API call waits in `pending` until answered;
 * `api.cancel` is recorded in `cancelled`.
 *
 *   const host = holdHostAnswers();
 *   host.pending[0]!.answer(ok({ name: 'Hof Aue' }));
 */

export interface PendingCall {
  route: string;
  input: { params?: Record<string, string>; query?: Record<string, unknown> };
  requestId: string | undefined;
  answer(envelope: Envelope<unknown>): void;
}

export interface HeldHost {
  pending: PendingCall[];
  /** The request ids the renderer cancelled. */
  cancelled: string[];
}

/** Provides the held host as the bridge every later `useBridge()` answers. */
export function holdHostAnswers(): HeldHost {
  const host: HeldHost = { pending: [], cancelled: [] };
  provideBridgeForTests(
    createBridge({
      request(channel, args) {
        if (channel === 'api.cancel') {
          host.cancelled.push(args[0] as string);
          return Promise.resolve({ ok: true, value: undefined });
        }
        const [route, input, options] = args as [
          string,
          PendingCall['input'],
          { requestId?: string },
        ];
        return new Promise((answer) =>
          host.pending.push({ route, input, requestId: options?.requestId, answer }),
        );
      },
      on: () => () => {},
    }),
  );
  return host;
}

export const ok = (value: unknown): Envelope<unknown> => ({ ok: true, value });
export const failed = (error: SerializedError): Envelope<unknown> => ({ ok: false, error });
