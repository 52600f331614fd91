import { describe, expect, test } from 'vitest';
import {
  bandSeries,
  coarserGranularity,
  forecastToBand,
  instantOf,
  lowCoverage,
  meanCoverage,
  parsePointCap,
  pointCapOf,
  seriesToPoints,
  shiftPoints,
  suggestedGranularity,
} from '../../../../renderer/src/charts/series.ts';
import { formatInZone } from '../../../../renderer/src/charts/time.ts';

const HOUR = 3_600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** The hourly buckets of a local day as the server writes them: local hour + offset. */
function day(date: string, hours: readonly [hour: number, offset: string][]) {
  return hours.map(([hour, offset], index) => ({
    timestamp: `${date}T${pad(hour)}:00:00${offset}`,
    value: index % 5 === 4 ? null : index * 10.5,
    coverage: index % 5 === 4 ? 0 : 1,
  }));
}

// Europe/Rome, DST starts 2026-03-29 at 02:00 (+01:00 → +02:00): 23 hours, no 02:xx.
const springHours: [number, string][] = [
  [0, '+01:00'],
  [1, '+01:00'],
  ...Array.from({ length: 21 }, (_, k): [number, string] => [k + 3, '+02:00']),
];
// DST ends 2026-10-25 at 03:00 (+02:00 → +01:00): 25 hours, 02:xx twice.
const autumnHours: [number, string][] = [
  [0, '+02:00'],
  [1, '+02:00'],
  [2, '+02:00'],
  [2, '+01:00'],
  ...Array.from({ length: 21 }, (_, k): [number, string] => [k + 3, '+01:00']),
];

describe('seriesToPoints', () => {
  test('the 23-hour day of Europe/Rome: 23 points one hour apart, no 02:00', () => {
    const points = seriesToPoints({ points: day('2026-03-29', springHours) });
    expect(points).toHaveLength(23);
    // Local midnight +01:00 is 23:00 UTC the day before.
    expect(points[0]!.x).toBe(Date.UTC(2026, 2, 28, 23));
    expect(points[22]!.x).toBe(Date.UTC(2026, 2, 29, 21));
    for (let index = 1; index < points.length; index += 1) {
      expect(points[index]!.x - points[index - 1]!.x).toBe(HOUR);
    }
    const labels = points.map((point) => formatInZone(point.x, 'Europe/Rome', 'hours'));
    expect(labels.slice(0, 3)).toEqual([
      '2026-03-29 00:00',
      '2026-03-29 01:00',
      '2026-03-29 03:00',
    ]);
    expect(labels.some((label) => label.includes(' 02:'))).toBe(false);
  });

  test('the 25-hour day of Europe/Rome: both 02:00 are distinct points, labelled with offsets', () => {
    const points = seriesToPoints({ points: day('2026-10-25', autumnHours) });
    expect(points).toHaveLength(25);
    expect(new Set(points.map((point) => point.x)).size).toBe(25);
    expect(points[2]!.x).toBe(Date.UTC(2026, 9, 25, 0));
    expect(points[3]!.x).toBe(Date.UTC(2026, 9, 25, 1));
    expect(points[24]!.x - points[0]!.x).toBe(24 * HOUR);
    const labels = points.map((point) => formatInZone(point.x, 'Europe/Rome', 'hours'));
    expect(labels.slice(1, 5)).toEqual([
      '2026-10-25 01:00',
      '2026-10-25 02:00 +02:00',
      '2026-10-25 02:00 +01:00',
      '2026-10-25 03:00',
    ]);
  });

  test('null stays null (a gap, never 0) and coverage is kept', () => {
    const points = seriesToPoints({
      points: [
        { timestamp: '2026-03-30T10:00:00+02:00', value: 0, coverage: 1 },
        { timestamp: '2026-03-30T11:00:00+02:00', value: null, coverage: 0 },
        { timestamp: '2026-03-30T12:00:00+02:00', value: 812.25, coverage: 0.5 },
      ],
    });
    expect(points).toEqual([
      { x: Date.UTC(2026, 2, 30, 8), y: 0, coverage: 1 },
      { x: Date.UTC(2026, 2, 30, 9), y: null, coverage: 0 },
      { x: Date.UTC(2026, 2, 30, 10), y: 812.25, coverage: 0.5 },
    ]);
    expect(lowCoverage(points)).toEqual([points[1], points[2]]);
    expect(lowCoverage(points, 0.5)).toEqual([points[1]]);
    expect(meanCoverage(points)).toBe(0.5);
    expect(meanCoverage([])).toBe(1);
  });

  test('+05:30 and +05:45 zones: instants and local labels', () => {
    const kolkata = seriesToPoints({
      points: [{ timestamp: '2026-03-29T00:00:00+05:30', value: 1, coverage: 1 }],
    });
    expect(kolkata[0]!.x).toBe(Date.UTC(2026, 2, 28, 18, 30));
    expect(formatInZone(kolkata[0]!.x, 'Asia/Kolkata', 'hours')).toBe('2026-03-29 00:00');
    expect(formatInZone(kolkata[0]!.x, 'Europe/Rome', 'hours')).toBe('2026-03-28 19:30');
    const kathmandu = seriesToPoints({
      points: [{ timestamp: '2026-03-29T06:15:00+05:45', value: 1, coverage: 1 }],
    });
    expect(kathmandu[0]!.x).toBe(Date.UTC(2026, 2, 29, 0, 30));
    expect(formatInZone(kathmandu[0]!.x, 'Asia/Kathmandu', 'minutes')).toBe('2026-03-29 06:15');
  });

  test('UTC written +00:00 and milliseconds are accepted; garbage is refused', () => {
    expect(instantOf('2026-01-01T00:00:00+00:00')).toBe(Date.UTC(2026, 0, 1));
    expect(instantOf('2026-01-01T00:00:00.250Z')).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 250));
    expect(() => instantOf('yesterday')).toThrow('Not an ISO 8601 timestamp: yesterday');
  });
});

