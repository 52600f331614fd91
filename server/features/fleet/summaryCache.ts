import type { PlantSummary } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type { PlantRow } from '../../db/tables.ts';
import { summarizePlants, type SummaryOptions } from './plantSummaries.ts';

/**
 * Plant summaries remembered for up to a minute. A fleet screen asks for the same summaries at
 * every page, sort and filter, and worst-first order needs every plant's status: computed
 * afresh each time, a thousand plants cost seconds. A minute-old "production today" or "last
 * reading" is what a fleet overview can show (sensor-statuses stays live for one plant), so a
 * plant's summary is computed again only when it is older than SUMMARY_MAX_AGE_MS by the server's
 * clock, when the plant itself changed (its `updated_at`), or for other permissions.
 */

export const SUMMARY_MAX_AGE_MS = 60_000;
/** Plants × permission sets kept; the oldest go first. */
const MAX_ENTRIES = 50_000;

interface Entry {
  computedAt: number;
  updatedAt: string;
  summary: PlantSummary;
}

export class SummaryCache {
  readonly #entries = new Map<string, Entry>();

  /** The summaries of `plants`, in their order: remembered ones, and the rest computed together. */
  async summaries(
    db: Db,
    plants: readonly Readonly<PlantRow>[],
    options: SummaryOptions,
  ): Promise<PlantSummary[]> {
    const { nowMs, permissions } = options;
    const scope = `${Number(permissions.production)}${Number(permissions.consumption)}${Number(permissions.health)}`;
    const keyOf = (plant: Readonly<PlantRow>) => `${scope}|${plant.plant_uuid}`;
    const fresh = (plant: Readonly<PlantRow>) => {
      const entry = this.#entries.get(keyOf(plant));
      return (
        entry !== undefined &&
        entry.updatedAt === plant.updated_at &&
        nowMs >= entry.computedAt &&
        nowMs - entry.computedAt < SUMMARY_MAX_AGE_MS
      );
    };
    const stale = plants.filter((plant) => !fresh(plant));
    const computed = await summarizePlants(db, stale, options);
    stale.forEach((plant, index) => {
      const key = keyOf(plant);
      this.#entries.delete(key);
      this.#entries.set(key, {
        computedAt: nowMs,
        updatedAt: plant.updated_at,
        summary: computed[index]!,
      });
    });
    while (this.#entries.size > MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return plants.map((plant) => this.#entries.get(keyOf(plant))!.summary);
  }
}
