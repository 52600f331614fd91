import type { Db } from '../db/database.ts';
import { combineFlow, measureFlow } from '../measurements/metrics/flowMeasures.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';
import type { PlantFlow } from '../measurements/metrics/plantFlows.ts';
import { slotOf } from './localSlots.ts';
import type { SlotValues } from './seasonalModel.ts';

/**
 * A flow's measured energy per past hour, as forecasts learn from it. An hour with data for at
 * least half of it counts, its energy scaled up to the whole hour (a meter that missed ten
 * minutes still tells the hour's level); an hour with less is unknown.
 */

export const MIN_HOUR_COVERAGE = 0.5;

export interface HourlyHistory {
  buckets: readonly TimeRange[];
  /** kWh per bucket, scaled to the whole hour; null where unknown. */
  values: (number | null)[];
  /** Hours of data, the sum of the buckets' coverages. */
  coveredHours: number;
}

export async function hourlyHistory(
  db: Db,
  flow: PlantFlow,
  buckets: readonly TimeRange[],
): Promise<HourlyHistory> {
  const combined = combineFlow(await measureFlow(db, flow, buckets), (energyKwh) => energyKwh);
  let coveredHours = 0;
  const values = combined.map(({ value, coverage }) => {
    coveredHours += coverage;
    return value !== null && coverage >= MIN_HOUR_COVERAGE ? value / coverage : null;
  });
  return { buckets, values, coveredHours };
}

/** The known hours by local slot; of an hour repeated when clocks go back, the first. */
export function slotValuesOf(zone: string, history: HourlyHistory): SlotValues {
  const slots = new Map<number, number>();
  history.values.forEach((value, index) => {
    if (value === null) return;
    const slot = slotOf(zone, history.buckets[index]!.start);
    if (!slots.has(slot)) slots.set(slot, value);
  });
  return slots;
}
