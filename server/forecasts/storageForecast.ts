import { quantile } from '../domain/index.ts';
import type { TimeRange } from '../measurements/metrics/localTime.ts';
import type { PlantFlow } from '../measurements/metrics/plantFlows.ts';
import type { Db } from '../db/database.ts';
import { pastLocalHours } from './forecastHours.ts';
import { hourlyHistory, slotValuesOf } from './hourlyHistory.ts';
import type { HourForecast } from './loadForecast.ts';
import { hourOfSlot, slotOf } from './localSlots.ts';

/** Days of a battery's own history its daily profile is learnt from. */
export const STORAGE_PROFILE_DAYS = 14;

/**
 * A battery's expected net energy per local hour (positive discharge, negative charge): the mean
 * of the same local hour over its last two weeks, with the 10th and 90th percentiles as the 80%
 * interval. A battery follows the day (charging from the midday surplus, covering the evening)
 * more than the weekday, and its energy is signed, which the load models' floor at zero is not.
 * Null without a single known hour.
 */
export async function forecastStorage(
  db: Db,
  zone: string,
  flow: PlantFlow,
  targets: readonly TimeRange[],
  nowMs: number,
): Promise<HourForecast[] | null> {
  const history = await hourlyHistory(
    db,
    flow,
    pastLocalHours(zone, nowMs, STORAGE_PROFILE_DAYS * 24),
  );
  const byHour = new Map<number, number[]>();
  for (const [slot, value] of slotValuesOf(zone, history)) {
    const hour = hourOfSlot(slot);
    byHour.set(hour, [...(byHour.get(hour) ?? []), value]);
  }
  if (byHour.size === 0) return null;
  return targets.map((target) => {
    const values = byHour.get(hourOfSlot(slotOf(zone, target.start))) ?? [0];
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      ...target,
      value: mean,
      lower: Math.min(mean, quantile(values, 0.1)),
      upper: Math.max(mean, quantile(values, 0.9)),
    };
  });
}
