import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SettingsCipher } from '../../server/features/vendors/settingsCipher.ts';

const PLACE = {
  plantUuid: '0b6a3b0e-5f0e-4f43-9f67-2e8f3f6c1d7a',
  vendorUuid: '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f',
  field: 'apiKey',
};

describe('SettingsCipher', () => {
  const cipher = new SettingsCipher(randomBytes(32));

  const jsonNumber = fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((number) => (Object.is(number, -0) ? 0 : number));

  it('opens what it sealed, for any setting value; each seal is different', () => {
    fc.assert(
      // Setting values come from JSON bodies: no infinities, and -0 is written as 0.
      fc.property(fc.oneof(fc.string(), jsonNumber, fc.boolean()), (value) => {
        const sealed = cipher.seal(value, PLACE);
        expect(SettingsCipher.isSealed(sealed)).toBe(true);
        expect(cipher.open(sealed, PLACE)).toEqual(value);
        expect(cipher.seal(value, PLACE)).not.toBe(sealed);
      }),
    );
  });

  it('does not open for another plant, vendor or field, nor with another key', () => {
    const sealed = cipher.seal('secret', PLACE);
    for (const place of [
      { ...PLACE, plantUuid: PLACE.vendorUuid },
      { ...PLACE, vendorUuid: PLACE.plantUuid },
      { ...PLACE, field: 'password' },
    ]) {
      expect(() => cipher.open(sealed, place)).toThrow();
    }
    expect(() => new SettingsCipher(randomBytes(32)).open(sealed, PLACE)).toThrow();
    expect(() => cipher.open('secret', PLACE)).toThrow('Not a sealed setting');
  });

  it('takes only a 32-byte key', () => {
    expect(() => new SettingsCipher(randomBytes(16))).toThrow('The settings key must be 32 bytes');
  });
});
