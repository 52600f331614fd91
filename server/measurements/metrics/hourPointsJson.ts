import { DAY_MS, forEachPackedHour, utcDaysOf } from '../hourDayPacking.ts';
import { combineFlow, meanWatts, type FlowMeasures } from './flowMeasures.ts';
import { HOUR_MS, LocalTimestamps, type TimeRange } from './localTime.ts';
import { pointJson } from './seriesJson.ts';

/**
 * The points of a one-sensor hourly power history, written once per sensor and UTC day beside
 * its packed hours (`hourDays.ts`) and joined per request: a 30-day window is then ~31 texts
 * cut at its two edges (`seriesJsonOfPointRuns`), where writing its 720 points afresh was
 * most of its time.
 *
 * A day's text is what `seriesJson` writes for those 24 hours (`pointJson`, commas between),
 * from the values `combineFlow` gives a one-sensor flow's hours (`meanWatts`, as
 * `powerHistory.ts` asks): an hour without a row is a point without a value, as there.
 */

const HOURS_PER_DAY = 24;
/** How every point's text starts, and nothing else in it does (values are numbers or null). */
const POINT_START = '{"timestamp"';

const ONE_COLUMN = [1] as const;
/** `combineFlow` reads a flow's source only; the columns are `termSizes`' (one sensor). */
const ONE_SENSOR = { source: 'PLANT_SENSORS', terms: [] } as const;

/** The 24 points of the UTC day starting at `dayStart`, from its packed hours (none: no rows). */
export function dayPointsJson(zone: string, dayStart: number, packed?: Uint8Array): string {
  const energyKwh = new Float64Array(HOURS_PER_DAY);
  const coveredSeconds = new Float64Array(HOURS_PER_DAY);
  const buckets: TimeRange[] = [];
  for (let hour = 0; hour < HOURS_PER_DAY; hour++) {
    buckets.push({ start: dayStart + hour * HOUR_MS, end: dayStart + (hour + 1) * HOUR_MS });
  }
  if (packed) {
    forEachPackedHour(dayStart, packed, dayStart, dayStart + DAY_MS, (start, energy, covered) => {
      // Added onto 0 as `measureFlow` adds an hour into its bucket (-0 becomes 0 alike).
      energyKwh[(start - dayStart) / HOUR_MS]! += energy;
      coveredSeconds[(start - dayStart) / HOUR_MS]! += covered;
    });
  }
  const measures: FlowMeasures = {
    flow: ONE_SENSOR,
    buckets,
    termSizes: ONE_COLUMN,
    energyKwh,
    coveredSeconds,
  };
  const timestamps = LocalTimestamps.of(zone);
  return combineFlow(measures, meanWatts)
    .map((point, hour) => pointJson(timestamps, buckets[hour]!.start, point))
    .join(',');
}

/** A stored day's points (`dayPointsJson`). */
export interface StoredDayPoints {
  dayStart: number;
  points: string;
}

/**
 * The points of the whole UTC hours of `range`, a run of them per UTC day (to be joined by
 * commas), from the stored days holding them (oldest first; a day without a row has no hourly
 * rows, so its hours have no value).
 */
export function windowPointRuns(
  zone: string,
  range: TimeRange,
  stored: readonly StoredDayPoints[],
): string[] {
  const days = utcDaysOf(range);
  const parts: string[] = [];
  let next = 0;
  for (let dayStart = days.start; dayStart < days.end; dayStart += DAY_MS) {
    while (next < stored.length && stored[next]!.dayStart < dayStart) next++;
    const points =
      stored[next]?.dayStart === dayStart ? stored[next]!.points : dayPointsJson(zone, dayStart);
    const from = Math.max(0, (range.start - dayStart) / HOUR_MS);
    const to = Math.min(HOURS_PER_DAY, (range.end - dayStart) / HOUR_MS);
    parts.push(from === 0 && to === HOURS_PER_DAY ? points : pointsBetween(points, from, to));
  }
  return parts;
}

/** Points `from` to `to` (excluded) of a day's text, without the commas around them. */
function pointsBetween(points: string, from: number, to: number): string {
  let start = 0;
  for (let point = 0; point < from; point++) start = points.indexOf(POINT_START, start + 1);
  let end = start;
  for (let point = from; point < to; point++) end = points.indexOf(POINT_START, end + 1);
  return end === -1 ? points.slice(start) : points.slice(start, end - 1);
}
