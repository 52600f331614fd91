import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { STOP_MESSAGE, stopOnParentMessage } from '../../../electron/main/parentPortStop.ts';
import { createShutdownRequest } from '../../../server/shutdownRequest.ts';

describe('stopOnParentMessage', () => {
  it('stops on the stop message from the parent port, and on nothing else', () => {
    const port = new EventEmitter();
    const stop = vi.fn();
    stopOnParentMessage(port, stop);
    port.emit('message', { data: 'hello' });
    port.emit('message', { data: { type: STOP_MESSAGE } });
    expect(stop).not.toHaveBeenCalled();
    port.emit('message', { data: STOP_MESSAGE, ports: [] });
    expect(stop).toHaveBeenCalledOnce();
  });

  it('does nothing without a parent port (the CLI run by plain Node)', () => {
    expect(() => stopOnParentMessage(undefined, vi.fn())).not.toThrow();
  });
});

describe('createShutdownRequest', () => {
  it('runs the shutdown when asked, and keeps a request made before the server listens', () => {
    const early = createShutdownRequest();
    early.request();
    const shutdown = vi.fn();
    early.onRequest(shutdown);
    expect(shutdown).toHaveBeenCalledOnce();

    const later = createShutdownRequest();
    const laterShutdown = vi.fn();
    later.onRequest(laterShutdown);
    expect(laterShutdown).not.toHaveBeenCalled();
    later.request();
    expect(laterShutdown).toHaveBeenCalledOnce();
  });
});
