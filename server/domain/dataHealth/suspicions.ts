import { KILO_RATIO_HIGH, KILO_RATIO_LOW } from '../wiring/powerUnits.ts';
import { NEGATIVE_READING_W } from '../wiring/signChecks.ts';
import type { HealthSamples, IsDaylight, Suspicion } from './types.ts';

/**
 * Unit and sign suspicions over a long stretch of a power sensor's readings (the wiring checks
 * of commissioning judge minutes; these judge weeks, so one device idle for an afternoon does
 * not decide anything):
 * - kW reported as W: over the whole range the largest reading is about a thousandth of what
 *   the sensor's device is rated (or the plant's PV peak, for production);
 * - the reverse (a thousand times the rating);
 * - production negative by day: a production meter that reads below −NEGATIVE_READING_W for
 *   more than NEGATIVE_SHARE of its daylight readings (a current transformer mounted backwards).
 */

export const NEGATIVE_SHARE = 0.2;
/** Fewer daylight readings than this decide nothing about the sign. */
const MIN_DAYLIGHT_READINGS = 10;

const isKilo = (ratio: number) => ratio >= KILO_RATIO_LOW && ratio <= KILO_RATIO_HIGH;

export interface SuspicionInput {
  samples: HealthSamples;
  /** A POWER sensor in W: the only kind judged. */
  isPower: boolean;
  isProduction: boolean;
  /** The sensor's device's rated power, W. */
  ratingW: number | null;
  /**
   * The plant's size, W (its PV peak): a plant's production, consumption or grid meter reads
   * that order of magnitude at some point in weeks, never a thousandth of it. Only judges the
   * kW case: a large site may well consume a thousand times its small array's peak.
   */
  plantScaleW?: number | null;
  isDaylight?: IsDaylight;
}

export function suspicions(input: SuspicionInput): Suspicion[] {
  if (!input.isPower || input.samples.values.length === 0) return [];
  const found: Suspicion[] = [];
  let largest = 0;
  for (let index = 0; index < input.samples.values.length; index++) {
    largest = Math.max(largest, Math.abs(input.samples.values[index]!));
  }
  const rating = input.ratingW ?? null;
  const scale = rating ?? input.plantScaleW ?? null;
  if (scale !== null && scale > 0 && largest > 0 && isKilo(scale / largest)) {
    found.push({ code: 'POWER_LOOKS_LIKE_KILOWATTS', observed: largest, reference: scale });
  } else if (rating !== null && rating > 0 && isKilo(largest / rating)) {
    found.push({ code: 'POWER_LOOKS_LIKE_MILLIWATTS', observed: largest, reference: rating });
  }
  const negative = input.isProduction ? negativeShareByDay(input) : null;
  if (negative !== null && negative > NEGATIVE_SHARE) {
    found.push({
      code: 'PRODUCTION_NEGATIVE_BY_DAY',
      observed: negative,
      reference: NEGATIVE_SHARE,
    });
  }
  return found;
}

function negativeShareByDay({ samples, isDaylight }: SuspicionInput): number | null {
  let daylight = 0;
  let negative = 0;
  for (let index = 0; index < samples.values.length; index++) {
    if (isDaylight && !isDaylight(samples.takenAt[index]!)) continue;
    daylight++;
    if (samples.values[index]! < -NEGATIVE_READING_W) negative++;
  }
  return daylight < MIN_DAYLIGHT_READINGS ? null : negative / daylight;
}
