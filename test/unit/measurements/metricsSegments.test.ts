import { describe, expect, it } from 'vitest';
import {
  integrateSegments,
  powerSegments,
  wattsAt,
} from '../../../server/measurements/metrics/powerSegments.ts';

const MIN = 60_000;
const power = { kind: 'POWER' as const, samplingIntervalSeconds: 60 };
const counter = { kind: 'ENERGY' as const, samplingIntervalSeconds: 900 };
const samples = (...pairs: [minute: number, value: number][]) =>
  pairs.map(([minute, value]) => ({ takenAt: minute * MIN, value }));

describe('power segments', () => {
  it('holds a power sample until the next within three intervals, else for one interval', () => {
    expect(powerSegments(power, samples([0, 100], [3, 200], [10, 300]))).toEqual([
      { start: 0, end: 3 * MIN, watts: 100 },
      { start: 3 * MIN, end: 4 * MIN, watts: 200 },
      { start: 10 * MIN, end: 11 * MIN, watts: 300 },
    ]);
  });

  it('spreads a counter increase over the time to the next reading, a reset counting from 0', () => {
    const segments = powerSegments(counter, samples([0, 10], [60, 12], [120, 1]));
    expect(segments).toEqual([
      { start: 0, end: 60 * MIN, watts: 2000 },
      { start: 60 * MIN, end: 120 * MIN, watts: 1000 },
    ]);
  });

  it('spreads a counter increase over a long gap at the rate the rollups use', () => {
    // +2400 kWh over 800 days: 0.125 kWh an hour, 125 W, held over the gap's last 400 days.
    const day = 24 * 60;
    const [segment] = powerSegments(counter, samples([0, 0], [800 * day, 2400]));
    expect(segment).toEqual({ start: 400 * day * MIN, end: 800 * day * MIN, watts: 125 });
    const [sevenMonths] = powerSegments(counter, samples([0, 0], [234 * day, 1404]));
    expect(sevenMonths).toEqual({ start: 0, end: 234 * day * MIN, watts: 250 });
  });

  it('integrates per bucket, optionally only the positive part', () => {
    const segments = powerSegments(power, samples([0, 600], [1, -300], [2, 600]));
    const buckets = [
      { start: 0, end: 90_000 },
      { start: 90_000, end: 240_000 },
    ];
    const all = integrateSegments(segments, buckets);
    expect(Array.from(all.coveredSeconds)).toEqual([90, 90]);
    expect(all.energyKwh[0]).toBeCloseTo((600 * 60 - 300 * 30) / 3_600_000, 12);
    expect(all.energyKwh[1]).toBeCloseTo((-300 * 30 + 600 * 60) / 3_600_000, 12);
    const imported = integrateSegments(segments, buckets, (watts) => Math.max(0, watts));
    expect(imported.energyKwh[0]).toBeCloseTo(0.01, 12);
    expect(imported.energyKwh[1]).toBeCloseTo(0.01, 12);
  });

  it('tells the watts held at an instant', () => {
    const segments = powerSegments(power, samples([0, 100], [2, 200], [10, 300]));
    const cursor = { index: 0 };
    expect(
      [0, 1, 2, 2.99, 3, 9, 10, 11].map((minute) => wattsAt(segments, minute * MIN, cursor)),
    ).toEqual([100, 100, 200, 200, undefined, undefined, 300, undefined]);
  });
});
