import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aggregateQuarters,
  localDayIn,
  staleCoarseSpan,
  utcHourOf,
} from '../../../server/measurements/coarseRollups.ts';
import type { Rollup } from '../../../server/measurements/rollups.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const Q = 15 * MIN;

const quarter = (bucketStart: number, overrides: Partial<Rollup> = {}): Rollup => ({
  bucketStart,
  energyKwh: 1,
  meanValue: 4000,
  minValue: 3000,
  maxValue: 5000,
  sampleCount: 15,
  coveredSeconds: 900,
  ...overrides,
});

describe('aggregateQuarters into UTC hours', () => {
  const h0 = Date.UTC(2026, 5, 1, 10);

  it('sums energy, coverage and samples, keeps the extremes, weights the mean by coverage', () => {
    const rows = aggregateQuarters(
      [
        quarter(h0, { energyKwh: 1, meanValue: 4000, coveredSeconds: 900, minValue: 100 }),
        quarter(h0 + Q, { energyKwh: 0.5, meanValue: 2000, coveredSeconds: 300, maxValue: 9000 }),
        quarter(h0 + 3 * Q, { energyKwh: 0.25, meanValue: 1000, coveredSeconds: 600 }),
        quarter(h0 + HOUR + 2 * Q, { energyKwh: 2, sampleCount: 3 }),
      ],
      utcHourOf,
    );
    expect(rows).toEqual([
      {
        start: h0,
        end: h0 + HOUR,
        energyKwh: 1.75,
        meanValue: (4000 * 900 + 2000 * 300 + 1000 * 600) / 1800,
        minValue: 100,
        maxValue: 9000,
        sampleCount: 45,
        coveredSeconds: 1800,
      },
      {
        start: h0 + HOUR,
        end: h0 + 2 * HOUR,
        energyKwh: 2,
        meanValue: 4000,
        minValue: 3000,
        maxValue: 5000,
        sampleCount: 3,
        coveredSeconds: 900,
      },
    ]);
  });

  it('answers a null energy for a level sensor and the mean of means without coverage', () => {
    const [row] = aggregateQuarters(
      [
        quarter(h0, { energyKwh: null, meanValue: 20, coveredSeconds: 0, sampleCount: 1 }),
        quarter(h0 + Q, { energyKwh: null, meanValue: 22, coveredSeconds: 0, sampleCount: 1 }),
      ],
      utcHourOf,
    );
    expect(row).toMatchObject({ energyKwh: null, meanValue: 21, coveredSeconds: 0 });
  });

  it('makes no row of no quarter', () => {
    expect(aggregateQuarters([], utcHourOf)).toEqual([]);
  });

  it('sums to the bit as SQLite sum() does over the same rows', () => {
    const sqlite = new DatabaseSync(':memory:');
    const sum = sqlite.prepare('select sum(value) as total from json_each(?)');
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (energies) => {
          const quarters = energies.map((energyKwh, index) =>
            quarter(h0 + index * Q, { energyKwh }),
          );
          const [row] = aggregateQuarters(quarters, utcHourOf);
          const expected = sum.get(JSON.stringify(energies)) as { total: number };
          expect(row!.energyKwh).toBe(expected.total);
        },
      ),
    );
    sqlite.close();
  });
});

describe('aggregateQuarters into local days', () => {
  it('makes the 23-hour day of a spring DST change in Rome one row', () => {
    const dayStart = Date.UTC(2026, 2, 28, 23); // 2026-03-29T00:00+01:00
    const dayEnd = Date.UTC(2026, 2, 29, 22); // 2026-03-30T00:00+02:00
    const quarters = [
      quarter(dayStart - Q), // the day before
      quarter(dayStart),
      quarter(dayEnd - Q),
      quarter(dayEnd), // the day after
    ];
    const rows = aggregateQuarters(quarters, localDayIn('Europe/Rome'));
    expect(rows.map((row) => [row.start, row.end, row.energyKwh])).toEqual([
      [dayStart - 24 * HOUR, dayStart, 1],
      [dayStart, dayEnd, 2],
      [dayEnd, dayEnd + 24 * HOUR, 1],
    ]);
  });

  it('cuts Kathmandu days at 18:15 UTC', () => {
    const dayStart = Date.UTC(2026, 5, 1, 18, 15); // 2026-06-02T00:00+05:45
    const rows = aggregateQuarters(
      [quarter(dayStart - Q), quarter(dayStart)],
      localDayIn('Asia/Kathmandu'),
    );
    expect(rows.map((row) => [row.start, row.end])).toEqual([
      [dayStart - 24 * HOUR, dayStart],
      [dayStart, dayStart + 24 * HOUR],
    ]);
  });
});

describe('staleCoarseSpan', () => {
  it('widens rewritten quarters to their local days and those days to whole UTC hours', () => {
    const from = Date.UTC(2026, 5, 2, 3);
    const { days, hours } = staleCoarseSpan('Asia/Kathmandu', from, from + Q);
    expect(days).toEqual({
      start: Date.UTC(2026, 5, 1, 18, 15),
      end: Date.UTC(2026, 5, 2, 18, 15),
    });
    expect(hours).toEqual({ start: Date.UTC(2026, 5, 1, 18), end: Date.UTC(2026, 5, 2, 19) });
  });

  it('spans every day a long rewrite touches', () => {
    const from = Date.UTC(2026, 9, 24, 12);
    const { days } = staleCoarseSpan('Europe/Rome', from, from + 2 * 24 * HOUR);
    // 2026-10-24T00:00+02:00 to 2026-10-27T00:00+01:00, the 25-hour day included.
    expect(days).toEqual({ start: Date.UTC(2026, 9, 23, 22), end: Date.UTC(2026, 9, 26, 23) });
  });
});
