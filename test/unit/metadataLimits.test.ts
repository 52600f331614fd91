import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Metadata, metadataProblem } from '../../api/index.ts';

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
