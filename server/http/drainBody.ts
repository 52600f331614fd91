import type { IncomingMessage } from 'node:http';

export interface DrainLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** Reading past the body limit is bounded: a client that keeps sending beyond this is cut off. */
export const DRAIN_LIMITS: DrainLimits = { maxBytes: 64 * 1024 * 1024, timeoutMs: 10_000 };

/**
 * Reads and discards what is left of a request's body. Fastify refuses an oversized body before
 * reading it; answering at once makes Node close the socket while the client is still sending,
 * and most clients then see a broken pipe instead of the 413 and its error body.
 */
export function drainRequestBody(
  request: IncomingMessage,
  limits: DrainLimits = DRAIN_LIMITS,
): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', finish);
      request.off('error', finish);
      request.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) finish();
    };
    const timer = setTimeout(finish, limits.timeoutMs);
    request.on('data', onData);
    request.once('end', finish);
    request.once('error', finish);
    request.once('close', finish);
    request.resume();
  });
}
