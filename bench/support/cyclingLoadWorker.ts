import { parentPort } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { LoadMeasurement, LoadReply } from '../load/loadProtocol.ts';
import type { CyclingLoadRequest } from './cyclingLoadProtocol.ts';

/** The fields of autocannon's raw worker-thread result we read (see `bench/load/loadWorker.ts`). */
interface RawResult {
  totalCompletedRequests: number;
  /** Seconds. */
  duration: number;
  non2xx: number;
  errors: number;
}

/** Runs one autocannon load per message, one at a time, on this worker's own event loop. */
parentPort?.on('message', (request: CyclingLoadRequest) => {
  measure(request).then(
    (measurement) => parentPort?.postMessage({ ok: true, measurement } satisfies LoadReply),
    (error: unknown) =>
      parentPort?.postMessage({ ok: false, error: String(error) } satisfies LoadReply),
  );
});

async function measure(request: CyclingLoadRequest): Promise<LoadMeasurement> {
  let next = 0;
  const result = (await autocannon({
    url: request.origin,
    headers: request.headers,
    connections: request.connections,
    duration: request.durationSeconds,
    requests: [
      {
        method: 'GET',
        // One counter for every connection: the paths are asked strictly in turn.
        setupRequest: (built) => {
          const path = request.paths[next % request.paths.length]!;
          next += 1;
          return { ...built, path };
        },
      },
    ],
  })) as unknown as RawResult;
  return {
    requestsPerSecond: result.totalCompletedRequests / result.duration,
    responses: result.totalCompletedRequests,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
