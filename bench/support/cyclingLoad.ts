import { Worker } from 'node:worker_threads';
import type { LoadMeasurement, LoadReply } from '../load/loadProtocol.ts';
import type { ServerMeasurement } from '../load/loadGenerator.ts';
import type { CyclingLoadRequest } from './cyclingLoadProtocol.ts';

/**
 * `bench/load/loadGenerator.ts` for loads that cycle over many paths: autocannon in a worker
 * thread of its own, the server's CPU per response measured on this thread. Used for every
 * measurement of a comparison (a single path is a cycle of one), so both sides of a ratio see
 * the same client.
 */
export class CyclingLoad {
  readonly #worker: Worker;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  static async start(): Promise<CyclingLoad> {
    const worker = new Worker(new URL('./cyclingLoadWorker.ts', import.meta.url));
    await new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
    return new CyclingLoad(worker);
  }

  async measure(request: CyclingLoadRequest): Promise<ServerMeasurement> {
    const cpuBefore = process.threadCpuUsage();
    const measurement = await this.#run(request);
    const cpu = process.threadCpuUsage(cpuBefore);
    const cpuMicrosPerResponse = (cpu.user + cpu.system) / Math.max(1, measurement.responses);
    return { ...measurement, cpuMicrosPerResponse };
  }

  #run(request: CyclingLoadRequest): Promise<LoadMeasurement> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.#worker.once('error', onError);
      this.#worker.once('message', (reply: LoadReply) => {
        this.#worker.off('error', onError);
        if (reply.ok) resolve(reply.measurement);
        else reject(new Error(`load generator failed: ${reply.error}`));
      });
      this.#worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}
