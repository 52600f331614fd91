import { parentPort, workerData } from 'node:worker_threads';
import { startServer } from '../../server/index.ts';
import { createFleet } from './fleetPlants.ts';

/**
 * A server with a generated fleet, on a thread of its own, so that a benchmark of a client can
 * count its own thread's CPU time apart from the server's. Posts `{ url, setup }` once ready and
 * closes the server when told `'close'`.
 */
const { plants, days, clockMs, db, extensions } = workerData as {
  plants: number;
  days: number;
  clockMs: number;
  db: string;
  extensions: boolean;
};

const server = await startServer({
  port: 0,
  db,
  demo: true,
  demoFleet: 0,
  simulation: false,
  logger: false,
  clock: clockMs,
  extensions,
});
const setup = plants > 0 ? await createFleet(server.context, plants, days, clockMs) : null;
parentPort!.postMessage({ url: server.url, setup });
parentPort!.on('message', (message) => {
  if (message === 'close') void server.close().then(() => process.exit(0));
});
