import { describe, expect, test } from 'vitest';
import { slotKey } from '../../../server/forecasts/localSlots.ts';
import { UNCALIBRATED_SCALED_OFFSETS } from '../../../server/forecasts/seasonalModel.ts';
import {
  signatureEnergyKwh,
  signatureModel,
  type LoadProfile,
} from '../../../server/forecasts/signatureModel.ts';
import { seededNormal } from './syntheticLoad.ts';

const flat: LoadProfile = {
  code: 'FLAT',
  hourlyProfile: Array(24).fill(1 / 24),
  typicalDailyKwh: 12,
};
const evening: LoadProfile = {
  code: 'EVENING',
  hourlyProfile: Array.from({ length: 24 }, (_, hour) => (hour >= 18 && hour < 22 ? 0.25 : 0)),
  typicalDailyKwh: 8,
};

describe('load signature forecast', () => {
  test('is Σ share(hour) × typical daily kWh', () => {
    expect(signatureEnergyKwh([flat, evening], 3)).toBeCloseTo(0.5, 12);
    expect(signatureEnergyKwh([flat, evening], 19)).toBeCloseTo(2.5, 12);
    const model = signatureModel([flat, evening]);
    expect(model.forecast(slotKey(20_000, 19)).value).toBeCloseTo(2.5, 12);
  });

  test('without history the interval is the wide uncalibrated one', () => {
    const model = signatureModel([flat]);
    expect(model.calibrated).toBe(false);
    const floor = 0.1 * 0.5; // 10 % of the mean hourly level
    const scale = 0.5 + floor;
    expect(model.forecast(slotKey(1, 4))).toEqual({
      value: expect.closeTo(0.5, 12),
      lower: expect.closeTo(0.5 + UNCALIBRATED_SCALED_OFFSETS.lowerOffset * scale, 12),
      upper: expect.closeTo(0.5 + UNCALIBRATED_SCALED_OFFSETS.upperOffset * scale, 12),
    });
  });

  test('with two days of history the interval comes from the signature’s own errors', () => {
    const normal = seededNormal(3);
    const history = new Map<number, number>();
    for (let hour = 0; hour < 72; hour++)
      history.set(slotKey(100, 0) + hour, 0.5 * (1 + 0.1 * normal()));
    const model = signatureModel([flat], history);
    expect(model.calibrated).toBe(true);
    const point = model.forecast(slotKey(103, 12));
    // ±10 % noise: the interval is about ±12 % of the scale, far narrower than uncalibrated.
    expect(point.upper - point.lower).toBeLessThan(0.25);
    expect(point.upper - point.lower).toBeGreaterThan(0.05);
  });
});
