import { DEFAULT_INTERVAL_COVERAGE, residualIntervalOffsets } from '../domain/index.ts';
import { hourOfSlot } from './localSlots.ts';
import { meanOf, scaledInterval, scaledResidual, scaleFloorFor } from './scaledInterval.ts';
import {
  UNCALIBRATED_SCALED_OFFSETS,
  type SeasonalPoint,
  type SlotValues,
} from './seasonalModel.ts';

/**
 * Forecast from load signatures, for loads with too little history of their own: each
 * signature's share of a day's energy in the local hour × its typical daily kWh, summed over
 * the signatures. When some history exists (at least two days), the interval comes from the
 * signatures' own errors on it, else it is a wide fixed band.
 */

export interface LoadProfile {
  code: string;
  /** 24 shares of a day's energy per local hour, summing to 1. */
  hourlyProfile: readonly number[];
  typicalDailyKwh: number;
}

/** Hours of history needed to calibrate the interval on the signatures' own errors. */
const MIN_CALIBRATION_HOURS = 48;

export interface SignatureModel {
  calibrated: boolean;
  forecast(slot: number): SeasonalPoint;
}

/** Σ share(hour) × typical daily kWh over `profiles`. */
export function signatureEnergyKwh(profiles: readonly LoadProfile[], hour: number): number {
  let total = 0;
  for (const profile of profiles)
    total += (profile.hourlyProfile[hour] ?? 0) * profile.typicalDailyKwh;
  return total;
}

export function signatureModel(
  profiles: readonly LoadProfile[],
  history: SlotValues = new Map(),
): SignatureModel {
  const expected = (slot: number) => signatureEnergyKwh(profiles, hourOfSlot(slot));
  const floor = scaleFloorFor(meanOf(Array.from({ length: 24 }, (_, hour) => expected(hour))));
  const residuals =
    history.size >= MIN_CALIBRATION_HOURS
      ? [...history].map(([slot, actual]) => scaledResidual(actual, expected(slot), floor))
      : [];
  const calibratedOffsets = residualIntervalOffsets(residuals, DEFAULT_INTERVAL_COVERAGE);
  const offsets = calibratedOffsets ?? UNCALIBRATED_SCALED_OFFSETS;
  return {
    calibrated: calibratedOffsets !== null,
    forecast(slot) {
      const value = expected(slot);
      return { value, ...scaledInterval(value, offsets, floor) };
    },
  };
}
