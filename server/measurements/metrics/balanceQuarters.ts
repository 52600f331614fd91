import type { TimeRange } from './localTime.ts';
import type { PlantFlow } from './plantFlows.ts';
import { bucketIndexOf, type SlotRow } from './rollupSlots.ts';

/**
 * A balance (production + grid + storage) folded quarter-hour by quarter-hour into buckets.
 *
 * The balance is only known while every one of its terms is: a term measured over 12 hours
 * and another over 24 make 12 hours of balance, not the first term's 12 hours plus the
 * second's 24. So each quarter-hour (a rollup bucket) is balanced on its own:
 * - when some term has no covered time in it, it adds nothing and is uncovered;
 * - else it adds the sum of its terms' energies, never below 0 (meters that disagree), and
 *   covers the coverage of its least-known term (a term's coverage: the mean of its sensors').
 * A bucket is the sum of its quarter-hours, so a day is exactly the sum of its hours.
 */

export interface BalanceBuckets {
  energyKwh: Float64Array;
  coveredSeconds: Float64Array;
}

/** `quarters`: per-sensor rows of single rollup buckets, ordered by `slotStart`. */
export function foldBalanceQuarters(
  flow: PlantFlow,
  buckets: readonly TimeRange[],
  quarters: readonly SlotRow[],
): BalanceBuckets {
  const energyKwh = new Float64Array(buckets.length);
  const coveredSeconds = new Float64Array(buckets.length);
  const termOf = new Map<string, number>();
  flow.terms.forEach((term, index) => {
    for (const sensor of term) termOf.set(sensor.sensorUuid, index);
  });
  const termCovered = new Float64Array(flow.terms.length);
  let quarterEnergy = 0;

  const closeQuarter = (slotStart: number) => {
    let covered = Infinity;
    flow.terms.forEach((term, index) => {
      covered = Math.min(covered, termCovered[index]! / term.length);
    });
    const bucket = bucketIndexOf(buckets, slotStart);
    if (covered > 0 && bucket !== -1) {
      energyKwh[bucket]! += Math.max(0, quarterEnergy);
      coveredSeconds[bucket]! += covered;
    }
    termCovered.fill(0);
    quarterEnergy = 0;
  };

  let open: number | undefined;
  for (const row of quarters) {
    const term = termOf.get(row.sensorUuid);
    if (term === undefined) continue;
    if (open !== undefined && row.slotStart !== open) closeQuarter(open);
    open = row.slotStart;
    termCovered[term]! += row.coveredSeconds;
    quarterEnergy += row.energyKwh;
  }
  if (open !== undefined) closeQuarter(open);
  return { energyKwh, coveredSeconds };
}
