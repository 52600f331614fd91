import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, formatNumber, parseDecimal } from '../../../i18n/format.ts';
import { APP_LOCALES } from '../../../i18n/locales.ts';

const locale = fc.constantFrom(...APP_LOCALES);
/** -0 and 0 are the same value typed: "-0" reads as either. */
const unsigned = (read: unknown) => (typeof read === 'number' ? read + 0 : read);

describe('parseDecimal', () => {
  it('reads the language’s decimal separator', () => {
    expect(parseDecimal('de', '46,5')).toBe(46.5);
    expect(parseDecimal('it', '-0,25')).toBe(-0.25);
    expect(parseDecimal('en', '46.5')).toBe(46.5);
    expect(parseDecimal('de', '1,234')).toBe(1.234);
    expect(parseDecimal('en', '1.234')).toBe(1.234);
  });

  it('reads the other separator as decimal when it cannot be grouping (a pasted coordinate)', () => {
    expect(parseDecimal('de', '46.4983')).toBe(46.4983);
    expect(parseDecimal('it', '11.35')).toBe(11.35);
    expect(parseDecimal('en', '46,5')).toBe(46.5);
    expect(parseDecimal('de', '0.123')).toBe(0.123);
  });

  it('is empty for blank text', () => {
    expect(parseDecimal('de', '  ')).toBeNull();
  });

  it('refuses a separator that reads two ways, grouping, and what is not a number', () => {
    expect(parseDecimal('de', '1.234')).toBe('ambiguous');
    expect(parseDecimal('en', '1,234')).toBe('ambiguous');
    expect(parseDecimal('de', '1.234,5')).toBe('grouped');
    expect(parseDecimal('en', '1,234.5')).toBe('grouped');
    expect(parseDecimal('it', '12 345')).toBe('grouped');
    expect(parseDecimal('en', 'abc')).toBe('invalid');
    expect(parseDecimal('en', '-')).toBe('invalid');
    expect(parseDecimal('en', '1e3')).toBe('invalid');
  });

  it('reads back exactly what formatDecimal shows for editing, in any language', () => {
    fc.assert(
      fc.property(locale, fc.double({ noNaN: true, noDefaultInfinity: true }), (lang, value) => {
        expect(unsigned(parseDecimal(lang, formatDecimal(lang, value)))).toBe(value + 0);
      }),
    );
  });

  it('reads formatNumber’s figures back, or refuses them as grouped: never another number', () => {
    fc.assert(
      fc.property(
        locale,
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.integer({ min: 0, max: 6 }),
        (lang, value, digits) => {
          const text = formatNumber(lang, value, digits);
          const read = parseDecimal(lang, text);
          const rounded = Number(value.toFixed(digits));
          if (Math.abs(value) < 999.5) expect(unsigned(read)).toBe(rounded + 0);
          else if (typeof read === 'number') expect(read).toBeCloseTo(rounded, digits);
          else expect(['grouped', 'ambiguous']).toContain(read);
        },
      ),
    );
  });
});
