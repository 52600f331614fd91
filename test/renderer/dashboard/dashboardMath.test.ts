import { DateTime } from 'luxon';
import { describe, expect, test } from 'vitest';
import {
  currentPowerWindow,
  gridImportOf,
  latestSample,
  pointOfDay,
  selfShares,
  startOfLocalDay,
} from '../../../renderer/src/components/dashboard/dashboardMath.ts';
import { breakdown, daily, hourly, minutes, NOW, TODAY, ZONE } from './fixtures.ts';

describe('selfShares: self-consumption and self-sufficiency from P, C and grid import', () => {
  test('reference values: U = C − I; sufficiency U / C, consumption U / P', () => {
    // C 12, I 3 → U 9: 9 / 12 of consumption was own energy, 9 / 20 of production used on site.
    expect(selfShares({ productionKwh: 20, consumptionKwh: 12, gridImportKwh: 3 })).toEqual({
      ownUseKwh: 9,
      selfSufficiencyPercent: 75,
      selfConsumptionPercent: 45,
    });
  });

  test('everything consumed came from the grid: both 0 %', () => {
    expect(selfShares({ productionKwh: 5, consumptionKwh: 10, gridImportKwh: 10 })).toEqual({
      ownUseKwh: 0,
      selfSufficiencyPercent: 0,
      selfConsumptionPercent: 0,
    });
  });

  test('meters that disagree (import above consumption) never give a negative share', () => {
    const shares = selfShares({ productionKwh: 5, consumptionKwh: 10, gridImportKwh: 10.4 });
    expect(shares.ownUseKwh).toBe(0);
    expect(shares.selfSufficiencyPercent).toBe(0);
  });

  test('a battery discharging earlier PV (U above P) caps self-consumption at 100 %', () => {
    const shares = selfShares({ productionKwh: 2, consumptionKwh: 10, gridImportKwh: 1 });
    expect(shares.ownUseKwh).toBe(9);
    expect(shares.selfConsumptionPercent).toBe(100);
    expect(shares.selfSufficiencyPercent).toBe(90);
  });

  test('no production yet: self-consumption unknown, self-sufficiency still defined', () => {
    const shares = selfShares({ productionKwh: 0, consumptionKwh: 4, gridImportKwh: 4 });
    expect(shares.selfConsumptionPercent).toBeNull();
    expect(shares.selfSufficiencyPercent).toBe(0);
  });

  test('no consumption, no data, or no grid meter: null, never 0', () => {
    expect(selfShares({ productionKwh: 3, consumptionKwh: 0, gridImportKwh: 0 })).toMatchObject({
      selfSufficiencyPercent: null,
      selfConsumptionPercent: 0,
    });
    expect(selfShares({ productionKwh: null, consumptionKwh: null, gridImportKwh: 1 })).toEqual({
      ownUseKwh: null,
      selfSufficiencyPercent: null,
      selfConsumptionPercent: null,
    });
    expect(selfShares({ productionKwh: 20, consumptionKwh: 12, gridImportKwh: null })).toEqual({
      ownUseKwh: null,
      selfSufficiencyPercent: null,
      selfConsumptionPercent: null,
    });
  });
});

describe('gridImportOf', () => {
  test('the sources named "Grid import", summed (several grid meters)', () => {
    expect(gridImportOf(breakdown(3))).toBe(3);
    const two = breakdown(3);
    two.sources.push({ ...two.sources[1]!, energyKwh: 1.5 });
    expect(gridImportOf(two)).toBe(4.5);
  });

  test('null when the plant has no grid meter', () => {
    expect(gridImportOf(breakdown(null))).toBeNull();
  });
});

describe('pointOfDay', () => {
  test('finds the local day, including the 23-hour day the clocks go forward', () => {
    const series = daily([1, 2, 3, 4, 5, 6, 7]);
    expect(pointOfDay(series, TODAY)?.value).toBe(7);
    expect(pointOfDay(series, '2026-03-23')?.value).toBe(1);
    expect(pointOfDay(series, '2026-03-30')).toBeNull();
  });

  test('a day whose midnight is +05:45 (Asia/Kathmandu) is still that day', () => {
    const series = {
      timezone: 'Asia/Kathmandu',
      points: [{ timestamp: '2026-03-29T00:00:00+05:45', value: 4, coverage: 1 }],
    };
    expect(pointOfDay(series, '2026-03-29')?.value).toBe(4);
    expect(pointOfDay(series, '2026-03-28')).toBeNull();
  });
});

describe('latestSample', () => {
  test('the last point with a value; null values are skipped, never read as 0', () => {
    const series = minutes([400, 410, 420, null]);
    const sample = latestSample(series)!;
    expect(sample.y).toBe(420);
    expect(DateTime.fromMillis(sample.x, { zone: ZONE }).toFormat('HH:mm')).toBe('12:29');
    expect(sample.timestamp).toBe('2026-03-29T12:29:00+02:00');
  });

  test('null when nothing has a value', () => {
    expect(latestSample(minutes([null, null]))).toBeNull();
    expect(latestSample({ points: [] })).toBeNull();
  });

  test('hourly series across the DST gap keep their instants', () => {
    const series = hourly((index) => index);
    const stamps = series.points.map((point) => point.timestamp);
    expect(stamps).toContain('2026-03-29T01:00:00+01:00');
    expect(stamps).toContain('2026-03-29T03:00:00+02:00');
    expect(stamps.some((stamp) => stamp.startsWith('2026-03-29T02:'))).toBe(false);
    expect(latestSample(series)!.timestamp).toBe('2026-03-29T12:00:00+02:00');
  });
});

describe('local times for the routes', () => {
  test('start of the local day on a 23-hour day', () => {
    expect(new Date(startOfLocalDay(NOW, ZONE)).toISOString()).toBe('2026-03-28T23:00:00.000Z');
  });

  test('the current power window: the last 15 minutes and the current one, local', () => {
    expect(currentPowerWindow(NOW, ZONE)).toEqual({
      startDate: '2026-03-29T12:15',
      endDate: '2026-03-29T12:31',
    });
  });

  test('+05:30: local minutes in the plant’s zone, not the machine’s', () => {
    const at = Date.parse('2026-01-10T10:00:30Z');
    expect(currentPowerWindow(at, 'Asia/Kolkata')).toEqual({
      startDate: '2026-01-10T15:15',
      endDate: '2026-01-10T15:31',
    });
  });

  test('just after the clocks go back, the start never reads later than the end', () => {
    // 2026-10-25 02:05 +01:00 (the second 02:05): 15 minutes earlier is 02:50 +02:00.
    const at = DateTime.fromISO('2026-10-25T02:05:00+01:00').toMillis();
    const window = currentPowerWindow(at, ZONE);
    expect(window.endDate).toBe('2026-10-25T02:06');
    expect(window.startDate <= window.endDate).toBe(true);
    expect(window.startDate).toBe('2026-10-25T02:00');
  });
});
