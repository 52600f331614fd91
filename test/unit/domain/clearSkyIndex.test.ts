import { describe, expect, test } from 'vitest';
import { clearSkyIndex, type ClearSkyIndexSample } from '../../../server/domain/index.ts';

const hour = (measuredKwh: number | null, clearSkyKwh: number, sunElevationDeg = 40) =>
  ({ measuredKwh, clearSkyKwh, sunElevationDeg }) satisfies ClearSkyIndexSample;

describe('clearSkyIndex', () => {
  test('is the ratio of measured to clear-sky energy over the window', () => {
    expect(clearSkyIndex([hour(2, 4), hour(3, 4), hour(1, 2)])).toBeCloseTo(0.6, 12);
  });

  test('ignores low-sun intervals, where ratios are unreliable', () => {
    const samples = [hour(3, 4), hour(0.5, 0.1, 3), hour(0, 0.2, 8)];
    expect(clearSkyIndex(samples)).toBeCloseTo(0.75, 12);
    expect(clearSkyIndex(samples, { minSunElevationDeg: 2 })).toBeCloseTo(3.5 / 4.3, 12);
  });

  test('ignores intervals without data instead of counting them as zero', () => {
    expect(clearSkyIndex([hour(2, 4), hour(null, 4), hour(Number.NaN, 4)])).toBeCloseTo(0.5, 12);
  });

  test('clamps to [0, 1.2]', () => {
    expect(clearSkyIndex([hour(10, 4)])).toBe(1.2);
    expect(clearSkyIndex([hour(-3, 4)])).toBe(0);
  });

  test('is null when nothing is usable (night, no data)', () => {
    expect(clearSkyIndex([])).toBeNull();
    expect(clearSkyIndex([hour(0, 0, -10)])).toBeNull();
    expect(clearSkyIndex([hour(null, 4)])).toBeNull();
  });
});
