import { describe, expect, test } from 'vitest';
import {
  predictionInterval,
  quantile,
  quantileSorted,
  residualIntervalOffsets,
} from '../../../server/domain/index.ts';

describe('quantiles (linear interpolation, Hyndman–Fan type 7)', () => {
  test('match NumPy/R defaults', () => {
    // numpy.percentile([1, 2, 3, 4], [10, 50, 90]) = [1.3, 2.5, 3.7]
    expect(quantileSorted([1, 2, 3, 4], 0.1)).toBeCloseTo(1.3, 12);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBeCloseTo(2.5, 12);
    expect(quantileSorted([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    // numpy.quantile(range(1, 11), [0.1, 0.9]) = [1.9, 9.1]
    const oneToTen = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(quantile(oneToTen.reverse(), 0.1)).toBeCloseTo(1.9, 12);
    expect(quantile(oneToTen, 0.9)).toBeCloseTo(9.1, 12);
  });

  test('handle the edges: extremes, a single value, nothing, non-finite values', () => {
    expect(quantile([5, -2, 9], 0)).toBe(-2);
    expect(quantile([5, -2, 9], 1)).toBe(9);
    expect(quantile([7], 0.1)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
    expect(quantile([Number.NaN, 1, Number.POSITIVE_INFINITY, 3], 0.5)).toBe(2);
  });
});

describe('80 % prediction intervals', () => {
  test('offsets are the 10th and 90th percentiles of the residuals', () => {
    const residuals = Array.from({ length: 101 }, (_, i) => i - 50); // −50..50
    expect(residualIntervalOffsets(residuals)).toEqual({ lowerOffset: -40, upperOffset: 40 });
    expect(residualIntervalOffsets(residuals, 0.5)).toEqual({ lowerOffset: -25, upperOffset: 25 });
    expect(residualIntervalOffsets([])).toBeNull();
  });

  test('bounds the forecast, always contain it, and never go below the floor', () => {
    expect(predictionInterval(10, { lowerOffset: -3, upperOffset: 4 })).toEqual({
      lower: 7,
      upper: 14,
    });
    // Biased residuals (all positive): the interval still contains the forecast.
    expect(predictionInterval(10, { lowerOffset: 1, upperOffset: 4 })).toEqual({
      lower: 10,
      upper: 14,
    });
    expect(predictionInterval(1, { lowerOffset: -3, upperOffset: 2 })).toEqual({
      lower: 0,
      upper: 3,
    });
    expect(predictionInterval(-5, { lowerOffset: -1, upperOffset: 1 }, -10)).toEqual({
      lower: -6,
      upper: -4,
    });
  });
});
