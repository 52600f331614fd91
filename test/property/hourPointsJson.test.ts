import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packHourDays, type PackedHour } from '../../server/measurements/hourDayPacking.ts';
import {
  combineFlow,
  meanWatts,
  measureFlowFromSlots,
} from '../../server/measurements/metrics/flowMeasures.ts';
import {
  dayPointsJson,
  windowPointRuns,
  type StoredDayPoints,
} from '../../server/measurements/metrics/hourPointsJson.ts';
import type { EnergySensor, PlantFlow } from '../../server/measurements/metrics/plantFlows.ts';
import type { TimeRange } from '../../server/measurements/metrics/localTime.ts';
import type { SlotRow } from '../../server/measurements/metrics/rollupSlots.ts';
import { seriesOf } from '../../server/measurements/metrics/seriesEnvelope.ts';
import { seriesJsonOfPointRuns } from '../../server/measurements/metrics/seriesJson.ts';

/**
 * The hourly points stored per sensor and UTC day (`hourPointsJson.ts`), joined for a window of
 * whole UTC hours and cut at its edges, are byte for byte the series the general path writes:
 * `JSON.stringify` of `seriesOf` over the points `combineFlow` makes of a one-sensor flow's
 * slots (`measureFlowFromSlots`, the path of hours that are not UTC hours), whatever the zone
 * (DST days, fractional offsets), the window, the hours' values, and days or hours without rows.
 */

const HOUR = 3_600_000;
const DAY = 86_400_000;
const ZONES = [
  'UTC',
  'Europe/Rome',
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
] as const;

const SENSOR: EnergySensor = {
  sensorUuid: 'sensor',
  name: 'Meter',
  deviceUuid: null,
  deviceTypeCode: null,
  flow: 'CONSUMPTION',
  kind: 'POWER',
  samplingIntervalSeconds: 60,
};
const FLOW: PlantFlow = { source: 'PLANT_SENSORS', terms: [[SENSOR]] };

/** An hour's row as the hourly rollups hold it, or none. */
const hourRow = fc.option(
  fc.record({
    energyKwh: fc.oneof(
      fc.constant(null),
      fc.constant(-0),
      fc.constant(0),
      fc.double({ min: -50, max: 50, noNaN: true }),
    ),
    coveredSeconds: fc.oneof(
      fc.constant(0),
      fc.constant(3600),
      fc.double({ min: 0, max: 3600, noNaN: true }),
    ),
  }),
  { nil: undefined, freq: 3 },
);

/** Up to 10 consecutive UTC days (beyond 16 kB of points: the body then goes out as bytes), each with a row per hour or without any row. */
const days = fc.record({
  first: fc.integer({ min: Date.UTC(1990, 0, 1) / DAY, max: Date.UTC(2040, 0, 1) / DAY }),
  hours: fc.array(fc.option(fc.array(hourRow, { minLength: 24, maxLength: 24 })), {
    minLength: 1,
    maxLength: 10,
  }),
});

interface Case {
  zone: string;
  dayStart: number;
  rows: PackedHour[];
  stored: StoredDayPoints[];
  dayCount: number;
}

type Days = typeof days extends fc.Arbitrary<infer T> ? T : never;

function caseOf(zone: string, generated: Days): Case {
  const dayStart = generated.first * DAY;
  const rows: PackedHour[] = [];
  generated.hours.forEach((day, index) =>
    day?.forEach((row, hour) => {
      if (row) rows.push({ start: dayStart + index * DAY + hour * HOUR, ...row });
    }),
  );
  const stored = packHourDays(rows).map((day) => ({
    dayStart: day.dayStart,
    points: dayPointsJson(zone, day.dayStart, day.hours),
  }));
  return { zone, dayStart, rows, stored, dayCount: generated.hours.length };
}

/** The series the general path writes for the hours of `range`. */
function expected(
  zone: string,
  rows: readonly PackedHour[],
  range: { start: number; end: number },
) {
  const buckets: TimeRange[] = [];
  for (let start = range.start; start < range.end; start += HOUR) {
    buckets.push({ start, end: start + HOUR });
  }
  const slots: SlotRow[] = rows
    .filter((row) => row.start >= range.start && row.start < range.end)
    .map((row) => ({
      sensorUuid: SENSOR.sensorUuid,
      slotStart: row.start,
      energyKwh: row.energyKwh ?? 0,
      coveredSeconds: row.coveredSeconds,
    }));
  const points = combineFlow(measureFlowFromSlots(FLOW, buckets, slots), meanWatts).map(
    (point, index) => ({ ...point, start: buckets[index]!.start }),
  );
  return JSON.stringify(seriesOf({ plant_uuid: 'plant', timezone: zone }, 'W', range, points));
}

const actual = (
  zone: string,
  stored: readonly StoredDayPoints[],
  range: { start: number; end: number },
) =>
  String(
    seriesJsonOfPointRuns(
      { plant_uuid: 'plant', timezone: zone },
      'W',
      range,
      windowPointRuns(zone, range, stored),
    ).body,
  );

describe('hourly points stored by UTC day', () => {
  it('joined for any window of whole hours are the series the general path writes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), days, fc.nat(), fc.nat(), (zone, generated, a, b) => {
        const { dayStart, rows, stored, dayCount } = caseOf(zone, generated);
        const hours = dayCount * 24;
        const from = a % hours;
        const to = from + 1 + (b % (hours - from));
        const range = { start: dayStart + from * HOUR, end: dayStart + to * HOUR };
        expect(actual(zone, stored, range)).toBe(expected(zone, rows, range));
      }),
      { numRuns: 400 },
    );
  });

  it('cover a DST day of 23 and of 25 local hours with its 24 UTC hours', () => {
    for (const dayStart of [Date.UTC(2026, 2, 29), Date.UTC(2026, 9, 25)]) {
      const rows = Array.from({ length: 24 }, (_, hour) => ({
        start: dayStart + hour * HOUR,
        energyKwh: 0.5 + hour / 10,
        coveredSeconds: 3600,
      }));
      const stored = packHourDays(rows).map((day) => ({
        dayStart: day.dayStart,
        points: dayPointsJson('Europe/Rome', day.dayStart, day.hours),
      }));
      const range = { start: dayStart - 3 * HOUR, end: dayStart + DAY + 2 * HOUR };
      const text = actual('Europe/Rome', stored, range);
      expect(text).toBe(expected('Europe/Rome', rows, range));
      expect(JSON.parse(text).points).toHaveLength(29);
    }
  });

  it('give the hours of a day without a row no value', () => {
    const dayStart = Date.UTC(2026, 5, 1);
    const runs = windowPointRuns('UTC', { start: dayStart + 22 * HOUR, end: dayStart + DAY }, []);
    expect(JSON.parse(`[${runs.join(',')}]`)).toEqual([
      { timestamp: '2026-06-01T22:00:00+00:00', value: null, coverage: 0 },
      { timestamp: '2026-06-01T23:00:00+00:00', value: null, coverage: 0 },
    ]);
  });
});
