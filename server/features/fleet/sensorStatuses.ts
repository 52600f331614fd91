import type { DataTypeCode, SensorFlow, SensorStatus } from '../../../api/index.ts';
import { freshnessState } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/fastQuery.ts';
import type { PlantRow } from '../../db/tables.ts';
import { BUCKET_MS } from '../../measurements/rollups.ts';
import {
  readingAtOrAfter,
  readingBefore,
  readingsOf,
  type Reading,
} from '../../measurements/readingsStore.ts';
import { readingSensorsOf, type ReadingSensor } from '../../measurements/readingSensors.ts';
import { sampleHold } from '../../measurements/sampleHolds.ts';
import { recentPoints } from './recentReadings.ts';

/**
 * The freshness of each sensor of a plant: its last reading, when its value last changed, its
 * state (see `api/freshness.ts`) and how much of the last 24 hours has data.
 */

const DAY_MS = 86_400_000;
/** A power or current this close to 0 is at rest. */
const REST_TOLERANCE = 1e-9;

export interface SensorFacts {
  sensorUuid: string;
  name: string;
  deviceUuid: string | null;
  flow: SensorFlow;
  samplingIntervalSeconds: number;
}

export interface StatusOptions {
  /** Add each sensor's readings of the last minutes (`recentReadings.ts`). */
  recent: boolean;
}

