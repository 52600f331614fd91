import { describe, expect, it } from 'vitest';
import {
  BUCKET_MS,
  bucketCeil,
  bucketStartOf,
  computeRollups,
  MAX_COUNTER_SPREAD_MS,
  type Rollup,
  type RollupSpan,
  type Sample,
} from '../../../server/measurements/rollups.ts';
import type { ReadingKind } from '../../../server/measurements/readingKinds.ts';

/** Every expected number below is worked out by hand in the comment next to it. */

const T0 = Date.UTC(2026, 2, 29, 0, 0); // a bucket boundary
const MIN = 60_000;
const HOUR = 60 * MIN;

function span(
  kind: ReadingKind,
  intervalSeconds: number,
  samples: [minutes: number, value: number][],
  options: Partial<RollupSpan> = {},
): RollupSpan {
  const takenAt = samples.map(([minutes]) => T0 + minutes * MIN);
  const lastHoldEnd = Math.max(T0, ...takenAt) + intervalSeconds * 1000;
  return {
    kind,
    samplingIntervalSeconds: intervalSeconds,
    fromMs: T0,
    toMs: bucketCeil(lastHoldEnd),
    samples: { takenAt, values: samples.map(([, value]) => value) },
    ...options,
  };
}

function at(rollups: Rollup[], minutes: number): Rollup {
  const rollup = rollups.find((candidate) => candidate.bucketStart === T0 + minutes * MIN);
  if (!rollup) throw new Error(`no rollup at minute ${minutes}`);
  return rollup;
}

const sample = (minutes: number, value: number): Sample => ({
  takenAt: T0 + minutes * MIN,
  value,
});

