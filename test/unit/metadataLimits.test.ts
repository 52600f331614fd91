import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Metadata, metadataProblem } from '../../api/index.ts';
import { storedMetadata } from '../../server/db/lists.ts';

/** The contract's metadata limits, on any JSON. */

const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level += 1) value = { a: value };
  return value;
};

describe('metadataProblem', () => {
  it('accepts any JSON object within 10 levels, 500 keys and 16 KB', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }),
        (value) => {
          const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
          fc.pre(bytes <= 16 * 1024);
          expect(metadataProblem(value)).toBeNull();
          expect(Metadata.safeParse(value).success).toBe(true);
        },
      ),
    );
  });

  it('refuses an eleventh level, at any depth of arrays and objects', () => {
    expect(metadataProblem(nested(10))).toBeNull();
    expect(metadataProblem(nested(11))).toBe('metadata is nested deeper than 10 levels');
    expect(metadataProblem({ list: [[[[[[[[[[1]]]]]]]]]] })).toBe(
      'metadata is nested deeper than 10 levels',
    );
  });

  it('answers at once for a million levels, without recursion', () => {
    const started = performance.now();
    expect(metadataProblem(nested(1_000_000))).toBe('metadata is nested deeper than 10 levels');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('storedMetadata', () => {
  it('answers stored metadata within the limits as it was stored, none as an object of its own', () => {
    const none = storedMetadata('{}');
    expect(none).toEqual({});
    none.changed = true;
    expect(storedMetadata('{}')).toEqual({});
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        (value) => {
          const text = JSON.stringify(value);
          fc.pre(new TextEncoder().encode(text).length <= 16 * 1024);
          expect(storedMetadata(text)).toEqual(JSON.parse(text));
        },
      ),
    );
  });

  it('answers a notice for stored metadata beyond the limits or unreadable', () => {
    expect(storedMetadata(JSON.stringify(nested(11)))).toEqual({
      plantdeskNotice: 'The stored metadata is not shown: metadata is nested deeper than 10 levels',
    });
    expect(storedMetadata('{')).toEqual({
      plantdeskNotice: 'The stored metadata could not be read',
    });
  });
});
