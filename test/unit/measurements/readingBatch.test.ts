import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/http/errors.ts';
import { parseReadingsBatch } from '../../../server/measurements/readingBatch.ts';

const failure = (run: () => unknown): ApiError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
};

describe('parseReadingsBatch', () => {
  it('answers columns in time order, offsets resolved to instants', () => {
    const columns = parseReadingsBatch(
      [
        { timestamp: '2026-06-01T00:02:00Z', value: 3 },
        { timestamp: '2026-06-01T02:00:00+02:00', value: 1 },
        { timestamp: '2026-05-31T19:31:00-04:30', value: 2 },
      ],
      'POWER',
    );
    const t0 = Date.UTC(2026, 5, 1);
    expect([...columns.takenAt]).toEqual([t0, t0 + 60_000, t0 + 120_000]);
    expect([...columns.values]).toEqual([1, 2, 3]);
  });

  it('refuses an instant outside the years the metrics cover with 422 naming its index', () => {
    for (const timestamp of [
      '1970-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '9999-06-01T00:00:00Z',
    ]) {
      const error = failure(() =>
        parseReadingsBatch(
          [
            { timestamp: '2026-06-01T00:00:00Z', value: 1 },
            { timestamp, value: 2 },
          ],
          'POWER',
        ),
      );
      expect(error.status, timestamp).toBe(422);
      expect(error.message).toBe(
        `Reading readings.1.timestamp = ${timestamp} is outside the years 1980 to 9998 the metrics cover`,
      );
    }
    // The first local day of 1980 east of UTC starts in 1979 in UTC: still accepted.
    expect(() =>
      parseReadingsBatch([{ timestamp: '1980-01-01T00:00:00+14:00', value: 1 }], 'POWER'),
    ).not.toThrow();
  });

  it('refuses two readings at one instant with 400 naming both indexes', () => {
    const error = failure(() =>
      parseReadingsBatch(
        [
          { timestamp: '2026-06-01T00:00:00Z', value: 1 },
          { timestamp: '2026-06-01T00:01:00Z', value: 1 },
          { timestamp: '2026-06-01T01:00:00.000+01:00', value: 2 },
        ],
        'POWER',
      ),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain("'readings.2.timestamp'");
    expect(error.message).toContain('readings.0.timestamp');
  });

  it('treats times equal to the millisecond as one instant', () => {
    const error = failure(() =>
      parseReadingsBatch(
        [
          { timestamp: '2026-06-01T00:00:00.0001Z', value: 1 },
          { timestamp: '2026-06-01T00:00:00.0009Z', value: 1 },
        ],
        'POWER',
      ),
    );
    expect(error.status).toBe(400);
  });

  it('refuses an impossible value with 422 naming its index, after the timestamps are checked', () => {
    const readings = [
      { timestamp: '2026-06-01T00:00:00Z', value: 5 },
      { timestamp: '2026-06-01T00:01:00Z', value: -1 },
    ];
    const error = failure(() => parseReadingsBatch(readings, 'ENERGY'));
    expect(error.status).toBe(422);
    expect(error.message).toContain('readings.1.value');
    expect(parseReadingsBatch(readings, 'POWER').values).toEqual(new Float64Array([5, -1]));
  });
});
