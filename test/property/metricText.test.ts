import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundMetric } from '../../server/measurements/metrics/flowMeasures.ts';
import { metricText } from '../../server/measurements/metrics/metricText.ts';

/**
 * A metric's number text (`metricText.ts`) is `String`'s, for the values metrics send (rounded
 * to six decimals, of any size and sign) and for any other double, which it hands to `String`.
 */

const EDGES = [
  0,
  -0,
  1,
  -1,
  0.000001,
  -0.000001,
  0.1,
  0.5,
  12.05,
  999_999.999999,
  1e9 + 0.000001,
  123_456_789.123456,
  999_999_999.999999,
  1e15,
  1e21,
  5e-7,
  Number.MAX_SAFE_INTEGER / 1e6,
];

describe('metric number text', () => {
  it('is String’s for values rounded to six decimals', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (raw) => {
        const value = roundMetric(raw);
        expect(metricText(value)).toBe(String(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('is String’s for millionths of any integer and for any double', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.maxSafeInteger().map((k) => k / 1e6),
          fc.double(),
        ),
        (value) => {
          expect(metricText(value)).toBe(String(value));
        },
      ),
      { numRuns: 20_000 },
    );
    for (const value of EDGES) expect(metricText(value)).toBe(String(value));
  });
});
