import { describe, expect, it } from 'vitest';
import { rangesOf } from '../../../server/measurements/metrics/storedDayBatches.ts';

const DAY = 86_400_000;
const ask = (sensorUuid: string, first: number, days: number) => ({
  sensorUuid,
  days: { start: first * DAY, end: (first + days) * DAY },
});

describe('the ranges of days one read of stored days asks for', () => {
  it('cover every asked day of each sensor once, overlapping and adjacent windows as one', () => {
    const ranges = rangesOf([
      ask('a', 10, 31),
      ask('b', 10, 31),
      ask('a', 11, 31),
      ask('a', 42, 3),
      ask('a', 60, 31),
      ask('a', 12, 31),
    ]);
    expect(ranges).toEqual([ask('a', 10, 35), ask('a', 60, 31), ask('b', 10, 31)]);
  });

  it('leave out empty windows, and keep the asks as they were', () => {
    const asks = [ask('a', 5, 0), ask('a', 7, 2), ask('a', 1, 3)];
    expect(rangesOf(asks)).toEqual([ask('a', 1, 3), ask('a', 7, 2)]);
    expect(asks).toEqual([ask('a', 5, 0), ask('a', 7, 2), ask('a', 1, 3)]);
  });
});