export async function plantSensorStatuses(
  db: Db,
  plant: Readonly<PlantRow>,
  nowMs: number,
  options: StatusOptions = { recent: false },
): Promise<SensorStatus[]> {
  const sensors: SensorFacts[] = (
    await rowsOf(
      db,
      db
        .selectFrom('sensors')
        .select(['sensor_uuid', 'name', 'device_uuid', 'flow', 'sampling_interval_seconds'])
        .where('plant_uuid', '=', plant.plant_uuid)
        .compile(),
    )
  )
    .map((row) => ({
      sensorUuid: row.sensor_uuid,
      name: row.name,
      deviceUuid: row.device_uuid,
      flow: row.flow as SensorFlow,
      samplingIntervalSeconds: row.sampling_interval_seconds,
    }))
    .sort(byName);
  const [readingSensors, units] = await Promise.all([
    readingSensorsOf(
      db,
      sensors.map((sensor) => sensor.sensorUuid),
    ),
    dataTypeUnits(db),
  ]);
  const statuses: SensorStatus[] = [];
  for (const sensor of sensors) {
    statuses.push(
      await sensorStatus(db, sensor, readingSensors.get(sensor.sensorUuid), units, nowMs, options),
    );
  }
  return statuses;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
/** Sensors in the order screens list them: by name, numbers by value, then by uuid. */
export const byName = (
  a: Pick<SensorFacts, 'name' | 'sensorUuid'>,
  b: Pick<SensorFacts, 'name' | 'sensorUuid'>,
) => collator.compare(a.name, b.name) || a.sensorUuid.localeCompare(b.sensorUuid);

async function dataTypeUnits(db: Db): Promise<Map<string, string>> {
  const rows = await rowsOf(
    db,
    db.selectFrom('data_types_collects').select(['code', 'unit']).compile(),
  );
  return new Map(rows.map((row) => [row.code, row.unit]));
}

async function sensorStatus(
  db: Db,
  sensor: SensorFacts,
  reading: ReadingSensor | undefined,
  units: ReadonlyMap<string, string>,
  nowMs: number,
  options: StatusOptions,
): Promise<SensorStatus> {
  const intervalSeconds = sensor.samplingIntervalSeconds;
  const last = await readingBefore(db, sensor.sensorUuid, Number.MAX_SAFE_INTEGER);
  const changedAt = last ? await lastChangeOf(db, sensor.sensorUuid, last) : null;
  const dataType = reading?.dataType ?? null;
  const day = await lastDayOf(db, sensor.sensorUuid, nowMs);
  return {
    sensorUuid: sensor.sensorUuid,
    name: sensor.name,
    deviceUuid: sensor.deviceUuid,
    flow: sensor.flow,
    dataType,
    unit: dataType === null ? null : (units.get(dataType) ?? null),
    expectedIntervalSeconds: intervalSeconds,
    state: freshnessState(last?.takenAt ?? null, intervalSeconds, nowMs),
    lastReadingAt: last ? new Date(last.takenAt).toISOString() : null,
    lastValue: last?.value ?? null,
    lastChangedAt: changedAt === null ? null : new Date(changedAt).toISOString(),
    valueAtRest: last !== undefined && changedAt !== null && isAtRest(dataType, last, changedAt),
    coverage24h: coverageOf(day, intervalSeconds * 1000, nowMs),
    ...(options.recent && {
      recent: recentPoints(day.inWindow, nowMs).map((point) => ({
        at: new Date(point.takenAt).toISOString(),
        value: point.value,
      })),
    }),
  };
}

/**
 * A value that may stay unchanged for hours without anything being wrong: no power or current
 * flowing, no irradiance, or an energy counter that has stopped counting (its last reading
 * repeats the one before).
 */
export function isAtRest(dataType: DataTypeCode | null, last: Reading, changedAt: number): boolean {
  switch (dataType) {
    case 'POWER':
    case 'CURRENT':
      return Math.abs(last.value) <= REST_TOLERANCE;
    case 'IRRADIANCE':
      return last.value <= 0;
    case 'ENERGY':
      return changedAt < last.takenAt;
    default:
      return false;
  }
}

/**
 * The first reading of the run of equal values that ends with `last`. Rollups hold every
 * sample's value in their minimum and maximum, so the latest bucket whose extremes differ from
 * the last value bounds the latest reading of another value; a short backward scan of the raw
 * readings from there finds it, however long the run (a sensor stuck for months).
 */
async function lastChangeOf(db: Db, sensorUuid: string, last: Reading): Promise<number> {
  const [bucket] = await rowsOf(
    db,
    db
      .selectFrom('sensor_rollups')
      .select('bucket_start')
      .where('sensor_uuid', '=', sensorUuid)
      .where((eb) => eb.or([eb('min_value', '<>', last.value), eb('max_value', '<>', last.value)]))
      .orderBy('bucket_start', 'desc')
      .limit(1)
      .compile(),
  );
  const [differing] =
    bucket === undefined
      ? []
      : await rowsOf(
          db,
          db
            .selectFrom('readings')
            .select('taken_at')
            .where('sensor_uuid', '=', sensorUuid)
            .where('taken_at', '<', Number(bucket.bucket_start) + BUCKET_MS)
            .where('value', '<>', last.value)
            .orderBy('taken_at', 'desc')
            .limit(1)
            .compile(),
        );
  const from = differing === undefined ? Number.MIN_SAFE_INTEGER : Number(differing.taken_at) + 1;
  const first = await readingAtOrAfter(db, sensorUuid, from);
  return first?.takenAt ?? last.takenAt;
}

/** The readings of the 24 hours up to `nowMs` (included), and the one before them. */
interface LastDay {
  before: Reading | undefined;
  inWindow: Reading[];
}

async function lastDayOf(db: Db, sensorUuid: string, nowMs: number): Promise<LastDay> {
  const from = nowMs - DAY_MS;
  return {
    before: await readingBefore(db, sensorUuid, from),
    inWindow: await readingsOf(db, sensorUuid, from, nowMs + 1),
  };
}

/**
 * The share of the 24 hours before `nowMs` with data, each reading holding as an instantaneous
 * value does (until the next within 3 intervals, else one interval), whatever the data type:
 * this is about readings arriving, so a counter's spread over a gap does not count.
 */
function coverageOf({ before, inWindow }: LastDay, intervalMs: number, nowMs: number): number {
  const from = nowMs - DAY_MS;
  const samples = before ? [before, ...inWindow] : inWindow;
  let coveredMs = 0;
  for (let index = 0; index < samples.length; index++) {
    const sample = samples[index]!;
    const next = samples[index + 1];
    const hold = sampleHold(
      'instant',
      intervalMs,
      sample.takenAt,
      sample.value,
      next?.takenAt,
      next?.value,
    );
    if (!hold) continue;
    coveredMs += Math.max(0, Math.min(hold.end, nowMs) - Math.max(hold.start, from));
  }
  return Math.round((coveredMs / DAY_MS) * 1e6) / 1e6;
}
