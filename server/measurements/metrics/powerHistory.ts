import {
  MAX_HISTORY_POINTS,
  POWER_UNIT,
  type Granularity,
  type LocalDateTime,
  type Series,
} from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type { EncodedJson } from '../../http/encodedJson.ts';
import { unprocessable } from '../../http/errors.ts';
import type { SeriesPlant } from './energySeries.ts';
import {
  combineFlow,
  measureFlow,
  meanWatts,
  measureFlowFromSegments,
  roundMetric,
  type Combined,
} from './flowMeasures.ts';
import { historyRange, describeLocal } from './historyRange.ts';
import {
  HOUR_MS,
  MINUTE_MS,
  daysInclusive,
  localDateOf,
  localDays,
  startOfLocalHour,
  type TimeRange,
} from './localTime.ts';
import { flowSensors, type PlantFlow } from './plantFlows.ts';
import { distinctSampleTimes, samplesOf, wattsAt, type SensorSamples } from './powerSegments.ts';
import { spanOf } from './seriesEnvelope.ts';
import { seriesJson } from './seriesJson.ts';
import { storedHourlyHistory } from './storedHourlyHistory.ts';

/**
 * Average power (W) of a plant flow per bucket of a granularity, over [startDate, endDate)
 * (local date-times). Buckets are whole local minutes, hours or days: the first one is the one
 * holding startDate, the last the one holding the instant before endDate.
 *
 * - `hours`, `days`: from rollups (one query); a sensor's mean power is its energy over its
 *   covered time, so a gap lowers the coverage, not the power. One sensor's hours that are UTC
 *   hours: the same points, stored per day (`storedHourlyHistory.ts`).
 * - `minutes`: from raw readings, held as the rollups hold them, per minute.
 * - `seconds`: the raw samples. With several sensors, a point at every instant any of them
 *   took a sample, its value the sum of what each sensor holds at that instant (its latest
 *   sample, under the holding rule), its coverage the share of sensors holding one (the
 *   minimum over the terms of a balance). For sensors sampled together this is the sum per
 *   sample time; for sensors sampled at different instants, the sum of their step functions.
 */

export interface HistoryQuery {
  startDate: LocalDateTime;
  endDate: LocalDateTime;
  granularity?: Granularity | undefined;
}

export const DEFAULT_GRANULARITY: Granularity = 'hours';
const COARSER: readonly Granularity[] = ['seconds', 'minutes', 'hours', 'days'];

export async function powerHistory(
  db: Db,
  plant: SeriesPlant,
  flow: PlantFlow,
  query: HistoryQuery,
): Promise<EncodedJson<Series>> {
  const zone = plant.timezone;
  const range = historyRange(zone, query.startDate, query.endDate);
  const granularity = query.granularity ?? DEFAULT_GRANULARITY;
  const sensors = flowSensors(flow);

  const count =
    granularity === 'seconds'
      ? await distinctSampleTimes(db, sensors, range)
      : bucketCount(zone, range, granularity);
  if (count > MAX_HISTORY_POINTS) throw tooManyPoints(zone, range, granularity, count, query);

  if (granularity === 'hours') {
    const stored = await storedHourlyHistory(db, plant, flow, range, count);
    if (stored) return stored;
  }
  if (granularity === 'seconds') {
    const timeline = sampleTimeline(flow, await samplesOf(db, sensors, range));
    return seriesJson(plant, POWER_UNIT, range, timeline, timeline);
  }
  const buckets = bucketsOf(zone, range, granularity);
  const measures =
    granularity === 'minutes'
      ? measureFlowFromSegments(
          flow,
          buckets,
          segmentsBySensor(await samplesOf(db, sensors, range)),
        )
      : await measureFlow(db, flow, buckets);
  const points = combineFlow(measures, meanWatts);
  return seriesJson(plant, POWER_UNIT, spanOf(buckets, range), buckets, points);
}

function bucketCount(zone: string, range: TimeRange, granularity: Granularity): number {
  if (range.end <= range.start) return 0;
  switch (granularity) {
    case 'seconds':
    case 'minutes':
      return Math.ceil((range.end - range.start) / MINUTE_MS);
    case 'hours':
      return Math.ceil((range.end - startOfLocalHour(zone, range.start)) / HOUR_MS);
    case 'days':
      return daysInclusive(localDateOf(zone, range.start), localDateOf(zone, range.end - 1));
  }
}

function bucketsOf(zone: string, range: TimeRange, granularity: Granularity): TimeRange[] {
  if (range.end <= range.start) return [];
  if (granularity === 'days') {
    return localDays(zone, localDateOf(zone, range.start), localDateOf(zone, range.end - 1));
  }
  const step = granularity === 'hours' ? HOUR_MS : MINUTE_MS;
  const first = granularity === 'hours' ? startOfLocalHour(zone, range.start) : range.start;
  // A plain loop: Array.from with a map function costs several times it for 720 buckets.
  const buckets: TimeRange[] = [];
  for (let start = first; start < range.end; start += step)
    buckets.push({ start, end: start + step });
  return buckets;
}

/** 422 naming the finest coarser granularity that fits, or asking for a shorter range. */
function tooManyPoints(
  zone: string,
  range: TimeRange,
  granularity: Granularity,
  count: number,
  query: HistoryQuery,
): Error {
  const base =
    `Granularity ${granularity} gives ${count} points from startDate ` +
    `${describeLocal(query.startDate)} to endDate ${describeLocal(query.endDate)}, ` +
    `more than the maximum of ${MAX_HISTORY_POINTS}`;
  const coarser = COARSER.slice(COARSER.indexOf(granularity) + 1).find(
    (candidate) => bucketCount(zone, range, candidate) <= MAX_HISTORY_POINTS,
  );
  return unprocessable(
    coarser
      ? `${base}; use a coarser granularity: ${coarser} ` +
          `(${bucketCount(zone, range, coarser)} points)`
      : `${base}; shorten the range`,
  );
}

function segmentsBySensor(samples: readonly SensorSamples[]) {
  return new Map(samples.map((entry) => [entry.sensor.sensorUuid, entry.segments]));
}

/** The `seconds` points: see the module comment. */
function sampleTimeline(
  flow: PlantFlow,
  samples: readonly SensorSamples[],
): (Combined & { start: number })[] {
  const bySensor = new Map(samples.map((entry) => [entry.sensor.sensorUuid, entry]));
  const instants = [
    ...new Set(samples.flatMap((entry) => entry.inRange.map((sample) => sample.takenAt))),
  ].sort((a, b) => a - b);
  const cursors = new Map(samples.map((entry) => [entry.sensor.sensorUuid, { index: 0 }]));
  return instants.map((instant) => {
    let value = 0;
    let coverage = 1;
    for (const term of flow.terms) {
      let holding = 0;
      for (const sensor of term) {
        const entry = bySensor.get(sensor.sensorUuid);
        const watts = entry && wattsAt(entry.segments, instant, cursors.get(sensor.sensorUuid)!);
        if (watts === undefined) continue;
        holding += 1;
        value += watts;
      }
      coverage = Math.min(coverage, holding / term.length);
    }
    if (coverage <= 0) return { start: instant, value: null, coverage: 0 };
    if (flow.source === 'BALANCE') value = Math.max(0, value);
    return { start: instant, value: roundMetric(value), coverage: roundMetric(coverage) };
  });
}
