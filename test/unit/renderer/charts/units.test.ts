import { describe, expect, test } from 'vitest';
import {
  NO_DATA,
  decimalsFor,
  formatEnergy,
  formatNumber,
  formatPercent,
  formatPower,
  formatRatio,
  formatValue,
} from '../../../../renderer/src/charts/units.ts';

describe('formatPower', () => {
  test.each([
    [0, '0 W'],
    [4.256, '4.26 W'],
    [42.56, '42.6 W'],
    [850, '850 W'],
    [999.4, '999 W'],
    [999.6, '1.00 kW'],
    [1000, '1.00 kW'],
    [4250, '4.25 kW'],
    [42_500, '42.5 kW'],
    [425_000, '425 kW'],
    [1_200_000, '1.20 MW'],
    [3_400_000_000, '3.40 GW'],
    [-1500, '-1.50 kW'],
    [-0.001, '0.00 W'],
  ])('%s W → %s', (watts, text) => {
    expect(formatPower(watts)).toBe(text);
  });

  test('no data', () => {
    expect(formatPower(null)).toBe(NO_DATA);
    expect(formatPower(undefined)).toBe('—');
    expect(formatPower(Number.NaN)).toBe('—');
  });
});

describe('formatEnergy', () => {
  test.each([
    [0, '0 kWh'],
    [0.4537, '0.45 kWh'],
    [12.345, '12.3 kWh'],
    [123.45, '123 kWh'],
    [1250, '1.25 MWh'],
    [2_500_000, '2.50 GWh'],
  ])('%s kWh → %s', (kWh, text) => {
    expect(formatEnergy(kWh)).toBe(text);
  });
  test('no data', () => expect(formatEnergy(null)).toBe('—'));
});

describe('percentages and other units', () => {
  test('percent of 0..100 and ratio of 0..1', () => {
    expect(formatPercent(42.46)).toBe('42.5%');
    expect(formatPercent(100)).toBe('100.0%');
    expect(formatPercent(7.5, 0)).toBe('8%');
    expect(formatPercent(null)).toBe('—');
    expect(formatRatio(0.425)).toBe('42.5%');
    expect(formatRatio(null)).toBe('—');
  });

  test('formatValue dispatches on the unit', () => {
    expect(formatValue(4250, 'W')).toBe('4.25 kW');
    expect(formatValue(4250, 'kWh')).toBe('4.25 MWh');
    expect(formatValue(55, '%')).toBe('55.0%');
    expect(formatValue(21.456, '°C')).toBe('21.5 °C');
    expect(formatValue(1234.5, '')).toBe('1,235');
    expect(formatValue(null, '°C')).toBe('—');
  });

  test('decimals and grouping', () => {
    expect(decimalsFor(0)).toBe(0);
    expect(decimalsFor(9.99)).toBe(2);
    expect(decimalsFor(-50)).toBe(1);
    expect(formatNumber(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatNumber(-0.0001, 2)).toBe('0.00');
  });
});

describe("in German and Italian: the language's decimal comma and grouping", () => {
  test.each([
    [formatPower(4250, 'de'), '4,25 kW'],
    [formatPower(-0.001, 'de'), '0,00 W'],
    [formatPower(999.6, 'it'), '1,00 kW'],
    [formatEnergy(12.345, 'de'), '12,3 kWh'],
    [formatPercent(42.46, 1, 'de'), '42,5\u00a0%'],
    [formatPercent(42.46, 1, 'it'), '42,5%'],
    [formatRatio(0.425, 1, 'de'), '42,5\u00a0%'],
    [formatValue(1234.5, 'kWh', 'de'), '1,23 MWh'],
    [formatValue(1234.5, '°C', 'de'), '1.235 °C'],
    [formatNumber(3.14159, 2, 'it'), '3,14'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
