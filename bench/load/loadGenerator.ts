import { Worker } from 'node:worker_threads';
import type { LoadMeasurement, LoadReply, LoadRequest } from './loadProtocol.ts';

export interface ServerMeasurement extends LoadMeasurement {
  /**
   * CPU time (user + system) this thread spent per completed response while the load ran. The
   * servers run on this thread and the load generator does not, so this is what one request
   * costs the server; unlike requests/s it hardly moves when other processes share the machine.
   */
  cpuMicrosPerResponse: number;
}

/**
 * autocannon in a worker thread of the bench process. Run on the main thread, the load generator
 * would share one event loop with the servers it measures: every request's client-side cost
 * (building, parsing, histogram bookkeeping) would be paid on the same thread as the server's
 * work, which adds the same constant to both sides and pulls every ratio towards 1. In a worker
 * it has its own thread (and, given two cores, its own core), so the servers alone decide the
 * throughput, while everything still runs in-process with no external tool.
 * One long-lived worker serves every measurement, so the client is equally warm for all of them.
 */
export class LoadGenerator {
  readonly #worker: Worker;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  static async start(): Promise<LoadGenerator> {
    const worker = new Worker(new URL('./loadWorker.ts', import.meta.url));
    await new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
    return new LoadGenerator(worker);
  }

  async measure(request: LoadRequest): Promise<ServerMeasurement> {
    const cpuBefore = process.threadCpuUsage();
    const measurement = await this.#run(request);
    const cpu = process.threadCpuUsage(cpuBefore);
    const cpuMicrosPerResponse = (cpu.user + cpu.system) / Math.max(1, measurement.responses);
    return { ...measurement, cpuMicrosPerResponse };
  }

  #run(request: LoadRequest): Promise<LoadMeasurement> {
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
