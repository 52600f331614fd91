import { describe, expect, it } from 'vitest';
import {
  forecastChoice,
  historyChoice,
  summaryChoice,
  tabOf,
  withChanges,
} from '../../../../renderer/src/analytics/query.ts';
import {
  changePercent,
  formatChange,
  totalsOf,
} from '../../../../renderer/src/analytics/summary.ts';

const ROME = 'Europe/Rome';
const NOW = Date.parse('2026-03-29T10:20:00Z'); // 12:20 in Rome (UTC+2)

describe('route query', () => {
  it('reads valid choices and falls back to the latest days in the plant zone', () => {
    expect(
      summaryChoice({ from: '2026-03-01', to: '2026-03-31', compare: 'month' }, ROME, NOW),
    ).toEqual({ range: { start: '2026-03-01', end: '2026-03-31' }, compare: 'month' });
    expect(
      summaryChoice({ from: '2026-02-30', to: '2026-03-31', compare: 'decade' }, ROME, NOW),
    ).toEqual({ range: { start: '2026-02-28', end: '2026-03-29' }, compare: null });
    expect(historyChoice({ granularity: ['minutes', 'days'] }, ROME, NOW)).toEqual({
      range: { start: '2026-03-22T13:00', end: '2026-03-29T13:00' },
      granularity: 'minutes',
      compare: null,
    });
    expect(
      historyChoice({ granularity: 'weeks', start: '2026-03-29T00:00' }, ROME, NOW).granularity,
    ).toBe('hours');
    expect(forecastChoice({ hours: '168', consumerOnly: 'true' })).toEqual({
      hours: 168,
      consumerOnly: true,
    });
    expect(forecastChoice({ hours: '5', consumerOnly: 'yes' })).toEqual({
      hours: 48,
      consumerOnly: false,
    });
    expect(tabOf('history')).toBe('history');
    expect(tabOf(undefined)).toBe('summary');
    expect(tabOf('elsewhere')).toBe('summary');
  });

  it('applies changes and keeps the other tabs’ parameters', () => {
    expect(
      withChanges(
        { from: '2026-03-01', hours: '72', compare: 'week' },
        { compare: null, to: '2026-03-02' },
      ),
    ).toEqual({ from: '2026-03-01', hours: '72', to: '2026-03-02' });
  });
});

describe('totals', () => {
  it('sums and averages the days with data only, without float noise', () => {
    const totals = totalsOf([
      { x: 1, y: 0.1 },
      { x: 2, y: 0.2 },
      { x: 3, y: null },
      { x: 4, y: 0.3 },
    ]);
    expect(totals).toEqual({
      total: 0.6,
      average: 0.2,
      daysWithData: 3,
      days: 4,
      peak: { x: 4, y: 0.3 },
    });
    expect(totalsOf([{ x: 1, y: null }])).toMatchObject({ total: null, average: null, peak: null });
  });

  it('compares with the previous period', () => {
    expect(changePercent(110, 100)).toBeCloseTo(10);
    expect(changePercent(10, 0)).toBeNull();
    expect(changePercent(null, 5)).toBeNull();
    expect(formatChange(12.345)).toBe('+12.3%');
    expect(formatChange(-3)).toBe('−3.0%');
    expect(formatChange(0.01)).toBe('0.0%');
    expect(formatChange(null)).toBe('—');
    // German and Italian: decimal comma, the sign and the minus kept.
    expect(formatChange(12.345, 'de')).toBe('+12,3\u00a0%');
    expect(formatChange(-3, 'it')).toBe('−3,0%');
    expect(formatChange(0.01, 'de')).toBe('0,0\u00a0%');
  });
});
