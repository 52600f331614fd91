import { describe, expect, it } from 'vitest';
import {
  asMountedRight,
  signInversionRefusal,
} from '../../../server/measurements/signInversion.ts';

describe('sign inversion', () => {
  it('applies to power and current only, naming the field and the data type otherwise', () => {
    expect(signInversionRefusal('POWER')).toBeUndefined();
    expect(signInversionRefusal('CURRENT')).toBeUndefined();
    for (const dataType of ['ENERGY', 'STATE_OF_CHARGE', 'TEMPERATURE', 'VOLTAGE'] as const) {
      const refusal = signInversionRefusal(dataType);
      expect(refusal).toMatch(/^signInverted: /);
      expect(refusal).toContain(dataType);
    }
    expect(signInversionRefusal(undefined)).toContain('no data type');
  });

  it('negates the values of an inverted sensor, a zero staying +0, and leaves the rest alone', () => {
    const batch = { takenAt: [1, 2, 3, 4], values: [1500, -250.5, 0, -0] };
    expect(asMountedRight(batch, false)).toBe(batch);
    const turned = asMountedRight(batch, true);
    expect(turned.takenAt).toBe(batch.takenAt);
    expect([...turned.values]).toEqual([-1500, 250.5, 0, 0]);
    expect(turned.values.every((value) => !Object.is(value, -0))).toBe(true);
    expect(batch.values).toEqual([1500, -250.5, 0, -0]);
  });
});
