import { describe, expect, it } from 'vitest';
import { recentPoints } from '../../../server/features/fleet/recentReadings.ts';

const NOW = Date.parse('2026-06-21T10:00:30Z');
const SEC = 1000;
const MIN = 60 * SEC;

/** Readings every `stepMs` over [fromMs, toMs], value = seconds before NOW. */
const every = (stepMs: number, fromMs: number, toMs: number) => {
  const readings = [];
  for (let at = fromMs; at <= toMs; at += stepMs)
    readings.push({ takenAt: at, value: (NOW - at) / SEC });
  return readings;
};

describe('recent readings for live views', () => {
  it('keeps the last reading of each minute-long slice counted back from now: 15 at most', () => {
    const points = recentPoints(every(10 * SEC, NOW - 20 * MIN, NOW), NOW);
    expect(points).toHaveLength(15);
    // Slice k is (NOW − (k+1) min, NOW − k min]: its last reading is at its end.
    expect(points.map((point) => point.takenAt)).toEqual(
      Array.from({ length: 15 }, (_, k) => NOW - (14 - k) * MIN),
    );
    expect(points.at(-1)).toEqual({ takenAt: NOW, value: 0 });
  });

  it('keeps every reading of a sparser sensor, in time order, inside the window only', () => {
    const points = recentPoints(every(5 * MIN, NOW - 20 * MIN, NOW + 5 * MIN), NOW);
    // NOW − 15 min is outside (the window is open there); NOW + 5 min is in the future.
    expect(points.map((point) => point.takenAt)).toEqual([NOW - 10 * MIN, NOW - 5 * MIN, NOW]);
  });

  it('answers nothing for a sensor without readings in the window', () => {
    expect(recentPoints([], NOW)).toEqual([]);
    expect(recentPoints(every(MIN, NOW - 60 * MIN, NOW - 16 * MIN), NOW)).toEqual([]);
  });
});
