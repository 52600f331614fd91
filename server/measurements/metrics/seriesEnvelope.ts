import type { Series } from '../../../api/index.ts';
import type { PlantRow } from '../../db/tables.ts';
import type { Combined } from './flowMeasures.ts';
import { formatLocal, type TimeRange } from './localTime.ts';

/** The decisions file's series: bucket starts in local time; `to` ends the last bucket. */
export function seriesOf(
  plant: Pick<PlantRow, 'plant_uuid' | 'timezone'>,
  unit: string,
  span: TimeRange,
  points: readonly (Combined & { start: number })[],
): Series {
  const zone = plant.timezone;
  return {
    plantUuid: plant.plant_uuid,
    timezone: zone,
    unit,
    from: formatLocal(zone, span.start),
    to: formatLocal(zone, span.end),
    points: points.map((point) => ({
      timestamp: formatLocal(zone, point.start),
      value: point.value,
      coverage: point.coverage,
    })),
  };
}

/** From the first bucket's start to the last one's end; `fallback` when there is no bucket. */
export const spanOf = (buckets: readonly TimeRange[], fallback: TimeRange): TimeRange =>
  buckets.length === 0
    ? fallback
    : { start: buckets[0]!.start, end: buckets[buckets.length - 1]!.end };
