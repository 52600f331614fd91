import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  combineFlow,
  meanWatts,
  type FlowMeasures,
} from '../../server/measurements/metrics/flowMeasures.ts';
import type { PlantFlow } from '../../server/measurements/metrics/plantFlows.ts';
import { seriesOf } from '../../server/measurements/metrics/seriesEnvelope.ts';
import { seriesJson, seriesJsonOfMeasures } from '../../server/measurements/metrics/seriesJson.ts';

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

  it('of a flow’s measures is the series of the points combineFlow makes of them', () => {
    const HOUR_MS = 3_600_000;
    const measures = fc
      .record({
        source: fc.constantFrom<PlantFlow['source']>('PLANT_SENSORS', 'DEVICE_SENSORS', 'BALANCE'),
        termSizes: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }),
        first: instant,
        // Hours, and buckets of other lengths (a local day of 23 or 25 hours, 15 minutes).
        lengths: fc.array(fc.constantFrom(HOUR_MS, 23 * HOUR_MS, 25 * HOUR_MS, 900_000), {
          minLength: 1,
          maxLength: 30,
        }),
        seed: fc.array(fc.tuple(fc.double({ min: -50, max: 50 }), fc.double({ min: 0, max: 1 })), {
          minLength: 90,
          maxLength: 90,
        }),
      })
      .map(({ source, termSizes, first, lengths, seed }): FlowMeasures => {
        const buckets: { start: number; end: number }[] = [];
        let start = first;
        for (const length of lengths) {
          buckets.push({ start, end: start + length });
          start += length;
        }
        const columns = termSizes.reduce((total, size) => total + size, 0);
        const cells = buckets.length * columns;
        // Some cells fully covered, some not at all: both are written their own way.
        const covered = (index: number) => {
          const [, share] = seed[index % seed.length]!;
          const bucket = buckets[Math.floor(index / columns)]!;
          const seconds = (bucket.end - bucket.start) / 1000;
          return share < 0.3 ? 0 : share > 0.7 ? seconds : share * seconds;
        };
        return {
          flow: { source, terms: termSizes.map(() => []) },
          buckets,
          termSizes,
          energyKwh: Array.from({ length: cells }, (_, index) => seed[index % seed.length]![0]),
          coveredSeconds: Array.from({ length: cells }, (_, index) => covered(index)),
        };
      });
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        measures,
        fc.constantFrom(meanWatts, (energyKwh: number) => energyKwh),
        (timezone, measured, perSensor) => {
          const plant = { plant_uuid: 'plant', timezone };
          const span = { start: measured.buckets[0]!.start, end: measured.buckets.at(-1)!.end };
          const points = combineFlow(measured, perSensor);
          const expected = seriesJson(plant, 'kWh', span, measured.buckets, points).body;
          expect(seriesJsonOfMeasures(plant, 'kWh', span, measured, perSensor).body).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
