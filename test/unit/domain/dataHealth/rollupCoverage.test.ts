import { describe, expect, it } from 'vitest';
import {
  assessSensorHealth,
  dailyCoverage,
  findGaps,
  heldSpans,
  lastStandIn,
  standInTimes,
  summarizeDataHealth,
  type BucketSamples,
  type HealthSamples,
  type SensorHealthInput,
  type Span,
} from '../../../../server/domain/dataHealth/index.ts';
import { localDays } from '../../../../server/measurements/metrics/localTime.ts';
import { BUCKET_MS, computeRollups } from '../../../../server/measurements/rollups.ts';
import { plantHealth, sensorHealth } from '../../../support/dataHealthAnswers.ts';

/**
 * Coverage and gaps from 15-minute rollups' sample counts, where raw retention left no raw
 * readings: crafted rollups, and rollups computed from raw readings compared with what the raw
 * readings themselves give.
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-01T00:00:00Z');

function series(from: number, to: number, stepMs: number, skip?: Span): HealthSamples {
  const takenAt: number[] = [];
  const values: number[] = [];
  for (let at = from; at < to; at += stepMs) {
    if (skip && at >= skip.start && at < skip.end) continue;
    takenAt.push(at);
    values.push(1000 + ((at / MINUTE) % 97));
  }
  return { takenAt, values };
}

/** The sample counts of the rollups the store computes from the samples. */
function rollupsOf(samples: HealthSamples, intervalMs: number, range: Span): BucketSamples[] {
  return computeRollups({
    kind: 'power',
    samplingIntervalSeconds: intervalMs / 1000,
    fromMs: range.start,
    toMs: range.end,
    samples,
  }).map(({ bucketStart, sampleCount }) => ({ bucketStart, sampleCount }));
}

/** Coverage per day and gaps, once from the raw readings and once from their rollups only. */
function bothWays(samples: HealthSamples, intervalMs: number, days: readonly Span[]) {
  const range = { start: days[0]!.start, end: days.at(-1)!.end };
  const standIns = { takenAt: standInTimes(rollupsOf(samples, intervalMs, range), intervalMs) };
  const judge = (times: Pick<HealthSamples, 'takenAt'>) => ({
    coverage: dailyCoverage(heldSpans(times, intervalMs, range), days),
    gaps: findGaps(times, intervalMs, range),
  });
  return { raw: judge(samples), rollups: judge(standIns) };
}

const bucketsEvery = (from: number, to: number, sampleCount: number, stepMs = BUCKET_MS) => {
  const buckets: BucketSamples[] = [];
  for (let at = from; at < to; at += stepMs) buckets.push({ bucketStart: at, sampleCount });
  return buckets;
};

describe('stand-in times of a rollup bucket', () => {
  it('one interval apart from the bucket start; closer when the bucket counted more than fit', () => {
    expect(standInTimes([{ bucketStart: T0, sampleCount: 3 }], MINUTE)).toEqual([
      T0,
      T0 + MINUTE,
      T0 + 2 * MINUTE,
    ]);
    // 30 samples of a 1-minute sensor (it reported twice a minute): all inside the bucket.
    const burst = standInTimes([{ bucketStart: T0, sampleCount: 30 }], MINUTE);
    expect(burst).toHaveLength(30);
    expect(burst.at(-1)).toBe(T0 + 29 * 30_000);
    expect(lastStandIn({ bucketStart: T0, sampleCount: 30 }, MINUTE)).toBe(T0 + 29 * 30_000);
    expect(lastStandIn({ bucketStart: T0, sampleCount: 0 }, MINUTE)).toBeUndefined();
  });
});