describe('forecastToBand', () => {
  test('keeps the value and its 80 % interval', () => {
    const band = forecastToBand({
      points: [
        { timestamp: '2026-10-25T02:00:00+02:00', value: 1.5, lower: 1.1, upper: 2 },
        { timestamp: '2026-10-25T02:00:00+01:00', value: 1.25, lower: 0.9, upper: 1.75 },
      ],
    });
    expect(band).toEqual([
      { x: Date.UTC(2026, 9, 25, 0), y: 1.5, lower: 1.1, upper: 2 },
      { x: Date.UTC(2026, 9, 25, 1), y: 1.25, lower: 0.9, upper: 1.75 },
    ]);
    expect(bandSeries('Production forecast', 'kWh', band)).toEqual({
      label: 'Production forecast',
      role: 'forecast',
      unit: 'kWh',
      points: [
        { x: Date.UTC(2026, 9, 25, 0), y: 1.5 },
        { x: Date.UTC(2026, 9, 25, 1), y: 1.25 },
      ],
      band: [
        { lower: 1.1, upper: 2 },
        { lower: 0.9, upper: 1.75 },
      ],
    });
  });
});

describe('shiftPoints (compare with the previous period)', () => {
  test('a week later keeps the local wall time across the DST change', () => {
    // Sunday 2026-03-22 08:00 +01:00 → Sunday 2026-03-29 08:00 +02:00: 167 hours later.
    const before = { x: Date.UTC(2026, 2, 22, 7), y: 3 };
    const [after] = shiftPoints([before], 'Europe/Rome', { weeks: 1 });
    expect(after).toEqual({ x: Date.UTC(2026, 2, 29, 6), y: 3 });
    expect(formatInZone(after!.x, 'Europe/Rome', 'hours')).toBe('2026-03-29 08:00');
  });

  test('a year later lands on the same local date', () => {
    const [after] = shiftPoints([{ x: Date.UTC(2025, 6, 1, 10), y: null }], 'Asia/Kolkata', {
      years: 1,
    });
    expect(after).toEqual({ x: Date.UTC(2026, 6, 1, 10), y: null });
  });
});

describe('granularity and the point cap', () => {
  test('coarserGranularity', () => {
    expect(coarserGranularity('seconds')).toBe('minutes');
    expect(coarserGranularity('minutes')).toBe('hours');
    expect(coarserGranularity('hours')).toBe('days');
    expect(coarserGranularity('days')).toBeNull();
  });

  // The messages of test/integration/metrics.test.ts, as the server writes them.
  const minutes =
    'Granularity minutes gives 128100 points from startDate 2026-01-01T00:00 to endDate ' +
    '2026-03-31T00:00, more than the maximum of 100000; use a coarser granularity: hours (2135 points)';
  const shorten =
    'Granularity days gives 116877 points from startDate 1980-01-01T00:00 to endDate ' +
    '2300-01-01T00:00, more than the maximum of 100000; shorten the range';

  test('reads the suggested granularity and the counts', () => {
    expect(parsePointCap(minutes)).toEqual({
      message: minutes,
      requested: 'minutes',
      count: 128100,
      suggested: 'hours',
      suggestedCount: 2135,
      maximum: 100000,
    });
    expect(parsePointCap(shorten)).toMatchObject({
      requested: 'days',
      suggested: null,
      suggestedCount: null,
    });
    expect(
      parsePointCap('startDate 2026-03-31T10:01 is after endDate 2026-03-31T10:00'),
    ).toBeNull();
  });

  test('from a bridge error: only a 422 with the point-cap message', () => {
    const error = { kind: 'api', status: 422, message: minutes };
    expect(suggestedGranularity(error)).toBe('hours');
    expect(pointCapOf({ ...error, status: 400 })).toBeNull();
    expect(pointCapOf({ kind: 'network', message: 'offline' })).toBeNull();
    expect(pointCapOf(new Error(minutes))?.suggested).toBe('hours');
    expect(suggestedGranularity({ status: 422, message: shorten })).toBeNull();
    expect(pointCapOf(null)).toBeNull();
  });
});