describe('power', () => {
  it('integrates a constant 1000 W over one hour into four buckets of 0.25 kWh', () => {
    // 60 samples, one a minute; each holds until the next, the last for one interval.
    const samples = Array.from({ length: 60 }, (_, k) => [k, 1000] as [number, number]);
    const rollups = computeRollups(span('power', 60, samples));
    expect(rollups).toEqual(
      [0, 15, 30, 45].map((minutes) => ({
        bucketStart: T0 + minutes * MIN,
        energyKwh: 0.25,
        meanValue: 1000,
        minValue: 1000,
        maxValue: 1000,
        sampleCount: 15,
        coveredSeconds: 900,
      })),
    );
  });

  it('holds a sample for one interval only across a gap longer than 3 intervals', () => {
    // interval 60 s. 0′ 1000 W holds to 1′ (next within 3′); 1′ 2000 W: next at 10′ is 9′ away,
    // a gap, so it holds [1′, 2′) only; 10′ 500 W holds to 11′; 11′ 500 W is last: [11′, 12′).
    // covered 4 × 60 s = 240 s; ∫ = 1000·60 + 2000·60 + 500·120 = 240 000 W·s = 0.0666… kWh.
    const rollups = computeRollups(
      span('power', 60, [
        [0, 1000],
        [1, 2000],
        [10, 500],
        [11, 500],
      ]),
    );
    expect(rollups).toHaveLength(1);
    const bucket = rollups[0]!;
    expect(bucket.coveredSeconds).toBe(240);
    expect(bucket.energyKwh).toBeCloseTo(240_000 / 3_600_000, 12);
    expect(bucket.meanValue).toBe(1000); // 240 000 W·s / 240 s
    expect(bucket.minValue).toBe(500);
    expect(bucket.maxValue).toBe(2000);
    expect(bucket.sampleCount).toBe(4);
  });

  it('holds across a gap of exactly 3 intervals', () => {
    // 0′ 600 W, next at 3′ = 3 × 60 s: it holds [0′, 3′); 3′ is last: [3′, 4′). 240 s covered.
    const [bucket] = computeRollups(
      span('power', 60, [
        [0, 600],
        [3, 600],
      ]),
    );
    expect(bucket!.coveredSeconds).toBe(240);
    expect(bucket!.energyKwh).toBeCloseTo(0.04, 12); // 600 W × 240 s = 144 000 W·s
  });

  it('counts a sample exactly on a boundary in the bucket it opens', () => {
    // 14′ 100 W holds [14′, 15′) in bucket 0; 15′ 200 W opens bucket 15 and holds [15′, 16′).
    const rollups = computeRollups(
      span('power', 60, [
        [14, 100],
        [15, 200],
      ]),
    );
    expect(rollups).toEqual([
      {
        bucketStart: T0,
        energyKwh: (100 * 60) / 3_600_000,
        meanValue: 100,
        minValue: 100,
        maxValue: 100,
        sampleCount: 1,
        coveredSeconds: 60,
      },
      {
        bucketStart: T0 + 15 * MIN,
        energyKwh: (200 * 60) / 3_600_000,
        meanValue: 200,
        minValue: 200,
        maxValue: 200,
        sampleCount: 1,
        coveredSeconds: 60,
      },
    ]);
  });

  it('splits a hold across a bucket boundary', () => {
    // interval 300 s. 13′ 600 W holds [13′, 17′): 120 s in each bucket. 17′ 1200 W is last:
    // [17′, 22′), 300 s. Bucket 0: 600 × 120 = 72 000 W·s = 0.02 kWh. Bucket 15: 72 000 +
    // 1200 × 300 = 432 000 W·s = 0.12 kWh over 420 s: mean 1028.571… W.
    const rollups = computeRollups(
      span('power', 300, [
        [13, 600],
        [17, 1200],
      ]),
    );
    expect(rollups).toHaveLength(2);
    expect(at(rollups, 0)).toMatchObject({ coveredSeconds: 120, sampleCount: 1 });
    expect(at(rollups, 0).energyKwh).toBeCloseTo(0.02, 12);
    const second = at(rollups, 15);
    expect(second).toMatchObject({ coveredSeconds: 420, sampleCount: 1, minValue: 600 });
    expect(second.maxValue).toBe(1200);
    expect(second.energyKwh).toBeCloseTo(0.12, 12);
    expect(second.meanValue).toBeCloseTo(432_000 / 420, 9);
  });

  it('integrates irregular samples', () => {
    // interval 60 s, times in seconds: 0 s 100 W holds to 50 s; 50 s 300 W to 200 s (150 s ≤
    // 180 s); 200 s 200 W: next at 420 s is 220 s away, so [200, 260); 420 s 400 W to 450 s;
    // 450 s 0 W last: [450, 510). ∫ = 5000 + 45 000 + 12 000 + 12 000 + 0 = 74 000 W·s over
    // 50 + 150 + 60 + 30 + 60 = 350 s.
    const seconds = [0, 50, 200, 420, 450];
    const values = [100, 300, 200, 400, 0];
    const rollups = computeRollups({
      kind: 'power',
      samplingIntervalSeconds: 60,
      fromMs: T0,
      toMs: T0 + BUCKET_MS,
      samples: { takenAt: seconds.map((s) => T0 + s * 1000), values },
    });
    expect(rollups).toHaveLength(1);
    const [bucket] = rollups;
    expect(bucket!.coveredSeconds).toBe(350);
    expect(bucket!.energyKwh).toBeCloseTo(74_000 / 3_600_000, 12);
    expect(bucket!.meanValue).toBeCloseTo(74_000 / 350, 9);
    expect(bucket!).toMatchObject({ minValue: 0, maxValue: 400, sampleCount: 5 });
  });

  it('holds a lone sample for one interval', () => {
    // 7′ 1200 W, interval 60 s: [7′, 8′) = 72 000 W·s = 0.02 kWh.
    expect(computeRollups(span('power', 60, [[7, 1200]]))).toEqual([
      {
        bucketStart: T0,
        energyKwh: 0.02,
        meanValue: 1200,
        minValue: 1200,
        maxValue: 1200,
        sampleCount: 1,
        coveredSeconds: 60,
      },
    ]);
  });

  it('integrates negative power (export, battery charge) as negative energy', () => {
    // -3000 W for 15 samples of 60 s: -3000 × 900 = -2 700 000 W·s = -0.75 kWh.
    const samples = Array.from({ length: 15 }, (_, k) => [k, -3000] as [number, number]);
    const [bucket] = computeRollups(span('power', 60, samples));
    expect(bucket!.energyKwh).toBe(-0.75);
    expect(bucket!.coveredSeconds).toBe(900);
  });

  it('lets the sample before the span hold into it', () => {
    // interval 60 s. Before: -0.5′ 600 W; next at 1′ is 90 s away, so it holds to 1′: 60 s of
    // the span. 1′ 600 W is last: [1′, 2′). 120 s, 600 × 120 = 72 000 W·s. Not counted: before.
    const [bucket] = computeRollups(
      span('power', 60, [[1, 600]], { before: { takenAt: T0 - 30_000, value: 600 } }),
    );
    expect(bucket).toMatchObject({ bucketStart: T0, coveredSeconds: 120, sampleCount: 1 });
    expect(bucket!.energyKwh).toBeCloseTo(0.02, 12);
  });

  it('ends the last sample at the sample after the span', () => {
    // interval 300 s, span [0′, 15′). 5′ 400 W; after at 16′ (11′ away, within 3 × 5′): holds
    // to 16′, clipped to 15′: 600 s. Without `after` it would hold 300 s.
    const base = span('power', 300, [[5, 400]], { toMs: T0 + BUCKET_MS });
    const withAfter = computeRollups({ ...base, after: sample(16, 999) });
    const without = computeRollups(base);
    expect(withAfter).toHaveLength(1);
    expect(withAfter[0]!.coveredSeconds).toBe(600);
    expect(withAfter[0]!.maxValue).toBe(400);
    expect(without[0]!.coveredSeconds).toBe(300);
  });

  it('answers only the buckets of the span, and none for a gap', () => {
    // 0′ and 120′ 100 W, interval 60 s: two holds of one minute; 7 empty buckets between.
    const rollups = computeRollups(
      span('power', 60, [
        [0, 100],
        [120, 100],
      ]),
    );
    expect(rollups.map((rollup) => (rollup.bucketStart - T0) / MIN)).toEqual([0, 120]);
  });
});