describe('coverage from rollups equals coverage from the raw readings', () => {
  const day = { start: T0, end: T0 + 24 * HOUR };

  it('1-minute readings, a full day: complete either way', () => {
    const { raw, rollups } = bothWays(series(day.start, day.end, MINUTE), MINUTE, [day]);
    expect(rollups).toEqual({ coverage: [1], gaps: [] });
    expect(raw).toEqual(rollups);
  });

  it('1-minute readings with a two-hour hole on bucket bounds: same coverage, same gap', () => {
    const hole = { start: T0 + 10 * HOUR, end: T0 + 12 * HOUR };
    const { raw, rollups } = bothWays(series(day.start, day.end, MINUTE, hole), MINUTE, [day]);
    expect(rollups.coverage[0]).toBeCloseTo(22 / 24, 6);
    expect(rollups).toEqual(raw);
  });

  it('15-minute readings with a three-hour hole: same coverage, same gap', () => {
    const hole = { start: T0 + 3 * HOUR, end: T0 + 6 * HOUR };
    const { raw, rollups } = bothWays(series(day.start, day.end, 15 * MINUTE, hole), 15 * MINUTE, [
      day,
    ]);
    expect(rollups.coverage[0]).toBeCloseTo(21 / 24, 6);
    expect(rollups.gaps).toEqual([
      { start: hole.start - 15 * MINUTE, end: hole.end, durationMs: 3 * HOUR + 15 * MINUTE },
    ]);
    expect(rollups).toEqual(raw);
  });

  it('15-minute readings with one missing: no gap (within three intervals), complete', () => {
    const hole = { start: T0 + 5 * HOUR, end: T0 + 5 * HOUR + 15 * MINUTE };
    const { raw, rollups } = bothWays(series(day.start, day.end, 15 * MINUTE, hole), 15 * MINUTE, [
      day,
    ]);
    expect(rollups).toEqual({ coverage: [1], gaps: [] });
    expect(raw).toEqual(rollups);
  });

  it('hourly readings (one bucket in four counts a sample): complete, no gap', () => {
    const { raw, rollups } = bothWays(series(day.start, day.end, HOUR), HOUR, [day]);
    expect(rollups.coverage).toEqual([1]);
    expect(raw).toEqual(rollups);
  });

  it('partial buckets: the same covered time; a gap starts at the stand-ins, not at the last reading', () => {
    // Readings 00:00–00:06, an outage, then 02:08–23:59 every minute: the first bucket after
    // the outage counted 7 samples (02:08–02:14).
    const samples = series(day.start, day.end, MINUTE, {
      start: T0 + 7 * MINUTE,
      end: T0 + 128 * MINUTE,
    });
    const { raw, rollups } = bothWays(samples, MINUTE, [day]);
    expect(rollups.coverage).toEqual(raw.coverage);
    expect(raw.gaps).toEqual([
      { start: T0 + 6 * MINUTE, end: T0 + 128 * MINUTE, durationMs: 122 * MINUTE },
    ]);
    // The rollups know that 02:00–02:15 counted 7 samples, not which minutes: stand-ins at
    // 02:00–02:06, then nothing until 02:15, more than three intervals: a second gap.
    expect(rollups.gaps).toEqual([
      { start: T0 + 6 * MINUTE, end: T0 + 120 * MINUTE, durationMs: 114 * MINUTE },
      { start: T0 + 126 * MINUTE, end: T0 + 135 * MINUTE, durationMs: 9 * MINUTE },
    ]);
  });
});

describe('DST days in Europe/Madrid, from rollups', () => {
  /** The day before, the DST day and the day after: [23 or 25 hours in the middle]. */
  const threeDays = (month: number, day: number) =>
    localDays(
      'Europe/Madrid',
      { year: 2026, month, day: day - 1 },
      { year: 2026, month, day: day + 1 },
    );

  it.each([
    ['spring', threeDays(3, 29), 23],
    ['autumn', threeDays(10, 25), 25],
  ])(
    'the %s day (%#): full rollups cover it whole; a missing hour is one of its hours',
    (_, days, hours) => {
      expect((days[1]!.end - days[1]!.start) / HOUR).toBe(hours);
      const range = { start: days[0]!.start, end: days[2]!.end };
      const full = standInTimes(bucketsEvery(range.start, range.end + BUCKET_MS, 15), MINUTE);
      expect(dailyCoverage(heldSpans({ takenAt: full }, MINUTE, range), days)).toEqual([1, 1, 1]);

      const hole = { start: days[1]!.start + 6 * HOUR, end: days[1]!.start + 7 * HOUR };
      const holed = bucketsEvery(range.start, range.end, 15).filter(
        (bucket) => bucket.bucketStart < hole.start || bucket.bucketStart >= hole.end,
      );
      const coverage = dailyCoverage(
        heldSpans({ takenAt: standInTimes(holed, MINUTE) }, MINUTE, range),
        days,
      );
      expect(coverage[1]).toBeCloseTo(1 - 1 / hours, 6);
      const { raw } = bothWays(series(range.start, range.end, MINUTE, hole), MINUTE, days);
      expect(coverage).toEqual(raw.coverage);
    },
  );
});

