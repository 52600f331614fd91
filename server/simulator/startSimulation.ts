import type { Db } from '../db/database.ts';
import { Simulator, DEFAULT_SIMULATION_SEED } from './simulator.ts';

/** `startServer({ simulation })`. */
export interface SimulationSettings {
  /** History written at start for simulated sensors without readings; default 90 with demo. */
  historyDays?: number;
  /** Readings every minute while the server runs; default true. */
  live?: boolean;
  /** Default 1: the same plant then looks the same on every machine. */
  seed?: number;
}

export const DEMO_HISTORY_DAYS = 90;

interface SimulationLog {
  info(facts: object, message: string): void;
  error(facts: object, message: string): void;
}

/**
 * Starts the simulator as the server's options say: catches every simulated sensor up to the
 * clock (the demo plant's history on a first start), then live readings every minute.
 * Resolves once the catch-up is written; answers undefined when the simulator is off.
 */
export async function startSimulation(
  db: Db,
  now: () => Date,
  options: { demo: boolean; simulation: SimulationSettings | false | undefined },
  log: SimulationLog,
): Promise<Simulator | undefined> {
  if (options.simulation === false) return undefined;
  const historyDays = options.simulation?.historyDays ?? (options.demo ? DEMO_HISTORY_DAYS : 0);
  const live = options.simulation?.live ?? true;
  if (!live && !(historyDays > 0)) return undefined;
  const simulator = new Simulator(db, {
    seed: options.simulation?.seed ?? DEFAULT_SIMULATION_SEED,
    now,
    onError: (error, plantUuid) =>
      log.error({ err: error, plantUuid }, 'Simulator: readings not written'),
  });
  const started = performance.now();
  const written = await simulator.catchUp(now().getTime(), historyDays);
  if (written.readings > 0) {
    const ms = Math.round(performance.now() - started);
    log.info({ ...written, ms }, `Simulator: ${written.readings} readings written in ${ms} ms`);
  }
  // The demo fleet's older history: written while the server already answers.
  if (historyDays > 0) {
    simulator.startBackfill(now().getTime(), historyDays, (result) => {
      if (result.readings > 0) {
        log.info(result, `Simulator: background history of ${result.plants} plants written`);
      }
    });
  }
  if (live) simulator.startLive();
  return simulator;
}
