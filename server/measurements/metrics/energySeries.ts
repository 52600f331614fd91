import {
  ENERGY_UNIT,
  MAX_SUMMARY_DAYS,
  formatLocalDate,
  type LocalDate,
  type Series,
} from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type { EncodedJson } from '../../http/encodedJson.ts';
import type { PlantRow } from '../../db/tables.ts';
import { unprocessable } from '../../http/errors.ts';
import { measureFlow, type FlowMeasures } from './flowMeasures.ts';
import {
  compareLocalDates,
  daysInclusive,
  hoursEndingWithCurrentHour,
  hoursEndingWithDay,
  localDays,
  localDaysEndingWith,
  todayIn,
  type TimeRange,
} from './localTime.ts';
import type { PlantFlow } from './plantFlows.ts';
import { spanOf } from './seriesEnvelope.ts';
import { seriesJsonOfMeasures } from './seriesJson.ts';

/** Energy (kWh) of a plant flow per local day or hour, from rollups in one query. */

export type SeriesPlant = Pick<PlantRow, 'plant_uuid' | 'timezone'>;

/**
 * Written as JSON text straight from the numbers (`seriesJson`): most answers are sent once.
 * At once when the measures are read so (`measureFlow`).
 */
export function energySeries(
  db: Db,
  plant: SeriesPlant,
  flow: PlantFlow,
  buckets: readonly TimeRange[],
): EncodedJson<Series> | Promise<EncodedJson<Series>> {
  const measures = measureFlow(db, flow, buckets);
  return measures instanceof Promise
    ? measures.then((read) => seriesOfMeasures(plant, buckets, read))
    : seriesOfMeasures(plant, buckets, measures);
}

const energyOfSensor = (energyKwh: number) => energyKwh;

function seriesOfMeasures(
  plant: SeriesPlant,
  buckets: readonly TimeRange[],
  measures: FlowMeasures,
): EncodedJson<Series> {
  return seriesJsonOfMeasures(
    plant,
    ENERGY_UNIT,
    spanOf(buckets, { start: 0, end: 0 }),
    measures,
    energyOfSensor,
  );
}

/** The 7 local days ending with `date` (default: today in the plant's zone). */
export const dailyBuckets = (zone: string, date: LocalDate | undefined, now: Date): TimeRange[] =>
  localDaysEndingWith(zone, date ?? todayIn(zone, now), 7);

/** With `date`, the 24 hours ending at the end of that day; else those ending with this hour. */
export const hourlyBuckets = (
  zone: string,
  date: LocalDate | undefined,
  now: Date,
): readonly TimeRange[] =>
  date ? hoursEndingWithDay(zone, date) : hoursEndingWithCurrentHour(zone, now.getTime());

/**
 * Every local day from `startDate` to `endDate` (default today), both included; 422 when
 * inverted or longer than MAX_SUMMARY_DAYS.
 */
export function summaryBuckets(
  zone: string,
  startDate: LocalDate,
  endDate: LocalDate | undefined,
  now: Date,
): TimeRange[] {
  const end = endDate ?? todayIn(zone, now);
  const endName = endDate ? 'endDate' : 'endDate (default today)';
  if (compareLocalDates(startDate, end) > 0) {
    throw unprocessable(
      `startDate ${formatLocalDate(startDate)} is after ${endName} ${formatLocalDate(end)}`,
    );
  }
  const days = daysInclusive(startDate, end);
  if (days > MAX_SUMMARY_DAYS) {
    throw unprocessable(
      `The range from startDate ${formatLocalDate(startDate)} to ${endName} ` +
        `${formatLocalDate(end)} spans ${days} days; at most ${MAX_SUMMARY_DAYS} days are allowed`,
    );
  }
  return localDays(zone, startDate, end);
}