describe('assessSensorHealth with a rollup part', () => {
  const days = [0, 1, 2, 3].map((index) => ({
    start: T0 + index * 24 * HOUR,
    end: T0 + (index + 1) * 24 * HOUR,
  }));
  const range = { start: days[0]!.start, end: days[3]!.end };
  /** Raw readings kept from the middle of day 1 on (the retention horizon), rollups before. */
  const rawFrom = T0 + 36 * HOUR;

  function input(dataType: string, value: (at: number) => number): SensorHealthInput {
    const all = series(range.start, range.end, MINUTE);
    const takenAt: number[] = [];
    const values: number[] = [];
    for (let index = 0; index < all.takenAt.length; index++) {
      const at = all.takenAt[index]!;
      if (at < rawFrom) continue;
      takenAt.push(at);
      values.push(value(at));
    }
    return {
      dataType,
      flow: 'CONSUMPTION',
      intervalMs: MINUTE,
      samples: { takenAt, values },
      range,
      days,
      rollups: {
        rawFrom,
        buckets: bucketsEvery(range.start, rawFrom, 15),
        before: { bucketStart: range.start - BUCKET_MS, sampleCount: 15 },
      },
    };
  }

  it('covers the days whole across rawFrom (no false gap there) and marks the days on rollups', () => {
    const health = assessSensorHealth(input('POWER', (at) => 1000 + ((at / MINUTE) % 97)));
    expect(health.coverage).toEqual([1, 1, 1, 1]);
    expect(health.gaps).toEqual([]);
    expect(health.onRollups).toEqual([true, true, false, false]);
  });

  it('value rules look at the raw readings only: a counter reset before rawFrom is unknown', () => {
    // A counter rising by 0.01 kWh a minute, reset to 0 at the start of day 3 (raw).
    const reset = T0 + 72 * HOUR;
    const health = assessSensorHealth(
      input('ENERGY', (at) =>
        at < reset ? (at - T0) / MINUTE / 100 : (at - reset) / MINUTE / 100,
      ),
    );
    expect(health.counterIssues.map((issue) => issue.at)).toEqual([reset]);
    expect(health.onRollups).toEqual([true, true, false, false]);
  });

  it('without rollup samples before rawFrom nothing rests on rollups', () => {
    const base = input('POWER', () => 5);
    const health = assessSensorHealth({ ...base, rollups: { rawFrom, buckets: [] } });
    expect(health.onRollups).toEqual([false, false, false, false]);
    expect(health.coverage[0]).toBe(0);
  });

  it('rollups from within the range mark only the days from their first counted bucket', () => {
    const base = input('POWER', () => 5);
    const health = assessSensorHealth({
      ...base,
      rollups: { rawFrom, buckets: bucketsEvery(T0 + 30 * HOUR, rawFrom, 15) },
    });
    expect(health.onRollups).toEqual([false, true, false, false]);
    expect(health.coverage[0]).toBe(0);
    expect(health.coverage[1]).toBeCloseTo(18 / 24, 6);
  });
});

describe('the summary of a sensor with days on rollups', () => {
  it('says how many and from when the value rules assessed; nothing when every day is raw', () => {
    const onRollups = sensorHealth({
      resolution: ['15min', '15min', 'raw'],
      rawFrom: '2026-03-29T14:00:00+02:00',
    });
    const [summary, raw] = summarizeDataHealth(plantHealth([onRollups, sensorHealth()])).sensors;
    expect(summary).toMatchObject({
      rollupDays: 2,
      valuesAssessedFrom: '2026-03-29T14:00:00+02:00',
    });
    expect(raw).not.toHaveProperty('rollupDays');
    expect(raw).not.toHaveProperty('valuesAssessedFrom');
  });
});
