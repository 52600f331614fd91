import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentagesOf } from '../../../server/measurements/metrics/percentages.ts';

const hundredths = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + Math.round(value * 100), 0);

describe('percentagesOf', () => {
  it('gives the missing hundredths to the largest remainders', () => {
    expect(percentagesOf([1, 1, 1])).toEqual([33.34, 33.33, 33.33]);
    expect(percentagesOf([0.4, 0.5, 0.3])).toEqual([33.33, 41.67, 25]);
    expect(percentagesOf([1, 0.1, 0.25])).toEqual([74.07, 7.41, 18.52]);
    expect(percentagesOf([5])).toEqual([100]);
  });

  it('answers 0 everywhere when there is nothing to share', () => {
    expect(percentagesOf([])).toEqual([]);
    expect(percentagesOf([0, 0])).toEqual([0, 0]);
    expect(percentagesOf([-1, 0])).toEqual([0, 0]);
  });

  it('counts negative amounts as 0', () => {
    expect(percentagesOf([3, -2, 1])).toEqual([75, 0, 25]);
  });

  it('always adds up to exactly 100.00, each share within a hundredth of the exact one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 30 }),
        (amounts) => {
          const total = amounts.reduce((sum, amount) => sum + amount, 0);
          fc.pre(total > 0);
          const percentages = percentagesOf(amounts);
          expect(hundredths(percentages)).toBe(10_000);
          expect(percentages.reduce((sum, value) => sum + value, 0)).toBeCloseTo(100, 9);
          percentages.forEach((percentage, index) => {
            expect(Math.abs(percentage - (amounts[index]! / total) * 100)).toBeLessThan(
              0.01 + 1e-9,
            );
          });
        },
      ),
    );
  });
});
