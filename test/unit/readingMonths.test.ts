import { describe, expect, it } from 'vitest';
import {
  readingMonthOf,
  readingMonthOfPartition,
  readingMonthsBetween,
} from '../../server/db/readingMonths.ts';

describe('reading months (PostgreSQL partitions of readings)', () => {
  it('are UTC calendar months as epoch-ms ranges, named after year and month', () => {
    const june = readingMonthOf(Date.parse('2026-06-30T23:59:59.999Z'));
    expect(june).toEqual({
      startMs: Date.parse('2026-06-01T00:00:00Z'),
      endMs: Date.parse('2026-07-01T00:00:00Z'),
      partition: 'readings_2026_06',
    });
    expect(readingMonthOf(Date.parse('2026-07-01T00:00:00Z')).partition).toBe('readings_2026_07');
    // Local midnight of 1 July in Rome is still June in UTC.
    expect(readingMonthOf(Date.parse('2026-07-01T00:00:00+02:00')).partition).toBe(
      'readings_2026_06',
    );
  });

  it('span the months of a range, across a year end, both ends included', () => {
    const months = readingMonthsBetween(
      Date.parse('2025-11-15T00:00:00Z'),
      Date.parse('2026-02-01T00:00:00Z'),
    );
    expect(months.map((month) => month.partition)).toEqual([
      'readings_2025_11',
      'readings_2025_12',
      'readings_2026_01',
      'readings_2026_02',
    ]);
    expect(readingMonthsBetween(5, 5)).toHaveLength(1);
  });

  it('are read back from partition names, and other tables are not months', () => {
    expect(readingMonthOfPartition('readings_2026_02')).toEqual(
      readingMonthOf(Date.parse('2026-02-10T00:00:00Z')),
    );
    expect(readingMonthOfPartition('readings_2026_13')).toBeUndefined();
    expect(readingMonthOfPartition('readings')).toBeUndefined();
    expect(readingMonthOfPartition('readings_unpartitioned')).toBeUndefined();
  });
});
