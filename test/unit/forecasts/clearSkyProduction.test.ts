import { describe, expect, test } from 'vitest';
import { createPvModel } from '../../../server/domain/index.ts';
import {
  clearSkyHours,
  clearSkyRatioBand,
  indexAhead,
  indexOutlook,
  productionPoint,
  recentClearSkyIndex,
  type MeasuredHour,
} from '../../../server/forecasts/clearSkyProduction.ts';
import { hoursOfLocalDay } from '../../../server/forecasts/forecastHours.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-06-10T12:00:00Z');

const hour = (hoursAgo: number, clearSkyKwh: number, measuredKwh: number | null): MeasuredHour => ({
  start: NOW - hoursAgo * HOUR,
  end: NOW - (hoursAgo - 1) * HOUR,
  clearSkyKwh,
  sunElevationDeg: 40,
  measuredKwh,
});

describe('clear-sky energy per hour', () => {
  const model = createPvModel({
    latitudeDeg: 46.5,
    longitudeDeg: 11.35,
    pv: { peakPowerKw: 5, tiltDeg: 30, azimuthDeg: 180, lossesPercent: 14 },
  });
  const hours = clearSkyHours(
    model,
    hoursOfLocalDay('Europe/Rome', { year: 2026, month: 6, day: 21 }),
  );

  test('is zero at night and peaks near solar noon, within the array rating', () => {
    expect(hours).toHaveLength(24);
    expect(hours[0]!.clearSkyKwh).toBe(0);
    expect(hours[23]!.clearSkyKwh).toBe(0);
    const peak = hours.reduce(
      (best, one, index) => (one.clearSkyKwh > hours[best]!.clearSkyKwh ? index : best),
      0,
    );
    expect(peak).toBeGreaterThanOrEqual(12); // solar noon at 46.5°N 11.35°E is ~13:20 CEST
    expect(peak).toBeLessThanOrEqual(13);
    expect(hours[peak]!.clearSkyKwh).toBeGreaterThan(3.5);
    expect(hours[peak]!.clearSkyKwh).toBeLessThan(5 * 0.86);
    const daily = hours.reduce((sum, one) => sum + one.clearSkyKwh, 0);
    // A clear June day gives 6–8 kWh per kWp on a 30° south-facing array at 46.5°N.
    expect(daily / 5).toBeGreaterThan(6);
    expect(daily / 5).toBeLessThan(8.5);
  });
});

describe('recent clear-sky index', () => {
  test('weighs hours by 2^(−age / half-life)', () => {
    // One hour 36 h old (weight 1/2) at ratio 1, one just now (weight ~1) at ratio 0.5.
    const history = [hour(36.5, 2, 2), hour(0.5, 2, 1)];
    const expected = (0.5 * 2 + 1) / (0.5 * 2 + 2);
    expect(recentClearSkyIndex(history, NOW, 36)).toBeCloseTo(expected, 12);
  });

  test('ignores hours without data and answers null with none left', () => {
    expect(recentClearSkyIndex([hour(1.5, 2, null), hour(0.5, 2, 1.5)], NOW, 3)).toBeCloseTo(
      0.75,
      12,
    );
    expect(recentClearSkyIndex([hour(0.5, 2, null)], NOW, 3)).toBeNull();
  });

  test('relaxes from the recent index to the week’s with a 48-hour time constant', () => {
    // A clear week (ratio 1) ending in three overcast hours (ratio 0.2).
    const history = Array.from({ length: 7 * 24 }, (_, index) =>
      hour(7 * 24 - index, 2, index >= 7 * 24 - 3 ? 0.4 : 2),
    );
    const outlook = indexOutlook(history, NOW)!;
    // Half-life 3 h: weight 2^(−age / 3) for the hour whose middle is `age` hours ago.
    let measured = 0;
    let clearSky = 0;
    history.forEach((one, index) => {
      const weight = 2 ** (-(7 * 24 - index - 0.5) / 3);
      measured += weight * one.measuredKwh!;
      clearSky += weight * 2;
    });
    expect(outlook.recent).toBeCloseTo(measured / clearSky, 12);
    expect(outlook.recent).toBeLessThan(0.61); // the last hours count as much as all the rest
    expect(outlook.week).toBeCloseTo((165 * 2 + 3 * 0.4) / (168 * 2), 12);
    expect(indexAhead(outlook, 0)).toBeCloseTo(outlook.recent, 12);
    expect(indexAhead(outlook, 48)).toBeCloseTo(
      outlook.week + (outlook.recent - outlook.week) * Math.exp(-1),
      12,
    );
    expect(indexAhead(outlook, 1000)).toBeCloseTo(outlook.week, 6);
    expect(indexOutlook([hour(1, 2, null)], NOW)).toBeNull();
  });
});

describe('hourly ratio band', () => {
  test('is the 10th and 90th percentiles of measured / clear-sky with the sun up', () => {
    const history = Array.from({ length: 11 }, (_, index) => hour(index + 1, 1, index / 10));
    history.push({ ...hour(20, 1, 5), sunElevationDeg: 5 }); // low sun: ignored
    expect(clearSkyRatioBand(history, 0.8, 11)).toEqual({
      low: expect.closeTo(0.1, 12),
      high: expect.closeTo(0.9, 12),
    });
    expect(clearSkyRatioBand(history, 0.8, 12)).toBeNull();
  });
});

describe('production point', () => {
  test('scales clear sky by the index, bounded by the band, 0 and clear sky', () => {
    expect(productionPoint(4, 0.7, { low: 0.2, high: 1.1 })).toEqual({
      value: expect.closeTo(2.8, 12),
      lower: expect.closeTo(0.8, 12),
      upper: 4,
    });
    expect(productionPoint(0, 0.7, { low: 0.2, high: 0.9 })).toEqual({
      value: 0,
      lower: 0,
      upper: 0,
    });
  });

  test('always contains the forecast, even when the index is outside the band', () => {
    expect(productionPoint(2, 0.9, { low: 0.1, high: 0.5 })).toEqual({
      value: expect.closeTo(1.8, 12),
      lower: expect.closeTo(0.2, 12),
      upper: expect.closeTo(1.8, 12),
    });
    // An index above 1 (the plant beats the model): the bound follows it, no further.
    expect(productionPoint(2, 1.1, { low: 0.3, high: 1.5 }).upper).toBeCloseTo(2.2, 12);
    expect(productionPoint(2, 0.5, { low: -0.2, high: 0.8 }).lower).toBe(0);
  });
});
