import { describe, expect, test } from 'vitest';
import { slotKey, slotOf } from '../../../server/forecasts/localSlots.ts';
import {
  blend,
  fitSeasonalModel,
  seasonalComponents,
  UNCALIBRATED_SCALED_OFFSETS,
} from '../../../server/forecasts/seasonalModel.ts';
import { syntheticHistory, weeklyPattern } from './syntheticLoad.ts';

const FIRST_DAY = 20_000; // 2024-10-04
const WEEKS = 10;
const HISTORY_DAYS = WEEKS * 7;
const FORECAST_DAYS = 14;

describe('local hour slots', () => {
  test('a week is 168 slots across a DST change (Europe/Rome, 2026-03-29)', () => {
    const before = slotOf('Europe/Rome', Date.parse('2026-03-22T03:00:00+01:00'));
    const after = slotOf('Europe/Rome', Date.parse('2026-03-29T03:00:00+02:00'));
    expect(after - before).toBe(168);
    expect(after % 24).toBe(3);
  });

  test('hours start at :45 UTC in Asia/Kathmandu (+05:45)', () => {
    const slot = slotOf('Asia/Kathmandu', Date.parse('2026-06-01T04:15:00Z')); // 10:00 local
    expect(slot % 24).toBe(10);
    expect(slotOf('Asia/Kathmandu', Date.parse('2026-06-01T05:14:59Z'))).toBe(slot);
  });
});

describe('weekly-seasonal model', () => {
  test('recovers a noiseless weekly pattern exactly, weighting the weekly profile fully', () => {
    const history = syntheticHistory(FIRST_DAY, HISTORY_DAYS, 0);
    const model = fitSeasonalModel(history);
    expect(model.alpha).toBe(1);
    expect(model.backtestMae).toBeCloseTo(0, 12);
    for (let day = FIRST_DAY + HISTORY_DAYS; day < FIRST_DAY + HISTORY_DAYS + 7; day++) {
      for (let hour = 0; hour < 24; hour++) {
        expect(model.forecast(slotKey(day, hour))!.value).toBeCloseTo(weeklyPattern(day, hour), 9);
      }
    }
  });

  test('recovers the pattern under 25 % noise, beats persistence, and its 80 % intervals hold ~80 %', () => {
    const all = syntheticHistory(FIRST_DAY, HISTORY_DAYS + FORECAST_DAYS, 0.25, 7);
    const history = new Map(
      [...all].filter(([slot]) => slot < slotKey(FIRST_DAY + HISTORY_DAYS, 0)),
    );
    const model = fitSeasonalModel(history);
    expect(model.calibrated).toBe(true);
    expect(model.evaluatedHours).toBe(14 * 24);

    let patternError = 0;
    let modelError = 0;
    let persistenceError = 0;
    let inside = 0;
    let count = 0;
    for (
      let day = FIRST_DAY + HISTORY_DAYS;
      day < FIRST_DAY + HISTORY_DAYS + FORECAST_DAYS;
      day++
    ) {
      for (let hour = 0; hour < 24; hour++) {
        const slot = slotKey(day, hour);
        const point = model.forecast(slot)!;
        const actual = all.get(slot)!;
        patternError += Math.abs(point.value - weeklyPattern(day, hour)) / weeklyPattern(day, hour);
        modelError += Math.abs(actual - point.value);
        persistenceError += Math.abs(actual - all.get(slot - 24)!);
        if (actual >= point.lower && actual <= point.upper) inside += 1;
        expect(point.lower).toBeLessThanOrEqual(point.value);
        expect(point.upper).toBeGreaterThanOrEqual(point.value);
        expect(point.lower).toBeGreaterThanOrEqual(0);
        count += 1;
      }
    }
    // The weighted mean of 8 weekly lags has ~10 % relative noise; the daily blend lowers it.
    expect(patternError / count).toBeLessThan(0.12);
    expect(1 - modelError / persistenceError).toBeGreaterThan(0.2);
    expect(inside / count).toBeGreaterThan(0.72);
    expect(inside / count).toBeLessThan(0.88);
  });

  test('without a weekly pattern the daily profile takes over', () => {
    // Every day alike, level rising 2 % a day: recent days say more than the same weekday weeks ago.
    const history = new Map<number, number>();
    for (let day = 0; day < 42; day++) {
      for (let hour = 0; hour < 24; hour++)
        history.set(slotKey(day, hour), (1 + 0.02 * day) * (1 + hour / 24));
    }
    expect(fitSeasonalModel(history).alpha).toBe(0);
  });

  test('lags at or after the origin are skipped, so a forecast days ahead still averages past days', () => {
    const history = new Map<number, number>([
      [slotKey(10, 5), 3],
      [slotKey(9, 5), 1],
      [slotKey(4, 5), 5],
      [slotKey(3, 5), 7],
    ]);
    // From an origin at the start of day 10, day 11 05:00 cannot use day 10.
    const components = seasonalComponents(history, slotKey(11, 5), slotKey(10, 0));
    expect(components.weekly).toBe(5);
    // Days 9, 4 and 3 with weights 1, 0.85, 0.85².
    expect(components.daily).toBeCloseTo(
      (1 + 0.85 * 5 + 0.85 ** 2 * 7) / (1 + 0.85 + 0.85 ** 2),
      12,
    );
    expect(blend(components, 0.3)).toBeCloseTo(0.3 * 5 + 0.7 * components.daily!, 12);
    expect(blend({ weekly: null, daily: 2 }, 0.3)).toBe(2);
    expect(blend({ weekly: null, daily: null }, 0.3)).toBeNull();
  });

  test('a history too short to backtest gets the wide uncalibrated interval', () => {
    const history = syntheticHistory(FIRST_DAY, 5, 0.1);
    const model = fitSeasonalModel(history);
    expect(model.calibrated).toBe(false);
    expect(model.scaledOffsets).toEqual(UNCALIBRATED_SCALED_OFFSETS);
    const point = model.forecast(slotKey(FIRST_DAY + 5, 19))!;
    expect(point.lower).toBeLessThan(point.value);
    expect(point.upper).toBeGreaterThan(point.value);
    expect(fitSeasonalModel(new Map()).forecast(slotKey(FIRST_DAY, 0))).toBeNull();
  });
});
