import type { SerializedError } from '../ipc/contract.ts';
import type { BridgeableError } from '../ipc/dispatch.ts';

/** A refusal of the host itself (not of the API), shown to the user as is. */
export class HostError extends Error implements BridgeableError {
  readonly kind: SerializedError['kind'];

  constructor(kind: SerializedError['kind'], message: string) {
    super(message);
    this.name = 'HostError';
    this.kind = kind;
  }

  toSerialized(): SerializedError {
    return { kind: this.kind, message: this.message };
  }
}
