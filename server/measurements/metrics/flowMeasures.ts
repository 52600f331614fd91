import type { Db } from '../../db/database.ts';
import { HOUR_MS, type TimeRange } from './localTime.ts';
import { flowSensors, type PlantFlow } from './plantFlows.ts';
import { integrateSegments, type PowerSegment } from './powerSegments.ts';
import { foldBalanceQuarters } from './balanceQuarters.ts';
import {
  bucketIndexOf,
  forEachStoredHour,
  ROLLUP_MS,
  rollupSlots,
  slotStepFor,
  type SlotRow,
} from './rollupSlots.ts';

/**
 * What a plant flow measured in each bucket, per sensor, from rollups (one query), and how
 * those sensors combine into one value per bucket.
 *
 * Combining several sensors (decided here; the decisions file is silent):
 * - The sensors of a term are summed: each contributes what it measured, so a bucket where one
 *   of two meters is silent still has the other's energy. The term's coverage is the mean of
 *   its sensors' coverages: the share of sensor-time with data, which tells how much of the
 *   sum is missing.
 * - The terms of a balance (production + grid + storage) are added; its coverage is the
 *   minimum of its terms' coverages: the balance is only as known as its least-known input.
 *   From rollups, a balance is made quarter-hour by quarter-hour (`balanceQuarters.ts`), so
 *   only the time where every term is measured counts; its measures are then one column, the
 *   balance itself. Finer buckets (minutes, from raw readings) combine per bucket.
 * - `value` is null when the coverage is 0.
 */

export interface FlowMeasures {
  flow: PlantFlow;
  buckets: readonly TimeRange[];
  /** How many columns each term has: its sensors, in the order of `flowSensors(flow)`. */
  termSizes: readonly number[];
  /** `[bucket * columnCount + column]`. */
  energyKwh: Float64Array | number[];
  coveredSeconds: Float64Array | number[];
}

const termSizesOf = (flow: PlantFlow): number[] => flow.terms.map((term) => term.length);

/** The measures, at once when they are read so (the hourly answers on SQLite, `measureUtcHours`). */
export function measureFlow(
  db: Db,
  flow: PlantFlow,
  buckets: readonly TimeRange[],
): FlowMeasures | Promise<FlowMeasures> {
  const { sensorUuids, range, step } = slotRequestOf(flow, buckets);
  if (flow.source !== 'BALANCE' && isUtcHours(buckets, range, step)) {
    return measureUtcHours(db, flow, buckets);
  }
  return rollupSlots(db, sensorUuids, range, step).then((slots) =>
    measureFlowFromSlots(flow, buckets, slots),
  );
}

/** Every bucket one UTC hour (the hourly history of a zone whose hours are UTC hours). */
const isUtcHours = (buckets: readonly TimeRange[], range: TimeRange, step: number) =>
  step === HOUR_MS &&
  range.start % HOUR_MS === 0 &&
  range.end - range.start === buckets.length * HOUR_MS;

/** A flow's sensors as `measureUtcHours` lays them out: made once per flow, which is kept. */
interface SensorLayout {
  uuids: string[];
  column: Map<string, number>;
  termSizes: number[];
}

const layouts = new WeakMap<PlantFlow, SensorLayout>();

function layoutOf(flow: PlantFlow): SensorLayout {
  let layout = layouts.get(flow);
  if (!layout) {
    const uuids = flowSensors(flow).map((sensor) => sensor.sensorUuid);
    const column = new Map(uuids.map((uuid, index) => [uuid, index]));
    layout = { uuids, column, termSizes: termSizesOf(flow) };
    layouts.set(flow, layout);
  }
  return layout;
}

/**
 * `measureFlowFromSlots` of hourly slots, each hour's numbers added straight where its bucket
 * and sensor go, without a slot object or a bucket search per hour (the same additions: one
 * hour per bucket and sensor, onto 0). Plain arrays: a Float64Array of a day's hours has its
 * memory outside the heap, which costs more to make and free than its numbers do.
 */
function measureUtcHours(
  db: Db,
  flow: PlantFlow,
  buckets: readonly TimeRange[],
): FlowMeasures | Promise<FlowMeasures> {
  const { uuids, column, termSizes } = layoutOf(flow);
  const width = uuids.length;
  const energyKwh = new Array<number>(buckets.length * width).fill(0);
  const coveredSeconds = new Array<number>(buckets.length * width).fill(0);
  const first = buckets[0]!.start;
  const range = { start: first, end: buckets[buckets.length - 1]!.end };
  const measures: FlowMeasures = { flow, buckets, termSizes, energyKwh, coveredSeconds };
  // Hours come sensor by sensor: the column is looked up once per sensor, not per hour.
  let sensor = '';
  let sensorColumn = 0;
  const read = forEachStoredHour(db, uuids, range, (sensorUuid, hourStart, energy, covered) => {
    if (sensorUuid !== sensor) {
      sensor = sensorUuid;
      sensorColumn = column.get(sensorUuid)!;
    }
    const at = ((hourStart - first) / HOUR_MS) * width + sensorColumn;
    energyKwh[at]! += energy;
    coveredSeconds[at]! += covered;
  });
  return read ? read.then(() => measures) : measures;
}

/** The rollup slots `measureFlow` reads: one `rollupSlots` call. */
export interface SlotRequest {
  /** The flow's own list, shared: not to be changed. */
  sensorUuids: readonly string[];
  range: TimeRange;
  step: number;
}

