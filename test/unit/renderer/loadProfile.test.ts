import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  editHourPercent,
  flatProfile,
  HOUR_LABELS,
  normalize,
  profileSum,
  roundProfile,
  setHour,
} from '../../../renderer/src/composables/loadProfile.ts';
import { hourlyProfileSumsToOne, LoadSignatureCreateDto } from '../../../api/schemas/catalogs.ts';

const weight = fc.oneof(
  fc.constant(0),
  fc.double({ min: 0, max: 1000, noNaN: true, noDefaultInfinity: true }),
);
const weights = fc.array(weight, { minLength: 24, maxLength: 24 });
const profile = weights.map(normalize);
const hour = fc.integer({ min: 0, max: 23 });
const share = fc.double({ min: 0, max: 1, noNaN: true });

const sumsToOne = (values: readonly number[]) => Math.abs(profileSum(values) - 1) <= 1e-9;
const noNegatives = (values: readonly number[]) => values.every((value) => value >= 0);

describe('normalize', () => {
  test('scales weights to shares summing to 1', () => {
    const result = normalize([1, 3, ...new Array(22).fill(0)]);
    expect(result[0]).toBeCloseTo(0.25, 12);
    expect(result[1]).toBeCloseTo(0.75, 12);
    expect(result).toHaveLength(24);
  });

  test('nothing to scale gives the flat profile; junk counts as zero', () => {
    expect(normalize(new Array(24).fill(0))).toEqual(flatProfile());
    expect(normalize([])).toEqual(flatProfile());
    const result = normalize([-5, Number.NaN, 'x', 2, ...new Array(20).fill(0)]);
    expect(result[3]).toBe(1);
    expect(result.filter((value) => value !== 0)).toHaveLength(1);
  });

  test('property: any weights give 24 non-negative shares summing to 1', () => {
    fc.assert(
      fc.property(fc.array(weight, { maxLength: 30 }), (input) => {
        const result = normalize(input);
        return result.length === 24 && sumsToOne(result) && noNegatives(result);
      }),
    );
  });
});

describe('setHour', () => {
  test('rescales the other hours proportionally', () => {
    const start = normalize([2, 1, 1, ...new Array(21).fill(0)]);
    const result = setHour(start, 0, 0.2);
    expect(result[0]).toBe(0.2);
    expect(result[1]).toBeCloseTo(0.4, 12);
    expect(result[2]).toBeCloseTo(0.4, 12);
    expect(sumsToOne(result)).toBe(true);
  });

  test('spreads the rest evenly when the other hours hold nothing', () => {
    const start = normalize([1, ...new Array(23).fill(0)]);
    const result = setHour(start, 0, 0.54);
    expect(result[0]).toBe(0.54);
    for (const value of result.slice(1)) expect(value).toBeCloseTo(0.46 / 23, 12);
  });

  test('clamps to 0..1; 1 leaves nothing to the others', () => {
    expect(setHour(flatProfile(), 5, 3)).toEqual(
      Array.from({ length: 24 }, (_, index) => (index === 5 ? 1 : 0)),
    );
    expect(setHour(flatProfile(), 5, -1)[5]).toBe(0);
    expect(() => setHour(flatProfile(), 24, 0.1)).toThrow(RangeError);
  });

  test('property: the sum stays 1 within 1e-9, no negatives, the edited hour keeps its value', () => {
    fc.assert(
      fc.property(profile, hour, share, (start, edited, value) => {
        const result = setHour(start, edited, value);
        return sumsToOne(result) && noNegatives(result) && result[edited] === value;
      }),
    );
  });

  test('property: the other hours keep their proportions', () => {
    fc.assert(
      fc.property(profile, hour, fc.double({ min: 0, max: 0.99, noNaN: true }), (start, h, v) => {
        const result = setHour(start, h, v);
        const others = start.filter((_, index) => index !== h);
        const othersSum = others.reduce((a, b) => a + b, 0);
        if (othersSum < 1e-9) return true;
        return start.every(
          (value, index) =>
            index === h || Math.abs(result[index]! - (value / othersSum) * (1 - v)) <= 1e-9,
        );
      }),
    );
  });
});

describe('roundProfile', () => {
  test('the rounded shares sum to exactly 1 in units of the last place', () => {
    const result = roundProfile(flatProfile(), 4);
    const units = result.map((value) => Math.round(value * 10_000));
    expect(units.reduce((a, b) => a + b, 0)).toBe(10_000);
    // 10000 / 24 = 416.67: sixteen hours get 417, eight get 416, earlier hours first.
    expect(units.filter((value) => value === 417)).toHaveLength(16);
    expect(units.slice(0, 16).every((value) => value === 417)).toBe(true);
  });

  test('the kept hour does not move', () => {
    const start = setHour(flatProfile(), 7, 0.1234);
    const result = roundProfile(start, 4, 7);
    expect(result[7]).toBe(0.1234);
  });

  test('property: exact unit sum, no negatives, each share within one unit, kept hour fixed', () => {
    fc.assert(
      fc.property(
        profile,
        fc.integer({ min: 0, max: 8 }),
        fc.option(hour, { nil: undefined }),
        (start, decimals, keep) => {
          const units = 10 ** decimals;
          const result = roundProfile(start, decimals, keep);
          const counts = result.map((value) => Math.round(value * units));
          const exact = counts.reduce((a, b) => a + b, 0) === units;
          const onGrid = result.every((value, i) => Math.abs(value * units - counts[i]!) < 1e-6);
          const keptFixed =
            keep === undefined ||
            counts[keep] === Math.min(units, Math.round(start[keep]! * units));
          return exact && onGrid && sumsToOne(result) && noNegatives(result) && keptFixed;
        },
      ),
    );
  });
});

describe('editHourPercent (the editor step)', () => {
  test('property: the typed hour shows what was typed and the whole stays 100 %', () => {
    fc.assert(
      fc.property(profile, hour, fc.integer({ min: 0, max: 10_000 }), (start, h, hundredths) => {
        const percent = hundredths / 100;
        const result = editHourPercent(start, h, percent);
        const cents = result.map((value) => Math.round(value * 10_000));
        return (
          cents.reduce((a, b) => a + b, 0) === 10_000 &&
          cents[h] === hundredths &&
          noNegatives(result) &&
          sumsToOne(result)
        );
      }),
    );
  });

  test('the result is a valid contract profile', () => {
    fc.assert(
      fc.property(profile, hour, fc.integer({ min: 0, max: 10_000 }), (start, h, hundredths) => {
        const hourlyProfile = editHourPercent(start, h, hundredths / 100);
        return (
          hourlyProfileSumsToOne(hourlyProfile) &&
          LoadSignatureCreateDto.safeParse({ code: 'X', hourlyProfile }).success
        );
      }),
      { numRuns: 200 },
    );
  });
});

test('hour labels run from 00:00 to 23:00', () => {
  expect(HOUR_LABELS).toHaveLength(24);
  expect(HOUR_LABELS[0]).toBe('00:00');
  expect(HOUR_LABELS[23]).toBe('23:00');
});
