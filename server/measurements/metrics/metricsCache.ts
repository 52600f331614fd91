import type { Generation } from '../../db/writeGeneration.ts';

/**
 * Answers of the energy metrics per plant, kept until the database is written to. A dashboard
 * asks the same few questions again and again (the last 7 days, the last 24 hours), and an answer
 * only changes when something is written: readings, sensors, devices, the plant itself. Rather than
 * rely on every writer to say so, the cache compares the database's write generation
 * (`server/db/writeGeneration.ts`), which every write statement moves.
 *
 * An answer is kept from its second asking on: a dashboard's questions come again within
 * seconds, while an analytics range or a history window asked once would only push those out,
 * and keeping one-off answers (tens of kilobytes for a month of hours) moved them into the old
 * generation of the heap, whose collections cost more than computing them did.
 */

interface PlantEntry {
  generation: number;
  values: Map<string, unknown>;
  /** Keys asked once in this generation: their answer is kept when asked again. */
  seen: Set<string>;
}

export interface MetricsCacheLimits {
  plants: number;
  valuesPerPlant: number;
}

export const DEFAULT_METRICS_CACHE_LIMITS: MetricsCacheLimits = {
  plants: 1000,
  valuesPerPlant: 64,
};

export class MetricsCache {
  readonly #plants = new Map<string, PlantEntry>();
  readonly #limits: MetricsCacheLimits;

  readonly #generation: Generation;

  constructor(generation: Generation, limits: MetricsCacheLimits = DEFAULT_METRICS_CACHE_LIMITS) {
    this.#generation = generation;
    this.#limits = limits;
  }

  /**
   * The value remembered under `key` for the plant, or `compute()`'s, remembered unless the
   * database was written to while it was computed (it may then be stale already) or `keep`
   * refuses it; what is remembered is `own(value)`, made only then (a value that must not be
   * shared as it is, such as lent bytes, is copied there).
   * Failures are not kept.
   *
   * A value remembered, or computed without a promise, is answered as it is: a caller going on
   * synchronously (an hourly answer on SQLite) spends no promise and tick on it.
   */
  get<T>(
    plantUuid: string,
    key: string,
    compute: () => T | Promise<T>,
    keep: (value: T) => boolean = () => true,
    own: (value: T) => T = (value) => value,
  ): T | Promise<T> {
    const generation = this.#generation();
    const entry = this.#plants.get(plantUuid);
    if (entry?.generation === generation && entry.values.has(key)) {
      return entry.values.get(key) as T;
    }
    const computed = compute();
    const settle = (value: T): T => {
      if (this.#generation() === generation && keep(value)) {
        this.#remember(plantUuid, generation, key, () => own(value));
      }
      return value;
    };
    return computed instanceof Promise ? computed.then(settle) : settle(computed);
  }

  #remember(plantUuid: string, generation: number, key: string, own: () => unknown): void {
    let entry = this.#plants.get(plantUuid);
    if (!entry || entry.generation !== generation) {
      this.#plants.delete(plantUuid);
      if (this.#plants.size >= this.#limits.plants) this.#evictOldest(this.#plants);
      entry = { generation, values: new Map(), seen: new Set() };
      this.#plants.set(plantUuid, entry);
    }
    if (!entry.seen.has(key)) {
      if (entry.seen.size >= this.#limits.valuesPerPlant) this.#evictOldest(entry.seen);
      entry.seen.add(key);
      return;
    }
    if (entry.values.size >= this.#limits.valuesPerPlant) this.#evictOldest(entry.values);
    entry.values.set(key, own());
  }

  #evictOldest(map: Map<string, unknown> | Set<string>): void {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
