import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../server/http/errors.ts';
import { healthRange } from '../../../server/pvHealth/pvHealthRange.ts';

const NOW = new Date('2026-06-10T22:30:00Z'); // 2026-06-11 00:30 in Rome
const date = (text: string) => {
  const [year, month, day] = text.split('-').map(Number);
  return { year: year!, month: month!, day: day! };
};

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('PV health range', () => {
  test('defaults to the last 7 full local days', () => {
    expect(healthRange('Europe/Rome', undefined, undefined, NOW)).toEqual({
      first: date('2026-06-04'),
      last: date('2026-06-10'),
    });
    expect(healthRange('UTC', undefined, undefined, NOW).last).toEqual(date('2026-06-09'));
  });

  test('without startDate, the 7 days ending with endDate', () => {
    expect(healthRange('Europe/Rome', undefined, date('2026-01-03'), NOW)).toEqual({
      first: date('2025-12-28'),
      last: date('2026-01-03'),
    });
  });

  test('inverted and over-long ranges are 422 naming the parameters', () => {
    const inverted = failure(() =>
      healthRange('Europe/Rome', date('2026-06-05'), date('2026-06-01'), NOW),
    );
    expect(inverted.status).toBe(422);
    expect(inverted.message).toBe('startDate 2026-06-05 is after endDate 2026-06-01');
    const defaulted = failure(() => healthRange('Europe/Rome', date('2026-06-12'), undefined, NOW));
    expect(defaulted.message).toBe(
      'startDate 2026-06-12 is after endDate (default yesterday) 2026-06-10',
    );
    const long = failure(() =>
      healthRange('Europe/Rome', date('2025-01-01'), date('2026-01-02'), NOW),
    );
    expect(long.status).toBe(422);
    expect(long.message).toBe(
      'The range from startDate 2025-01-01 to endDate 2026-01-02 spans 367 days; at most 366 days are allowed',
    );
    // 366 days are fine.
    expect(healthRange('Europe/Rome', date('2025-01-01'), date('2026-01-01'), NOW).first).toEqual(
      date('2025-01-01'),
    );
  });
});
