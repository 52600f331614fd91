import { parentPort } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { LoadMeasurement, LoadReply, LoadRequest } from './loadProtocol.ts';

/**
 * Outside the main thread autocannon resolves with its raw, not yet aggregated result (it
 * expects its own worker manager to merge it), which `@types/autocannon` does not describe.
 * These are the fields of it we read; requests/s is completed responses over elapsed seconds.
 */
interface RawResult {
  totalCompletedRequests: number;
  /** Seconds. */
  duration: number;
  non2xx: number;
  errors: number;
}

/** Runs one autocannon load per message, one at a time, on this worker's own event loop. */
parentPort?.on('message', (request: LoadRequest) => {
  measure(request).then(
    (measurement) => parentPort?.postMessage({ ok: true, measurement } satisfies LoadReply),
    (error: unknown) =>
      parentPort?.postMessage({ ok: false, error: String(error) } satisfies LoadReply),
  );
});

async function measure(request: LoadRequest): Promise<LoadMeasurement> {
  const result = (await autocannon({
    url: request.url,
    headers: request.headers,
    connections: request.connections,
    duration: request.durationSeconds,
    ...(request.paths && { requests: [cycling(request.paths)] }),
  })) as unknown as RawResult;
  return {
    requestsPerSecond: result.totalCompletedRequests / result.duration,
    responses: result.totalCompletedRequests,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** One request that takes the next of `paths` each time it is sent. */
function cycling(paths: readonly string[]): autocannon.Request {
  let next = 0;
  return {
    method: 'GET',
    // One counter for every connection: the paths are asked strictly in turn.
    setupRequest: (built) => {
      const path = paths[next % paths.length]!;
      next += 1;
      return { ...built, path };
    },
  };
}
