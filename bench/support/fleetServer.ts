import { Worker } from 'node:worker_threads';
import type { FleetSetup } from './fleetPlants.ts';

export interface FleetServer {
  url: string;
  setup: FleetSetup | null;
  close(): Promise<void>;
}

/** Starts `fleetServerWorker.ts` (a server with `plants` generated plants) on its own thread. */
export function startFleetServer(options: {
  plants: number;
  days: number;
  clockMs: number;
  /** A file shared with a second server (without extensions, say), or ':memory:'. */
  db: string;
  extensions?: boolean;
}): Promise<FleetServer> {
  const worker = new Worker(new URL('./fleetServerWorker.ts', import.meta.url), {
    workerData: { extensions: true, ...options },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', ({ url, setup }: { url: string; setup: FleetSetup | null }) =>
      resolve({
        url,
        setup,
        close: async () => {
          const exited = new Promise((done) => worker.once('exit', done));
          worker.postMessage('close');
          await exited;
        },
      }),
    );
  });
}