describe('counter (ENERGY)', () => {
  it('spreads increases over the time between readings, and counts a reset as its new value', () => {
    // interval 900 s. 5′ 10 kWh, 20′ 12, 35′ 1 (reset), 50′ 3.
    // [5′, 20′) +2: 10/15 of it (1.333…) in bucket 0, 5/15 (0.666…) in bucket 15.
    // [20′, 35′) reset → +1: 10/15 in bucket 15, 5/15 in bucket 30.
    // [35′, 50′) +2: 10/15 in bucket 30, 5/15 in bucket 45. The last reading covers nothing.
    const rollups = computeRollups(
      span('counter', 900, [
        [5, 10],
        [20, 12],
        [35, 1],
        [50, 3],
      ]),
    );
    expect(rollups.map((rollup) => (rollup.bucketStart - T0) / MIN)).toEqual([0, 15, 30, 45]);
    const energies = rollups.map((rollup) => rollup.energyKwh!);
    expect(energies[0]).toBeCloseTo(4 / 3, 12);
    expect(energies[1]).toBeCloseTo(2 / 3 + 2 / 3, 12);
    expect(energies[2]).toBeCloseTo(1 / 3 + 4 / 3, 12);
    expect(energies[3]).toBeCloseTo(2 / 3, 12);
    expect(energies.reduce((sum, energy) => sum + energy, 0)).toBeCloseTo(5, 12);
    expect(rollups.map((rollup) => rollup.coveredSeconds)).toEqual([600, 900, 900, 300]);
    expect(rollups.map((rollup) => rollup.sampleCount)).toEqual([1, 1, 1, 1]);
    // Counter values held: bucket 15 is 10 for 5′ then 12 for 10′: (3000 + 7200) / 900.
    expect(rollups[1]!.meanValue).toBeCloseTo(10_200 / 900, 9);
    // Bucket 45: value 1 held [45′, 50′); the reading 3 at 50′ is seen but covers nothing.
    expect(rollups[3]).toMatchObject({ meanValue: 1, minValue: 1, maxValue: 3 });
  });

  it('never makes negative energy', () => {
    const rollups = computeRollups(
      span('counter', 60, [
        [0, 500],
        [1, 0],
        [2, 0.5],
      ]),
    );
    expect(rollups[0]!.energyKwh).toBeCloseTo(0.5, 12); // reset to 0: +0, then +0.5
  });

  it('spreads an increase across a gap, however long, keeping the energy', () => {
    // interval 60 s; 0′ 100 kWh, 60′ 104 kWh: +4 kWh over the hour, 1 kWh per bucket.
    const rollups = computeRollups(
      span('counter', 60, [
        [0, 100],
        [60, 104],
      ]),
    );
    expect(rollups.map((rollup) => rollup.energyKwh)).toEqual([1, 1, 1, 1, 0]);
    expect(rollups.map((rollup) => rollup.coveredSeconds)).toEqual([900, 900, 900, 900, 0]);
  });

  it('spreads an increase over a 7-month gap evenly, the same share every day', () => {
    // 2026-03-10T12:00Z 1000 kWh, 2026-10-30T12:00Z 2700 kWh: +1700 kWh over 234 days,
    // 1700 / 234 kWh a day; the first and last days hold half a day each.
    const first = Date.UTC(2026, 2, 10, 12);
    const last = Date.UTC(2026, 9, 30, 12);
    const days = (last - first) / (24 * HOUR);
    expect(days).toBe(234);
    const rollups = computeRollups({
      kind: 'counter',
      samplingIntervalSeconds: 900,
      fromMs: Date.UTC(2026, 2, 10),
      toMs: Date.UTC(2026, 9, 31),
      samples: { takenAt: [first, last], values: [1000, 2700] },
    });
    const perDay = new Map<number, number>();
    for (const rollup of rollups) {
      const day = Math.floor(rollup.bucketStart / (24 * HOUR));
      perDay.set(day, (perDay.get(day) ?? 0) + rollup.energyKwh!);
    }
    const daily = [...perDay.values()];
    expect(daily).toHaveLength(days + 1);
    expect(daily[0]).toBeCloseTo(1700 / days / 2, 9);
    expect(daily[days]).toBeCloseTo(1700 / days / 2, 9);
    for (const energy of daily.slice(1, days)) expect(energy).toBeCloseTo(1700 / days, 9);
    // Over 2026-09-01..2026-10-29 (the probe's summary): the same share every day, not all
    // of it in the last month.
    const september = Math.floor(Date.UTC(2026, 8, 1) / (24 * HOUR));
    expect(perDay.get(september)).toBeCloseTo(1700 / days, 9);
    expect(daily.reduce((sum, energy) => sum + energy, 0)).toBeCloseTo(1700, 6);
  });

  it('spreads a gap longer than MAX_COUNTER_SPREAD_MS at the same even rate, keeping only its last MAX_COUNTER_SPREAD_MS', () => {
    // 0 kWh, then 800 kWh 800 days later: 1 kWh a day over the whole gap; only the last
    // 400 days (38,400 buckets) get rows, each with 1/96 kWh. No day ever holds more than its
    // share; the days before are uncovered.
    const days = 800;
    expect(MAX_COUNTER_SPREAD_MS).toBe(400 * 24 * HOUR);
    const rollups = computeRollups(
      span('counter', 60, [
        [0, 0],
        [days * 24 * 60, 800],
      ]),
    );
    const spreadBuckets = MAX_COUNTER_SPREAD_MS / BUCKET_MS;
    expect(rollups).toHaveLength(1 + spreadBuckets + 1);
    const firstCovered = rollups.find((rollup) => rollup.coveredSeconds > 0)!;
    expect(firstCovered.bucketStart).toBe(T0 + (days - 400) * 24 * HOUR);
    expect(firstCovered.energyKwh).toBeCloseTo(1 / 96, 12);
    const total = rollups.reduce((sum, rollup) => sum + rollup.energyKwh!, 0);
    expect(total).toBeCloseTo(400, 6);
  });

  it('has a lone reading counted but covering nothing', () => {
    expect(computeRollups(span('counter', 60, [[3, 42]]))).toEqual([
      {
        bucketStart: T0,
        energyKwh: 0,
        meanValue: 42,
        minValue: 42,
        maxValue: 42,
        sampleCount: 1,
        coveredSeconds: 0,
      },
    ]);
  });

  it('spreads the increase towards the reading after the span', () => {
    // 10′ 5 kWh; after: 20′ 7 kWh. +2 over [10′, 20′): half of it, 1 kWh, in [10′, 15′).
    const [bucket] = computeRollups(
      span('counter', 60, [[10, 5]], { toMs: T0 + BUCKET_MS, after: sample(20, 7) }),
    );
    expect(bucket).toMatchObject({ energyKwh: 1, coveredSeconds: 300, sampleCount: 1 });
  });

  it('spreads the increase from the reading before the span', () => {
    // before: -5′ 1 kWh; 10′ 4 kWh: +3 over 15′, 10′ of it (2 kWh) inside the span.
    const rollups = computeRollups(
      span('counter', 60, [[10, 4]], { before: sample(-5, 1), toMs: T0 + BUCKET_MS }),
    );
    expect(rollups).toHaveLength(1);
    expect(rollups[0]!.energyKwh).toBeCloseTo(2, 12);
    expect(rollups[0]!.coveredSeconds).toBe(600);
  });
});

