import type { Db } from '../../db/database.ts';
import { tuplesOf } from '../../db/fastQuery.ts';
import { measureFlowFromSlots, slotRequestOf, type FlowMeasures } from './flowMeasures.ts';
import type { TimeRange } from './localTime.ts';
import type { PlantFlow } from './plantFlows.ts';
import { NeumaierSum } from '../neumaierSum.ts';
import { ROLLUP_MS, type SlotRow } from './rollupSlots.ts';

/**
 * The 15-minute rollups of many sensors, each over the span it needs, read in one query,
 * answering what `rollupSlots` and `rollupsOf` would answer for any of those sensors and any
 * range inside its span, in the same order and with the same sums: a page of plants is then computed from one
 * read rather than several queries per plant, with figures identical to the per-plant path.
 */

export interface SensorQuarterRollup {
  sensorUuid: string;
  bucketStart: number;
  energyKwh: number | null;
  coveredSeconds: number;
  meanValue: number;
  maxValue: number;
}

/** Some sensors and the span whose rollups they need. */
export interface RollupNeed {
  sensorUuids: readonly string[];
  span: TimeRange;
}

export class PrefetchedRollups {
  /** Each sensor's rollups, oldest first. */
  readonly #bySensor: ReadonlyMap<string, readonly SensorQuarterRollup[]>;

  constructor(bySensor: ReadonlyMap<string, readonly SensorQuarterRollup[]>) {
    this.#bySensor = bySensor;
  }

  /**
   * One query: the rollups each need asks for. A sensor in several needs gets the union of
   * their spans; a range asked of it later must lie within that union.
   */
  static async load(db: Db, needs: readonly RollupNeed[]): Promise<PrefetchedRollups> {
    const bySensor = new Map<string, SensorQuarterRollup[]>();
    const asked = needs.filter(
      (need) => need.sensorUuids.length > 0 && need.span.end > need.span.start,
    );
    if (asked.length === 0) return new PrefetchedRollups(bySensor);
    const rows = await tuplesOf(
      db,
      db
        .selectFrom('sensor_rollups')
        .select([
          'sensor_uuid',
          'bucket_start',
          'energy_kwh',
          'covered_seconds',
          'mean_value',
          'max_value',
        ])
        .where((eb) =>
          eb.or(
            asked.map((need) =>
              eb.and([
                eb('sensor_uuid', 'in', [...new Set(need.sensorUuids)]),
                eb('bucket_start', '>=', need.span.start),
                eb('bucket_start', '<', need.span.end),
              ]),
            ),
          ),
        )
        .orderBy('sensor_uuid')
        .orderBy('bucket_start')
        .compile(),
    );
    let current: SensorQuarterRollup[] = [];
    for (const row of rows) {
      const sensorUuid = row[0] as string;
      if (sensorUuid !== current[0]?.sensorUuid) {
        current = [];
        bySensor.set(sensorUuid, current);
      }
      // Number(): PostgreSQL answers bigint columns as strings.
      current.push({
        sensorUuid,
        bucketStart: Number(row[1]),
        energyKwh: row[2] as number | null,
        coveredSeconds: row[3] as number,
        meanValue: row[4] as number,
        maxValue: row[5] as number,
      });
    }
    return new PrefetchedRollups(bySensor);
  }

  /** As `measureFlow` answers it. */
  measureFlow(flow: PlantFlow, buckets: readonly TimeRange[]): FlowMeasures {
    const { sensorUuids, range, step } = slotRequestOf(flow, buckets);
    return measureFlowFromSlots(flow, buckets, this.slots(sensorUuids, range, step));
  }

  /** As `rollupsOf`: by sensor uuid, then time. */
  rollupsOf(sensorUuids: readonly string[], fromMs: number, toMs: number): SensorQuarterRollup[] {
    return [...new Set(sensorUuids)]
      .sort(compareText)
      .flatMap((sensorUuid) => this.#within(sensorUuid, fromMs, toMs));
  }

  /** As `rollupSlots`, rows in its order and sums as SQLite's `sum()` makes them. */
  slots(sensorUuids: readonly string[], range: TimeRange, step: number): SlotRow[] {
    if (sensorUuids.length === 0 || range.end <= range.start) return [];
    const uuids = [...new Set(sensorUuids)].sort(compareText);
    const slots: SlotRow[] = [];
    if (step === ROLLUP_MS) {
      // SQLite sorts by bucket_start what it read sensor by sensor: ties stay in uuid order.
      for (const sensorUuid of uuids) {
        for (const rollup of this.#within(sensorUuid, range.start, range.end)) {
          slots.push(slotOf(sensorUuid, rollup.bucketStart, rollup));
        }
      }
      return slots.sort((a, b) => a.slotStart - b.slotStart);
    }
    for (const sensorUuid of uuids) {
      let open: { slotStart: number; energy: NeumaierSum; covered: NeumaierSum } | undefined;
      const close = () => {
        if (open) {
          slots.push({
            sensorUuid,
            slotStart: open.slotStart,
            energyKwh: open.energy.total() ?? 0,
            coveredSeconds: open.covered.total() ?? 0,
          });
        }
      };
      for (const rollup of this.#within(sensorUuid, range.start, range.end)) {
        const slotStart = rollup.bucketStart - ((rollup.bucketStart - range.start) % step);
        if (open?.slotStart !== slotStart) {
          close();
          open = { slotStart, energy: new NeumaierSum(), covered: new NeumaierSum() };
        }
        open.energy.add(rollup.energyKwh);
        open.covered.add(rollup.coveredSeconds);
      }
      close();
    }
    return slots;
  }

  /** The sensor's rollups with bucket_start in [fromMs, toMs). */
  #within(sensorUuid: string, fromMs: number, toMs: number): readonly SensorQuarterRollup[] {
    const rollups = this.#bySensor.get(sensorUuid) ?? [];
    const first = firstAtOrAfter(rollups, fromMs);
    let last = first;
    while (last < rollups.length && rollups[last]!.bucketStart < toMs) last += 1;
    return rollups.slice(first, last);
  }
}

// SQLite compares text by its bytes; uuids are ASCII, where that is JavaScript's order.
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const slotOf = (sensorUuid: string, slotStart: number, rollup: SensorQuarterRollup): SlotRow => ({
  sensorUuid,
  slotStart,
  energyKwh: rollup.energyKwh ?? 0,
  coveredSeconds: rollup.coveredSeconds,
});

function firstAtOrAfter(rollups: readonly SensorQuarterRollup[], instant: number): number {
  let low = 0;
  let high = rollups.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rollups[middle]!.bucketStart < instant) low = middle + 1;
    else high = middle;
  }
  return low;
}
