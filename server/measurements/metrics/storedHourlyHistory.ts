import { POWER_UNIT, type Series } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { tuplesOf } from '../../db/fastQuery.ts';
import type { EncodedJson } from '../../http/encodedJson.ts';
import { utcDaysOf } from '../hourDayPacking.ts';
import type { SeriesPlant } from './energySeries.ts';
import { windowPointRuns } from './hourPointsJson.ts';
import { HOUR_MS, startOfLocalHour, type TimeRange } from './localTime.ts';
import type { EnergySensor, PlantFlow } from './plantFlows.ts';
import { compiledOnce } from './rollupSlots.ts';
import { seriesJsonOfPointRuns } from './seriesJson.ts';
import { coalescedStoredDays } from './storedDayBatches.ts';

/**
 * An hourly power history answered from the points stored per sensor and UTC day
 * (`hourPointsJson.ts`, migration 0016): one query of ~31 rows and their texts (on PostgreSQL
 * read with the concurrent requests' days, each day once: `storedDayBatches.ts`), where
 * the hours' rows would be measured, combined and written point by point. It answers when the
 * flow is one sensor's (a balance clamps and combines per quarter-hour) and the buckets are UTC
 * hours (every zone but those whose offset is not whole hours at the window's start), with the
 * bytes `powerHistory` writes from the hours otherwise.
 */
export async function storedHourlyHistory(
  db: Db,
  plant: SeriesPlant,
  flow: PlantFlow,
  range: TimeRange,
  /** The window's hourly buckets (`powerHistory`). */
  count: number,
): Promise<EncodedJson<Series> | undefined> {
  const sensor = soleSensorOf(flow);
  if (!sensor || count === 0) return undefined;
  const first = startOfLocalHour(plant.timezone, range.start);
  if (first % HOUR_MS !== 0) return undefined;
  const span = { start: first, end: first + count * HOUR_MS };
  const days = utcDaysOf(span);
  const stored =
    (await coalescedStoredDays(db, sensor.sensorUuid, days)) ??
    (await storedDays(db, sensor.sensorUuid, days));
  return seriesJsonOfPointRuns(
    plant,
    POWER_UNIT,
    span,
    windowPointRuns(plant.timezone, span, stored),
  );
}

/** The flow's one sensor, when its hourly points are that sensor's own (not a balance). */
const soleSensorOf = (flow: PlantFlow): EnergySensor | undefined =>
  flow.source !== 'BALANCE' && flow.terms.length === 1 && flow.terms[0]!.length === 1
    ? flow.terms[0]![0]
    : undefined;

/** The sensor's stored points of the UTC days `days`, oldest first. */
async function storedDays(db: Db, sensorUuid: string, days: TimeRange) {
  const query = compiledOnce(
    db,
    'hour day points',
    () =>
      db
        .selectFrom('sensor_hour_day_points')
        .select(['day_start', 'points'])
        .where('sensor_uuid', '=', sensorUuid)
        .where('day_start', '>=', days.start)
        .where('day_start', '<', days.end)
        .orderBy('day_start'),
    [sensorUuid, days.start, days.end],
  );
  return (await tuplesOf(db, query)).map(([dayStart, points]) => ({
    // Number(): PostgreSQL answers bigint columns as strings.
    dayStart: Number(dayStart),
    points: points as string,
  }));
}