describe('level', () => {
  it('has a time-weighted mean, min and max, and no energy', () => {
    // interval 300 s. 0′ 20 °C holds to 10′; 10′ 23 °C last: [10′, 15′). (20·600 + 23·300)/900.
    const [bucket] = computeRollups(
      span('level', 300, [
        [0, 20],
        [10, 23],
      ]),
    );
    expect(bucket).toMatchObject({
      energyKwh: null,
      minValue: 20,
      maxValue: 23,
      sampleCount: 2,
      coveredSeconds: 900,
    });
    expect(bucket!.meanValue).toBeCloseTo(21, 12);
  });
});

describe('input checks', () => {
  it('rejects samples out of time order (the store sorts before computing)', () => {
    expect(() =>
      computeRollups(
        span('power', 60, [
          [2, 1],
          [1, 1],
        ]),
      ),
    ).toThrow(/strictly increasing/);
  });

  it('rejects two samples at the same time', () => {
    expect(() =>
      computeRollups(
        span('power', 60, [
          [1, 1],
          [1, 2],
        ]),
      ),
    ).toThrow(/strictly increasing/);
  });

  it('rejects a span that is not whole buckets, samples outside it and misplaced neighbours', () => {
    const base = span('power', 60, [[1, 1]]);
    expect(() => computeRollups({ ...base, fromMs: T0 + 1 })).toThrow(/whole buckets/);
    expect(() => computeRollups({ ...base, toMs: T0 })).toThrow(/outside the span/);
    expect(() => computeRollups({ ...base, before: sample(0, 1) })).toThrow(/not before/);
    expect(() => computeRollups({ ...base, after: sample(5, 1) })).toThrow(/not after/);
    expect(() => computeRollups({ ...base, samplingIntervalSeconds: 0 })).toThrow(/positive/);
  });

  it('answers nothing for an empty span', () => {
    expect(computeRollups(span('power', 60, []))).toEqual([]);
  });
});

describe('bucket arithmetic', () => {
  it('floors and ceils to 15-minute boundaries, before 1970 too', () => {
    expect(bucketStartOf(T0 + 14 * MIN + 59_999)).toBe(T0);
    expect(bucketStartOf(T0 + 15 * MIN)).toBe(T0 + 15 * MIN);
    expect(bucketCeil(T0)).toBe(T0);
    expect(bucketCeil(T0 + 1)).toBe(T0 + BUCKET_MS);
    expect(bucketStartOf(-1)).toBe(-BUCKET_MS);
  });
});
