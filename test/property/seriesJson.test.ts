import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seriesOf } from '../../server/measurements/metrics/seriesEnvelope.ts';
import { seriesJson } from '../../server/measurements/metrics/seriesJson.ts';

/**
 * A series written as JSON text from its numbers (`seriesJson.ts`) is byte for byte
 * `JSON.stringify` of the series object (`seriesOf`), whatever its strings (quotes, control
 * characters, lone surrogates), numbers (-0, tiny and huge exponents, NaN and infinities) and
 * instants, in zones with DST and fractional offsets.
 */

const ZONES = [
  'UTC',
  'Europe/Rome',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
] as const;

const instant = fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2040, 0, 1) });
const point = fc.record({
  start: instant,
  value: fc.option(fc.double(), { nil: null }),
  coverage: fc.double(),
});

describe('series JSON written from numbers', () => {
  it('is the bytes JSON.stringify writes of the series', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom(...ZONES),
        fc.string({ unit: 'binary' }),
        instant,
        instant,
        fc.array(point, { maxLength: 60 }),
        (plantUuid, timezone, unit, start, end, points) => {
          const plant = { plant_uuid: plantUuid, timezone };
          const span = { start, end };
          const expected = Buffer.from(JSON.stringify(seriesOf(plant, unit, span, points)));
          // The bytes on the wire: a text body goes out as its UTF-8.
          const { body } = seriesJson(plant, unit, span, points, points);
          expect(Buffer.from(body).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
