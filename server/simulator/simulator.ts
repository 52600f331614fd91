import { inTransaction, type Db } from '../db/database.ts';
import {
  ingestMany,
  latestReadingTimes,
  readingAtOrAfter,
  type SensorReadings,
} from '../measurements/readingsStore.ts';
import { externallyFed } from './externalFeeds.ts';
import { DAY_MS, MINUTE_MS } from './plantClock.ts';
import {
  simulatedPlants,
  simulatorConnectedSensors,
  type SimulatedPlant,
} from './plantInventory.ts';
import { createPlantSimulation, type PlantSimulation } from './plantSimulation.ts';
import { appendDayReadings } from './sensorReadings.ts';

/**
 * The SIMULATOR vendor integration: writes the readings of every simulated sensor (see
 * plantInventory.ts) through the readings store, as a backfill at start and live afterwards.
 *
 * Each pass ("catch-up") brings every simulated sensor up to the clock: a sensor resumes after
 * its latest reading, looking back at most 90 days (after a long stop); a sensor without any
 * reading gets `historyDays` of history, or, live, just its reading of the current minute.
 * Values are pure functions of (seed, plant, time), so where a pass starts changes nothing.
 *
 * Live, a pass runs every minute, and also as soon as a sensor newly connected at a `sim://`
 * address is seen (checked every few seconds): an installer commissioning a plant sees its
 * first reading within seconds, not up to a minute later.
 */

export const DEFAULT_SIMULATION_SEED = 1;
export const MAX_CATCH_UP_DAYS = 90;
/**
 * What a plant with background history gets before the server listens; the rest is written
 * newest day first, so the last week (PV health, specific yield) is complete within seconds.
 */
export const FIRST_HISTORY_DAYS = 1;
/**
 * The most history a plant of the demo fleet gets, in the background: two weeks covers PV
 * health's 7 days and the fleet's figures, and keeps a first start from writing a quarter-year
 * for each of a dozen plants while the user is already at work (Demo Home keeps its full history).
 */
export const BACKGROUND_HISTORY_DAYS = 14;
/** One catch-up writes at most this many readings per sensor (90 days at one a minute). */
export const MAX_CATCH_UP_READINGS = MAX_CATCH_UP_DAYS * 1440;
/**
 * Plant simulations kept between passes (a few days of minute arrays each, ~1 MB): beyond this
 * many plants the least recently used is rebuilt when next needed (~20 ms).
 */
const MAX_KEPT_SIMULATIONS = 32;
/** Live ticks run this long after each minute starts, so that minute's reading is due. */
const TICK_DELAY_MS = 250;
/** How often live mode looks for sensors newly connected to the simulator. */
export const NEW_SENSOR_CHECK_MS = 3_000;

export interface CatchUpOptions {
  seed?: number;
  /** The clock, epoch ms: readings are written up to and including it. */
  nowMs: number;
  /** History for sensors that have no reading yet, days (default 0: the current reading). */
  historyDays?: number;
}

export interface CatchUpResult {
  plants: number;
  sensors: number;
  readings: number;
}

export interface SimulatorOptions {
  seed?: number;
  now: () => Date;
  /**
   * Where failures are reported: one plant's failure skips that plant until the next pass, a
   * failed live tick waits for the next minute; neither stops the simulator.
   */
  onError?: (error: unknown, plantUuid?: string) => void;
  /** How often live mode looks for newly connected sensors; default NEW_SENSOR_CHECK_MS. */
  newSensorCheckMs?: number;
}

/** Runs one catch-up pass over the database; the way to drive the simulator from tests. */
export function simulateUpTo(db: Db, options: CatchUpOptions): Promise<CatchUpResult> {
  return new Simulator(db, {
    seed: options.seed,
    now: () => new Date(options.nowMs),
    // The caller wants to see what failed.
    onError: (error) => {
      throw error;
    },
  }).catchUp(options.nowMs, options.historyDays);
}

export class Simulator {
  readonly #db: Db;
  readonly #seed: number;
  readonly #now: () => Date;
  readonly #onError: (error: unknown, plantUuid?: string) => void;
  readonly #newSensorCheckMs: number;
  /** Plant simulations, kept while their configuration stays the same (their caches help). */
  readonly #simulations = new Map<string, { fingerprint: string; simulation: PlantSimulation }>();
  #timer: NodeJS.Timeout | undefined;
  #newSensorTimer: NodeJS.Timeout | undefined;
  /** Live passes, one after the other (a minute tick and a new sensor's pass never overlap). */
  #running: Promise<void> = Promise.resolve();
  /** The connected sensors the last new-sensor check saw; undefined before the first. */
  #knownSensors: Set<string> | undefined;
  #stopped = false;
  /** A backfill running in the background (startBackfill). */
  #background: Promise<void> = Promise.resolve();

  constructor(db: Db, options: SimulatorOptions) {
    this.#db = db;
    this.#seed = options.seed ?? DEFAULT_SIMULATION_SEED;
    this.#now = options.now;
    this.#onError = options.onError ?? ((error) => console.error(error));
    this.#newSensorCheckMs = options.newSensorCheckMs ?? NEW_SENSOR_CHECK_MS;
  }

