import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../electron/services/api/apiError.ts';
import { buildPath, buildSearch, joinUrl } from '../../electron/services/api/requestBuilder.ts';

/**
 * Whatever a caller passes, a path parameter stays exactly one segment of the URL that fetch
 * (WHATWG URL) will request, and the query string parses back to what was given.
 */

const RUNS = 500;

/** Characters that mean something in a URL, mixed with any Unicode (lone surrogates too). */
const tricky = fc.constantFrom(
  '/',
  '?',
  '#',
  '..',
  '.',
  '%',
  '%2F',
  '%2e%2e',
  '&',
  '=',
  '+',
  ' ',
  '\\',
  ';',
  '\u0000',
  '\uD800',
  '\uDC00',
);
const anyText = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), tricky), { maxLength: 6 })
  .map((parts) => parts.join(''));

describe('path parameters', () => {
  test('round-trip through the URL as exactly one segment', () => {
    const usable = anyText.filter((value) => !['', '.', '..'].includes(value));
    fc.assert(
      fc.property(usable, usable, (plantUuid, sensorUuid) => {
        const path = buildPath('/plants/{plantUuid}/sensors/{sensorUuid}', {
          plantUuid,
          sensorUuid,
        });
        const url = new URL(joinUrl('https://host.example/api', path));
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        const segments = url.pathname.split('/').map(decodeURIComponent);
        expect(segments).toEqual([
          '',
          'api',
          'plants',
          plantUuid.toWellFormed(),
          'sensors',
          sensorUuid.toWellFormed(),
        ]);
      }),
      { numRuns: RUNS },
    );
  });

  test("'', '.' and '..' are refused rather than sent", () => {
    for (const value of ['', '.', '..']) {
      expect(() => buildPath('/plants/{plantUuid}', { plantUuid: value })).toThrow(ApiError);
    }
  });
});

describe('query strings', () => {
  const scalar = fc.oneof(
    anyText,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
  );
  const value = fc.oneof(
    scalar,
    fc.array(fc.oneof(anyText, fc.integer()), { maxLength: 4 }),
    fc.constant(undefined),
    fc.constant(null),
  );
  const query = fc
    .array(fc.tuple(anyText, value), { maxLength: 6 })
    .map((entries) => Object.fromEntries(entries) as Record<string, unknown>);

  function expectedPairs(input: Record<string, unknown>): [string, string][] {
    const pairs: [string, string][] = [];
    for (const [name, item] of Object.entries(input)) {
      for (const one of Array.isArray(item) ? item : [item]) {
        if (one === undefined || one === null) continue;
        pairs.push([name.toWellFormed(), String(one).toWellFormed()]);
      }
    }
    return pairs;
  }

  test('round-trip through URLSearchParams, in order, lists repeated', () => {
    fc.assert(
      fc.property(query, (input) => {
        const search = buildSearch(input);
        const pairs = expectedPairs(input);
        expect(search === '').toBe(pairs.length === 0);
        expect([...new URLSearchParams(search)]).toEqual(pairs);
        // And as the server sees it after the URL parser.
        const url = new URL(joinUrl('http://127.0.0.1:1', `/plants${search}`));
        expect([...url.searchParams]).toEqual(pairs);
        expect(url.pathname).toBe('/plants');
      }),
      { numRuns: RUNS },
    );
  });
});
