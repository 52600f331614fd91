import type { EventName, Events, Unsubscribe } from '../ipc/contract.ts';

export type Emit = <E extends EventName>(event: E, payload: Events[E]) => void;

export interface EventBus {
  emit: Emit;
  /** Every event, for transports that forward all of them (Electron windows, SSE clients). */
  onAny(listener: (event: EventName, payload: Events[EventName]) => void): Unsubscribe;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): Unsubscribe;
}

/** Services emit the contract's events here; the host forwards them to the renderer. */
export function createEventBus(): EventBus {
  const listeners = new Set<(event: EventName, payload: Events[EventName]) => void>();
  return {
    emit(event, payload) {
      for (const listener of [...listeners]) listener(event, payload);
    },
    onAny(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    on(event, listener) {
      const wrapped = (name: EventName, payload: Events[EventName]) => {
        if (name === event) listener(payload as Events[typeof event]);
      };
      listeners.add(wrapped);
      return () => listeners.delete(wrapped);
    },
  };
}