  /**
   * Brings every simulated sensor up to `nowMs`; see the module comment. A plant whose history
   * is written in the background gets at most `FIRST_HISTORY_DAYS` now (see `backfill`).
   */
  async catchUp(nowMs: number, historyDays = 0): Promise<CatchUpResult> {
    const plants = await simulatedPlants(this.#db, this.#seed);
    this.#forgetOtherPlants(plants);
    const result: CatchUpResult = { plants: 0, sensors: 0, readings: 0 };
    for (const plant of plants) {
      let written: { sensors: number; readings: number };
      const days = plant.backgroundHistory
        ? Math.min(historyDays, FIRST_HISTORY_DAYS)
        : historyDays;
      try {
        written = await this.#catchUpPlant(plant, nowMs, days);
      } catch (error) {
        // A sensor or the plant deleted meanwhile; the other plants go on.
        this.#onError(error, plant.config.plantUuid);
        continue;
      }
      if (written.readings === 0) continue;
      result.plants += 1;
      result.sensors += written.sensors;
      result.readings += written.readings;
    }
    return result;
  }

  /**
   * Writes the history of the plants whose history comes in the background, back to
   * `historyDays` (at most BACKGROUND_HISTORY_DAYS) before `nowMs`, one plant-day per transaction and yielding between them, so
   * that requests are served meanwhile. Stops early when the simulator stops.
   */
  async backfill(nowMs: number, historyDays: number): Promise<CatchUpResult> {
    const result: CatchUpResult = { plants: 0, sensors: 0, readings: 0 };
    const plants = (await simulatedPlants(this.#db, this.#seed)).filter(
      (plant) => plant.backgroundHistory,
    );
    const days = Math.min(historyDays, MAX_CATCH_UP_DAYS, BACKGROUND_HISTORY_DAYS);
    const fromMs = nowMs - days * DAY_MS;
    for (const plant of plants) {
      if (this.#stopped) break;
      try {
        const written = await this.#backfillPlant(plant, fromMs);
        if (written.readings === 0) continue;
        result.plants += 1;
        result.sensors += written.sensors;
        result.readings += written.readings;
      } catch (error) {
        this.#onError(error, plant.config.plantUuid);
      }
    }
    return result;
  }

  async #backfillPlant(
    plant: SimulatedPlant,
    fromMs: number,
  ): Promise<{ sensors: number; readings: number }> {
    const simulation = this.#simulationOf(plant);
    const earliest = new Map<string, number>();
    for (const entry of plant.sensors) {
      const first = await readingAtOrAfter(this.#db, entry.sensor.sensorUuid, 0);
      // A sensor without readings is caught up by the live passes, not here.
      if (first) earliest.set(entry.sensor.sensorUuid, first.takenAt);
    }
    const sensors = new Set<string>();
    let readings = 0;
    const lastDay = Math.floor(Math.max(...earliest.values(), fromMs) / DAY_MS);
    for (let dayIndex = lastDay; dayIndex >= Math.floor(fromMs / DAY_MS); dayIndex--) {
      if (this.#stopped) break;
      const batches: SensorReadings[] = [];
      for (const entry of plant.sensors) {
        const until = earliest.get(entry.sensor.sensorUuid);
        if (until === undefined || until <= fromMs) continue;
        const columns = { takenAt: [] as number[], values: [] as number[] };
        appendDayReadings(simulation, entry, dayIndex, fromMs, until - 1, columns);
        if (columns.takenAt.length > 0) batches.push({ sensor: entry.sensor, ...columns });
      }
      if (batches.length > 0) {
        const written = await inTransaction(this.#db, async (trx) => {
          const fed = await externallyFed(
            trx,
            batches.map((batch) => batch.sensor.sensorUuid),
          );
          const mine = batches.filter((batch) => !fed.has(batch.sensor.sensorUuid));
          for (const batch of mine) sensors.add(batch.sensor.sensorUuid);
          return ingestMany(trx, mine);
        });
        readings += written.readings;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { sensors: sensors.size, readings };
  }

  /**
   * Live readings every minute, on the minute, until `stop()`; and a newly connected sensor's
   * reading of the current minute within `newSensorCheckMs` of its creation.
   */
  startLive(): void {
    if (this.#stopped) return;
    // What is connected now has just been caught up (startSimulation): only newer sensors count.
    if (this.#knownSensors === undefined) void this.#livePass(() => this.#catchUpNewSensors());
    this.#scheduleTick();
    this.#scheduleNewSensorCheck();
  }

  /** Stops live readings and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#newSensorTimer);
    this.#timer = undefined;
    this.#newSensorTimer = undefined;
    await this.#running;
    await this.#background;
  }

  /** `backfill` started without waiting for it; `stop()` waits for it to notice and end. */
  startBackfill(
    nowMs: number,
    historyDays: number,
    onDone: (result: CatchUpResult) => void = () => {},
  ): void {
    this.#background = this.backfill(nowMs, historyDays).then(onDone, (error: unknown) =>
      this.#onError(error),
    );
  }

  #scheduleTick(): void {
    if (this.#stopped || this.#timer) return;
    const delay = MINUTE_MS - (this.#now().getTime() % MINUTE_MS) + TICK_DELAY_MS;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#livePass(async () => {
        await this.catchUp(this.#now().getTime());
      }).finally(() => this.#scheduleTick());
    }, delay);
    // The simulator never keeps the process alive on its own.
    this.#timer.unref();
  }

  #scheduleNewSensorCheck(): void {
    if (this.#stopped || this.#newSensorTimer) return;
    this.#newSensorTimer = setTimeout(() => {
      this.#newSensorTimer = undefined;
      void this.#livePass(() => this.#catchUpNewSensors()).finally(() =>
        this.#scheduleNewSensorCheck(),
      );
    }, this.#newSensorCheckMs);
    this.#newSensorTimer.unref();
  }

  /**
   * A pass when a sensor is connected that the previous check did not see (the first check
   * only takes note). Sensors fed through the API stay in the set, so they never cause a pass
   * again; a sensor removed and another added do.
   */
  async #catchUpNewSensors(): Promise<void> {
    const connected = new Set(
      (await simulatorConnectedSensors(this.#db)).map((row) => row.sensor_uuid),
    );
    const known = this.#knownSensors;
    this.#knownSensors = connected;
    if (known === undefined || [...connected].every((sensorUuid) => known.has(sensorUuid))) return;
    await this.catchUp(this.#now().getTime());
  }

  /** Runs `work` after any pass in progress; failures are reported, never thrown. */
  #livePass(work: () => Promise<void>): Promise<void> {
    const pass = this.#running.then(async () => {
      if (this.#stopped) return;
      try {
        await work();
      } catch (error) {
        this.#onError(error);
      }
    });
    this.#running = pass;
    return pass;
  }

  async #catchUpPlant(
    plant: SimulatedPlant,
    nowMs: number,
    historyDays: number,
  ): Promise<{ sensors: number; readings: number }> {
    const simulation = this.#simulationOf(plant);
    const latest = await latestReadingTimes(
      this.#db,
      plant.sensors.map((entry) => entry.sensor.sensorUuid),
    );
    const spans = plant.sensors.map((entry) => {
      const stepMs = Math.max(entry.samplingIntervalSeconds, 1) * 1000;
      const earliest = nowMs - Math.min(MAX_CATCH_UP_DAYS * DAY_MS, MAX_CATCH_UP_READINGS * stepMs);
      const last = latest.get(entry.sensor.sensorUuid);
      const afterMs =
        last !== undefined
          ? Math.max(last, earliest)
          : historyDays > 0
            ? Math.max(nowMs - historyDays * DAY_MS, earliest)
            : nowMs - stepMs;
      return { entry, afterMs, readings: { takenAt: [] as number[], values: [] as number[] } };
    });
    // Day by day for all sensors at once: each day is simulated once.
    const firstDay = Math.floor((Math.min(...spans.map((span) => span.afterMs)) + 1) / DAY_MS);
    for (let dayIndex = firstDay; dayIndex <= Math.floor(nowMs / DAY_MS); dayIndex++) {
      for (const span of spans) {
        appendDayReadings(simulation, span.entry, dayIndex, span.afterMs, nowMs, span.readings);
      }
    }
    const batches: SensorReadings[] = spans
      .filter((span) => span.readings.takenAt.length > 0)
      .map((span) => ({ sensor: span.entry.sensor, ...span.readings }));
    if (batches.length === 0) return { sensors: 0, readings: 0 };
    return inTransaction(this.#db, async (trx) => {
      // A sensor fed through the API since the plant was read is its owner's now.
      const fed = await externallyFed(
        trx,
        batches.map((batch) => batch.sensor.sensorUuid),
      );
      const mine = batches.filter((batch) => !fed.has(batch.sensor.sensorUuid));
      const { readings } = await ingestMany(trx, mine);
      return { sensors: mine.length, readings };
    });
  }

  #simulationOf(plant: SimulatedPlant): PlantSimulation {
    const fingerprint = JSON.stringify(plant.config);
    const plantUuid = plant.config.plantUuid;
    const known = this.#simulations.get(plantUuid);
    // Most recently used last.
    this.#simulations.delete(plantUuid);
    const simulation =
      known?.fingerprint === fingerprint ? known.simulation : createPlantSimulation(plant.config);
    this.#simulations.set(plantUuid, { fingerprint, simulation });
    if (this.#simulations.size > MAX_KEPT_SIMULATIONS) {
      this.#simulations.delete(this.#simulations.keys().next().value!);
    }
    return simulation;
  }

  #forgetOtherPlants(plants: readonly SimulatedPlant[]): void {
    const current = new Set(plants.map((plant) => plant.config.plantUuid));
    for (const plantUuid of this.#simulations.keys()) {
      if (!current.has(plantUuid)) this.#simulations.delete(plantUuid);
    }
  }
}
