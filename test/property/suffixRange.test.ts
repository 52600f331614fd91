import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { textsStartingWithEnd } from '../../server/features/plants/plantSearch.ts';

/**
 * The end of the suffix index's range for a term (plantSearch.ts, migration 0017): in code point
 * order (SQLite's BINARY and PostgreSQL's "C" order of UTF-8), every text that starts with the
 * term is in [term, end), and no other text is. Characters around the edges that bite: the last
 * code point, the ones either side of the surrogates, an astral one (two UTF-16 units).
 */
const CHARACTERS = ['a', 'b', '0', '%', '\uD7FF', '\uE000', '\uFFFF', '😀', '\u{10FFFF}'];
const text = (minLength: number) =>
  fc
    .array(fc.constantFrom(...CHARACTERS), { minLength, maxLength: 5 })
    .map((characters) => characters.join(''));

/** Code point order, which UTF-16's own (JavaScript's `<`) is not past the surrogates. */
function compare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe("the suffixes' range of a term", () => {
  test('holds exactly the texts that start with the term', () => {
    fc.assert(
      fc.property(text(1), text(0), (term, other) => {
        const end = textsStartingWithEnd(term);
        const inRange = (value: string) =>
          compare(value, term) >= 0 && (end === undefined || compare(value, end) < 0);
        expect(inRange(term + other)).toBe(true);
        expect(inRange(other)).toBe(other.startsWith(term));
      }),
      { numRuns: 2000, seed: 17 },
    );
  });

  test('ends where moving the last code point on by one ends it, for every last character', () => {
    // The code point walk the range is defined by, which a quicker path must agree with.
    const walked = (prefix: string) => {
      const characters = [...prefix];
      while (characters.length > 0) {
        const last = characters.pop()!.codePointAt(0)!;
        if (last < 0x10ffff) {
          return characters.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
        }
      }
      return undefined;
    };
    for (let code = 0; code <= 0x10ffff; code += code < 0x10000 ? 1 : 0x3ff) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const term = `t\u00e9${String.fromCodePoint(code)}`;
      expect(textsStartingWithEnd(term), code.toString(16)).toBe(walked(term));
    }
    expect(textsStartingWithEnd('')).toBeUndefined();
  });

  test('is open-ended only for a term of nothing but the last code point', () => {
    expect(textsStartingWithEnd('\u{10FFFF}\u{10FFFF}')).toBeUndefined();
    expect(textsStartingWithEnd('a\u{10FFFF}')).toBe('b');
    expect(textsStartingWithEnd('\uD7FF')).toBe('\uE000');
  });
});
