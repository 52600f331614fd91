import { describe, expect, it } from 'vitest';
import {
  MAX_READING_MAGNITUDE,
  primaryDataType,
  readingKindOf,
  valueProblem,
} from '../../../server/measurements/readingKinds.ts';

describe('primaryDataType', () => {
  it('prefers POWER, then ENERGY, then the first data type by code', () => {
    expect(primaryDataType(['VOLTAGE', 'ENERGY', 'POWER'])).toBe('POWER');
    expect(primaryDataType(['VOLTAGE', 'ENERGY', 'CURRENT'])).toBe('ENERGY');
    expect(primaryDataType(['TEMPERATURE', 'IRRADIANCE'])).toBe('IRRADIANCE');
    expect(primaryDataType(['VOLTAGE', 'STATE_OF_CHARGE', 'CURRENT'])).toBe('CURRENT');
    expect(primaryDataType([])).toBe(undefined);
  });
});

describe('readingKindOf', () => {
  it('integrates POWER, differences ENERGY and averages the rest', () => {
    expect(readingKindOf('POWER')).toBe('power');
    expect(readingKindOf('ENERGY')).toBe('counter');
    for (const code of [
      'TEMPERATURE',
      'STATE_OF_CHARGE',
      'IRRADIANCE',
      'VOLTAGE',
      'CURRENT',
    ] as const) {
      expect(readingKindOf(code)).toBe('level');
    }
  });
});

describe('valueProblem', () => {
  it('refuses only what physics excludes', () => {
    expect(valueProblem('ENERGY', -0.001)).toMatch(/ENERGY counter/);
    expect(valueProblem('ENERGY', 0)).toBe(undefined);
    expect(valueProblem('STATE_OF_CHARGE', 100.01)).toMatch(/0 and 100/);
    expect(valueProblem('STATE_OF_CHARGE', -0.01)).toMatch(/0 and 100/);
    expect(valueProblem('STATE_OF_CHARGE', 100)).toBe(undefined);
    expect(valueProblem('TEMPERATURE', -273.16)).toMatch(/absolute zero/);
    expect(valueProblem('TEMPERATURE', -273.15)).toBe(undefined);
    // Signed by convention (grid export, battery charge) or by instrument offset (night irradiance).
    expect(valueProblem('POWER', -5000)).toBe(undefined);
    expect(valueProblem('IRRADIANCE', -2)).toBe(undefined);
    expect(valueProblem('CURRENT', -16)).toBe(undefined);
  });

  it('refuses non-finite values and magnitudes beyond the limit, for every type', () => {
    expect(valueProblem('POWER', Number.NaN)).toMatch(/finite/);
    expect(valueProblem('VOLTAGE', Infinity)).toMatch(/finite/);
    expect(valueProblem('POWER', -MAX_READING_MAGNITUDE * 1.5)).toMatch(/magnitude/);
    expect(valueProblem('POWER', MAX_READING_MAGNITUDE)).toBe(undefined);
  });
});