export function slotRequestOf(flow: PlantFlow, buckets: readonly TimeRange[]): SlotRequest {
  return {
    sensorUuids: layoutOf(flow).uuids,
    range: { start: buckets[0]?.start ?? 0, end: buckets[buckets.length - 1]?.end ?? 0 },
    step: flow.source === 'BALANCE' ? ROLLUP_MS : slotStepFor(buckets),
  };
}

/** The measures from the slots of `slotRequestOf(flow, buckets)`, however they were read. */
export function measureFlowFromSlots(
  flow: PlantFlow,
  buckets: readonly TimeRange[],
  slots: readonly SlotRow[],
): FlowMeasures {
  if (flow.source === 'BALANCE') {
    return { flow, buckets, termSizes: [1], ...foldBalanceQuarters(flow, buckets, slots) };
  }
  const sensors = flowSensors(flow);
  const energyKwh = new Float64Array(buckets.length * sensors.length);
  const coveredSeconds = new Float64Array(buckets.length * sensors.length);
  if (sensors.length > 0 && buckets.length > 0) {
    const position = new Map(sensors.map((sensor, index) => [sensor.sensorUuid, index]));
    let bucket = -1;
    for (const slot of slots) {
      bucket = bucketIndexNear(buckets, slot.slotStart, bucket);
      const sensor = position.get(slot.sensorUuid);
      if (bucket === -1 || sensor === undefined) continue;
      energyKwh[bucket * sensors.length + sensor]! += slot.energyKwh;
      coveredSeconds[bucket * sensors.length + sensor]! += slot.coveredSeconds;
    }
  }
  return { flow, buckets, termSizes: termSizesOf(flow), energyKwh, coveredSeconds };
}

/**
 * `bucketIndexOf`, looking first in the bucket of the slot before and the one after it: slots
 * come in time order, sensor by sensor, so the search is mostly not needed.
 */
function bucketIndexNear(buckets: readonly TimeRange[], instant: number, previous: number): number {
  for (
    let index = Math.max(previous, 0);
    index <= previous + 1 && index < buckets.length;
    index++
  ) {
    const bucket = buckets[index]!;
    if (bucket.start <= instant && instant < bucket.end) return index;
  }
  return bucketIndexOf(buckets, instant);
}

/** The same from raw readings (as power segments by sensor uuid), at any bucket size. */
export function measureFlowFromSegments(
  flow: PlantFlow,
  buckets: readonly TimeRange[],
  segmentsBySensor: ReadonlyMap<string, readonly PowerSegment[]>,
): FlowMeasures {
  const sensors = flowSensors(flow);
  const energyKwh = new Float64Array(buckets.length * sensors.length);
  const coveredSeconds = new Float64Array(buckets.length * sensors.length);
  sensors.forEach((sensor, position) => {
    const integrated = integrateSegments(segmentsBySensor.get(sensor.sensorUuid) ?? [], buckets);
    for (let bucket = 0; bucket < buckets.length; bucket++) {
      energyKwh[bucket * sensors.length + position] = integrated.energyKwh[bucket]!;
      coveredSeconds[bucket * sensors.length + position] = integrated.coveredSeconds[bucket]!;
    }
  });
  return { flow, buckets, termSizes: termSizesOf(flow), energyKwh, coveredSeconds };
}

export interface Combined {
  value: number | null;
  coverage: number;
}

/**
 * One value per bucket. `perSensor` turns one sensor's energy and covered seconds in a
 * bucket into its contribution (energy itself, or its mean power).
 */
export function combineFlow(
  measures: FlowMeasures,
  perSensor: (energyKwh: number, coveredSeconds: number) => number,
): Combined[] {
  const combined: Combined[] = [];
  forEachCombined(measures, perSensor, (_, value, coverage) => combined.push({ value, coverage }));
  return combined;
}

/**
 * `combineFlow`'s value and coverage of each bucket in turn, without an object per bucket (for
 * answers written straight as text, `seriesJsonOfMeasures`).
 */
export function forEachCombined(
  measures: FlowMeasures,
  perSensor: (energyKwh: number, coveredSeconds: number) => number,
  each: (bucket: number, value: number | null, coverage: number) => void,
): void {
  const { flow, buckets, termSizes, energyKwh, coveredSeconds } = measures;
  let columnCount = 0;
  for (const size of termSizes) columnCount += size;
  for (let index = 0; index < buckets.length; index++) {
    if (termSizes.length === 0) {
      each(index, null, 0);
      continue;
    }
    const bucket = buckets[index]!;
    const bucketSeconds = (bucket.end - bucket.start) / 1000;
    let value = 0;
    let coverage = 1;
    let offset = index * columnCount;
    for (const size of termSizes) {
      let covered = 0;
      for (let column = offset; column < offset + size; column++) {
        covered += coveredSeconds[column]!;
        value += perSensor(energyKwh[column]!, coveredSeconds[column]!);
      }
      coverage = Math.min(coverage, covered / (bucketSeconds * size));
      offset += size;
    }
    if (coverage <= 0) {
      each(index, null, 0);
      continue;
    }
    if (flow.source === 'BALANCE') value = Math.max(0, value);
    each(index, roundMetric(value), roundMetric(coverage));
  }
}

/** A sensor's mean power (W) over its covered time: a gap lowers the coverage, not the power. */
export const meanWatts = (energyKwh: number, coveredSeconds: number): number =>
  coveredSeconds > 0 ? (energyKwh * 3_600_000) / coveredSeconds : 0;

/** Six decimals (kWh to the mWh, W to the µW): no floating-point noise like 1.2000000000000002. */
export const roundMetric = (value: number): number => Math.round(value * 1e6) / 1e6;
