import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/fastQuery.ts';
import { readingAtOrAfter, readingBefore, readingsOf } from '../readingsStore.ts';
import type { Sample } from '../rollups.ts';
import { sampleHold, WATT_MS_PER_KWH } from '../sampleHolds.ts';
import type { TimeRange } from './localTime.ts';
import type { EnergySensor } from './plantFlows.ts';

/**
 * A sensor's raw readings as a step function of power, at any resolution: each sample holds by
 * the rules of `sampleHolds.ts`, the same as the rollups' (a POWER sample's watts; an ENERGY
 * counter's increase to the next reading as constant power). `seconds` and `minutes` history and
 * the exact grid import of the energy breakdown read raw readings through this; everything else
 * reads rollups.
 */

export interface PowerSegment {
  start: number;
  end: number;
  watts: number;
}

/** Segments in time order, not overlapping. `samples` strictly increasing. */
export function powerSegments(
  sensor: Pick<EnergySensor, 'kind' | 'samplingIntervalSeconds'>,
  samples: readonly Sample[],
): PowerSegment[] {
  const kind = sensor.kind === 'POWER' ? 'instant' : 'counter';
  const intervalMs = sensor.samplingIntervalSeconds * 1000;
  const segments: PowerSegment[] = [];
  for (let index = 0; index < samples.length; index++) {
    const { takenAt, value } = samples[index]!;
    const next = samples[index + 1];
    const hold = sampleHold(kind, intervalMs, takenAt, value, next?.takenAt, next?.value);
    if (hold) segments.push({ start: hold.start, end: hold.end, watts: hold.watts });
  }
  return segments;
}

export interface SensorSamples {
  sensor: EnergySensor;
  /** The samples taken in the range. */
  inRange: Sample[];
  /** Those plus the readings just before and after it, which decide the holds at its edges. */
  segments: PowerSegment[];
}

/** Raw readings of the sensors in `range`, with their power segments. */
export async function samplesOf(
  db: Db,
  sensors: readonly EnergySensor[],
  range: TimeRange,
): Promise<SensorSamples[]> {
  return Promise.all(
    sensors.map(async (sensor) => {
      const [before, inRange, after] = await Promise.all([
        readingBefore(db, sensor.sensorUuid, range.start),
        readingsOf(db, sensor.sensorUuid, range.start, range.end),
        readingAtOrAfter(db, sensor.sensorUuid, range.end),
      ]);
      const samples: Sample[] = inRange.map(({ takenAt, value }) => ({ takenAt, value }));
      const context = [...(before ? [before] : []), ...samples, ...(after ? [after] : [])];
      return { sensor, inRange: samples, segments: powerSegments(sensor, context) };
    }),
  );
}

/**
 * Energy (kWh) and covered seconds of segments in each bucket: `[bucket] ` arrays. Buckets
 * sorted and contiguous; segments sorted.
 */
export function integrateSegments(
  segments: readonly PowerSegment[],
  buckets: readonly TimeRange[],
  clip: (watts: number) => number = (watts) => watts,
): { energyKwh: Float64Array; coveredSeconds: Float64Array } {
  const energyKwh = new Float64Array(buckets.length);
  const coveredSeconds = new Float64Array(buckets.length);
  let bucket = 0;
  for (const segment of segments) {
    while (bucket < buckets.length && buckets[bucket]!.end <= segment.start) bucket++;
    for (let index = bucket; index < buckets.length; index++) {
      const { start, end } = buckets[index]!;
      if (start >= segment.end) break;
      const overlap = Math.min(end, segment.end) - Math.max(start, segment.start);
      if (overlap <= 0) continue;
      energyKwh[index]! += (clip(segment.watts) * overlap) / WATT_MS_PER_KWH;
      coveredSeconds[index]! += overlap / 1000;
    }
  }
  return { energyKwh, coveredSeconds };
}

/**
 * The watts held at `instant`, or undefined when nothing holds then. Instants must come in
 * increasing order for one `cursor`.
 */
export function wattsAt(
  segments: readonly PowerSegment[],
  instant: number,
  cursor: { index: number },
): number | undefined {
  while (cursor.index < segments.length && segments[cursor.index]!.end <= instant) cursor.index++;
  const segment = segments[cursor.index];
  return segment && segment.start <= instant ? segment.watts : undefined;
}

/** How many distinct instants the sensors took samples at in `range`: the `seconds` points. */
export async function distinctSampleTimes(
  db: Db,
  sensors: readonly EnergySensor[],
  range: TimeRange,
): Promise<number> {
  if (sensors.length === 0 || range.end <= range.start) return 0;
  const [row] = await rowsOf(
    db,
    db
      .selectFrom('readings')
      .select((eb) => eb.fn.count<number | string>('taken_at').distinct().as('count'))
      .where(
        'sensor_uuid',
        'in',
        sensors.map((sensor) => sensor.sensorUuid),
      )
      .where('taken_at', '>=', range.start)
      .where('taken_at', '<', range.end)
      .compile(),
  );
  return Number(row?.count ?? 0);
}
