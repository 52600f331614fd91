import { describe, expect, test } from 'vitest';
import { clampRefreshInterval } from '../../../renderer/src/composables/refreshInterval.ts';

describe('clampRefreshInterval', () => {
  test('keeps live refresh to 10 s..5 min; a non-number is the minimum', () => {
    expect(clampRefreshInterval(1_000)).toBe(10_000);
    expect(clampRefreshInterval(3_600_000)).toBe(300_000);
    expect(clampRefreshInterval(Number.NaN)).toBe(10_000);
    expect(clampRefreshInterval(60_000)).toBe(60_000);
    expect(clampRefreshInterval(12_345.6)).toBe(12_346);
  });
});
