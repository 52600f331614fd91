import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assessSensorHealth,
  counterIssues,
  dailyCoverage,
  findGaps,
  frozenPeriods,
  heldSpans,
  suspicions,
  type HealthSamples,
} from '../../../../server/domain/dataHealth/index.ts';
import { localDays } from '../../../../server/measurements/metrics/localTime.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-01T00:00:00Z');

/** Readings every `stepMs` over [from, to), valued by `value(at)`. */
function series(from: number, to: number, stepMs: number, value: (at: number) => number) {
  const takenAt: number[] = [];
  const values: number[] = [];
  for (let at = from; at < to; at += stepMs) {
    takenAt.push(at);
    values.push(value(at));
  }
  return { takenAt, values };
}

/** Noise a meter reads: never two equal values in a row. */
const noisy = (at: number) => 1000 + ((at / MINUTE) % 97);

function without(samples: HealthSamples, from: number, to: number): HealthSamples {
  const takenAt: number[] = [];
  const values: number[] = [];
  for (let index = 0; index < samples.takenAt.length; index++) {
    const at = samples.takenAt[index]!;
    if (at >= from && at < to) continue;
    takenAt.push(at);
    values.push(samples.values[index]!);
  }
  return { takenAt, values };
}

describe('coverage and gaps', () => {
  const range = { start: T0, end: T0 + 24 * HOUR };

  it('a full day of 1-minute readings covers it whole, with no gap', () => {
    const samples = series(range.start, range.end, MINUTE, noisy);
    const spans = heldSpans(samples, MINUTE, range);
    expect(dailyCoverage(spans, [range])).toEqual([1]);
    expect(findGaps(samples, MINUTE, range)).toEqual([]);
  });

  it('a two-hour hole is a gap from the last reading to the next, and two hours of coverage missing', () => {
    const samples = without(
      series(range.start, range.end, MINUTE, noisy),
      T0 + 10 * HOUR,
      T0 + 12 * HOUR,
    );
    const gaps = findGaps(samples, MINUTE, range);
    expect(gaps).toEqual([
      { start: T0 + 10 * HOUR - MINUTE, end: T0 + 12 * HOUR, durationMs: 2 * HOUR + MINUTE },
    ]);
    const [coverage] = dailyCoverage(heldSpans(samples, MINUTE, range), [range]);
    // The reading before the hole holds one interval: two hours uncovered.
    expect(coverage).toBeCloseTo(1 - (2 * HOUR) / (24 * HOUR), 6);
  });

  it('a hole of up to three intervals is no gap (the sensor may be late)', () => {
    const samples = without(
      series(range.start, range.end, MINUTE, noisy),
      T0 + HOUR + MINUTE,
      T0 + HOUR + 3 * MINUTE,
    );
    expect(findGaps(samples, MINUTE, range)).toEqual([]);
  });

  it('a sensor silent since a time has a gap to the end of the range', () => {
    const samples = series(range.start, T0 + 20 * HOUR, MINUTE, noisy);
    expect(findGaps(samples, MINUTE, range)).toEqual([
      { start: T0 + 20 * HOUR - MINUTE, end: range.end, durationMs: 4 * HOUR + MINUTE },
    ]);
  });

  it('no readings at all: coverage 0, and no gap (the sensor never reported)', () => {
    const empty = { takenAt: [], values: [] };
    expect(findGaps(empty, MINUTE, range)).toEqual([]);
    expect(dailyCoverage(heldSpans(empty, MINUTE, range), [range])).toEqual([0]);
  });

  it('a sensor that started reporting within the range has no gap before its first reading', () => {
    const samples = series(T0 + 6 * HOUR, range.end, MINUTE, noisy);
    expect(findGaps(samples, MINUTE, range)).toEqual([]);
    // One that reported before the range and then fell silent has one from the range's start.
    expect(findGaps(samples, MINUTE, range, T0 - 2 * HOUR)).toEqual([
      { start: T0, end: T0 + 6 * HOUR, durationMs: 6 * HOUR },
    ]);
  });

  it('the reading before the range holds into it', () => {
    const samples = series(range.start + MINUTE, range.end, MINUTE, noisy);
    const spans = heldSpans(samples, MINUTE, range, range.start - 30_000);
    expect(spans[0]!.start).toBe(range.start);
  });
});

describe('DST days in Europe/Madrid', () => {
  const zone = 'Europe/Madrid';

  it('the spring day has 23 hours, the autumn day 25, and full readings cover each whole', () => {
    for (const [date, hours] of [
      [{ year: 2026, month: 3, day: 29 }, 23],
      [{ year: 2026, month: 10, day: 25 }, 25],
    ] as const) {
      const days = localDays(zone, { ...date, day: date.day - 1 }, { ...date, day: date.day + 1 });
      expect((days[1]!.end - days[1]!.start) / HOUR).toBe(hours);
      const range = { start: days[0]!.start, end: days[2]!.end };
      const samples = series(range.start, range.end + MINUTE, MINUTE, noisy);
      const coverage = dailyCoverage(heldSpans(samples, MINUTE, range), days);
      expect(coverage).toEqual([1, 1, 1]);
    }
  });

  it('a missing hour is 1/23 of the spring day and 1/25 of the autumn day', () => {
    for (const [date, hours] of [
      [{ year: 2026, month: 3, day: 29 }, 23],
      [{ year: 2026, month: 10, day: 25 }, 25],
    ] as const) {
      const [day] = localDays(zone, date, date);
      const samples = without(
        series(day!.start, day!.end + MINUTE, MINUTE, noisy),
        day!.start + 6 * HOUR + MINUTE,
        day!.start + 7 * HOUR + MINUTE,
      );
      const [coverage] = dailyCoverage(heldSpans(samples, MINUTE, day!), [day!]);
      // The reading before the hole holds one interval, then an hour is uncovered.
      expect(coverage).toBeCloseTo(1 - HOUR / (hours * HOUR), 6);
    }
  });
});

describe('energy counters', () => {
  it('a drop to near zero is a reset, any other drop a negative delta, rises nothing', () => {
    const samples = {
      takenAt: [0, 1, 2, 3, 4, 5].map((index) => T0 + index * MINUTE),
      values: [100, 100.5, 0.2, 0.7, 0.6, 0.9],
    };
    expect(counterIssues(samples)).toEqual([
      { kind: 'RESET', at: T0 + 2 * MINUTE, before: 100.5, after: 0.2 },
      { kind: 'NEGATIVE_DELTA', at: T0 + 4 * MINUTE, before: 0.7, after: 0.6 },
    ]);
  });

  it('the reading before the range is compared with the first', () => {
    expect(counterIssues({ takenAt: [T0], values: [50] }, 60)).toEqual([
      { kind: 'NEGATIVE_DELTA', at: T0, before: 60, after: 50 },
    ]);
  });
});

describe('frozen values', () => {
  const days = 10;
  const range = { start: T0, end: T0 + days * 24 * HOUR };

  it('a value stuck for 26 hours on a meter whose values change every minute is frozen', () => {
    const stuckFrom = T0 + 3 * 24 * HOUR;
    const stuckTo = stuckFrom + 26 * HOUR;
    const samples = series(range.start, range.end, MINUTE, (at) =>
      at >= stuckFrom && at < stuckTo ? 50 : noisy(at),
    );
    const frozen = frozenPeriods(samples, { intervalMs: MINUTE });
    expect(frozen).toEqual([{ start: stuckFrom, end: stuckTo, value: 50, countedMs: 26 * HOUR }]);
  });

  it('a device idle 14 hours every day is normal by its own history; stuck for 3 days it is not', () => {
    const idle = (at: number) => ((at - T0) % (24 * HOUR) < 14 * HOUR ? 0 : noisy(at));
    const healthy = series(range.start, range.end, MINUTE, idle);
    expect(frozenPeriods(healthy, { intervalMs: MINUTE })).toEqual([]);
    const stuckFrom = T0 + 2 * 24 * HOUR;
    const stuck = series(range.start, range.end, MINUTE, (at) =>
      at >= stuckFrom && at < stuckFrom + 4 * 24 * HOUR ? 0 : idle(at),
    );
    expect(frozenPeriods(stuck, { intervalMs: MINUTE })).toHaveLength(1);
  });

  it('PV at 0 W at night is a legitimate zero, not a frozen value', () => {
    const isDaylight = (at: number) => {
      const hour = ((at - T0) % (24 * HOUR)) / HOUR;
      return hour >= 6 && hour < 20;
    };
    const pv = (at: number) => (isDaylight(at) ? noisy(at) : 0);
    const samples = series(range.start, range.end, MINUTE, pv);
    const health = assessSensorHealth({
      dataType: 'POWER',
      flow: 'PRODUCTION',
      intervalMs: MINUTE,
      samples,
      range,
      days: [range],
      isDaylight,
    });
    expect(health.frozen).toEqual([]);
    // An inverter tripped for a whole day reads 0 W in daylight too: only those 14 hours count.
    const tripFrom = T0 + 5 * 24 * HOUR;
    const tripped = series(range.start, range.end, MINUTE, (at) =>
      at >= tripFrom && at < tripFrom + 24 * HOUR ? 0 : pv(at),
    );
    const found = assessSensorHealth({
      dataType: 'POWER',
      flow: 'PRODUCTION',
      intervalMs: MINUTE,
      samples: tripped,
      range,
      days: [range],
      isDaylight,
    }).frozen;
    expect(found).toHaveLength(1);
    expect(found[0]!.countedMs).toBe(14 * HOUR);
  });
});

describe('unit and sign suspicions', () => {
  const range = { start: T0, end: T0 + 24 * HOUR };
  const isDaylight = (at: number) =>
    (at - T0) % (24 * HOUR) >= 6 * HOUR && (at - T0) % (24 * HOUR) < 20 * HOUR;

  it('a 5 kW device read at most 4.2: kW reported as W', () => {
    const samples = series(
      range.start,
      range.end,
      MINUTE,
      (at) => 4.2 * Math.abs(Math.sin(at / HOUR)),
    );
    expect(suspicions({ samples, isPower: true, isProduction: false, ratingW: 5000 })).toEqual([
      expect.objectContaining({ code: 'POWER_LOOKS_LIKE_KILOWATTS', reference: 5000 }),
    ]);
  });

  it("the plant's PV peak judges a meter without a rated device", () => {
    const samples = series(range.start, range.end, MINUTE, (at) => 3 + ((at / MINUTE) % 5));
    expect(
      suspicions({
        samples,
        isPower: true,
        isProduction: false,
        ratingW: null,
        plantScaleW: 6000,
      })[0]?.code,
    ).toBe('POWER_LOOKS_LIKE_KILOWATTS');
  });

  it('a meter of the right size raises nothing', () => {
    const samples = series(range.start, range.end, MINUTE, noisy);
    expect(suspicions({ samples, isPower: true, isProduction: false, ratingW: 2000 })).toEqual([]);
  });

  it('production negative by day: a current transformer mounted backwards; negative at night is not judged', () => {
    const reversed = series(range.start, range.end, MINUTE, (at) =>
      isDaylight(at) ? -noisy(at) : 0,
    );
    expect(
      suspicions({
        samples: reversed,
        isPower: true,
        isProduction: true,
        ratingW: null,
        isDaylight,
      }).map((found) => found.code),
    ).toEqual(['PRODUCTION_NEGATIVE_BY_DAY']);
    const nightDraw = series(range.start, range.end, MINUTE, (at) =>
      isDaylight(at) ? noisy(at) : -30,
    );
    expect(
      suspicions({
        samples: nightDraw,
        isPower: true,
        isProduction: true,
        ratingW: null,
        isDaylight,
      }),
    ).toEqual([]);
  });
});

describe('properties', () => {
  /** Strictly increasing reading times within a day, at most a few thousand. */
  const readingTimes = fc
    .uniqueArray(fc.integer({ min: 0, max: 24 * 60 - 1 }), { maxLength: 400 })
    .map((minutes) => minutes.sort((a, b) => a - b).map((minute) => T0 + minute * MINUTE));
  const intervals = fc.constantFrom(MINUTE, 5 * MINUTE, 15 * MINUTE);

  it('coverage is in [0, 1] for any readings and any cut into days', () => {
    fc.assert(
      fc.property(
        readingTimes,
        intervals,
        fc.integer({ min: 1, max: 30 }),
        (times, interval, hours) => {
          const range = { start: T0, end: T0 + 24 * HOUR };
          const days = [];
          for (let start = range.start; start < range.end; start += hours * HOUR) {
            days.push({ start, end: Math.min(range.end, start + hours * HOUR) });
          }
          const samples = { takenAt: times, values: times.map(() => 1) };
          for (const share of dailyCoverage(heldSpans(samples, interval, range), days)) {
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });

  it('gaps never hold a reading, never overlap, and lie in the range', () => {
    fc.assert(
      fc.property(readingTimes, intervals, (times, interval) => {
        const range = { start: T0, end: T0 + 24 * HOUR };
        const gaps = findGaps({ takenAt: times }, interval, range);
        for (const [index, gap] of gaps.entries()) {
          expect(gap.start).toBeGreaterThanOrEqual(range.start);
          expect(gap.end).toBeLessThanOrEqual(range.end);
          expect(gap.durationMs).toBe(gap.end - gap.start);
          expect(times.some((at) => at > gap.start && at < gap.end)).toBe(false);
          if (index > 0) expect(gap.start).toBeGreaterThanOrEqual(gaps[index - 1]!.end);
        }
      }),
    );
  });

  it('a gap leaves at least its length less three intervals uncovered', () => {
    fc.assert(
      fc.property(readingTimes, intervals, (times, interval) => {
        const range = { start: T0, end: T0 + 24 * HOUR };
        const samples = { takenAt: times, values: times.map(() => 1) };
        const [coverage] = dailyCoverage(heldSpans(samples, interval, range), [range]);
        const gapped = findGaps(samples, interval, range).reduce(
          (sum, gap) => sum + gap.durationMs - interval,
          0,
        );
        // Coverage is rounded to 1e-6 of the day: 86 ms.
        expect(coverage! * 24 * HOUR).toBeLessThanOrEqual(24 * HOUR - gapped + 100);
      }),
    );
  });
});

describe('frozen values and gaps', () => {
  it('a gap is no frozen value: the same reading before and after it does not join runs', () => {
    const range = { start: T0, end: T0 + 5 * 24 * HOUR };
    const samples = without(
      series(range.start, range.end, MINUTE, noisy),
      T0 + 24 * HOUR,
      T0 + 30 * HOUR,
    );
    expect(frozenPeriods(samples, { intervalMs: MINUTE })).toEqual([]);
  });
});

describe('values at rest are judged against the rest of their own kind', () => {
  const days = 10;
  const range = { start: T0, end: T0 + days * 24 * HOUR };
  const night = (at: number) => (at - T0) % (24 * HOUR) < 11 * HOUR;
  const assess = (dataType: string, flow: string, value: (at: number) => number) =>
    assessSensorHealth({
      dataType,
      flow,
      intervalMs: MINUTE,
      samples: series(range.start, range.end, MINUTE, value),
      range,
      days: [range],
      isDaylight: (at) => !night(at),
    }).frozen;

  it('a battery empty (10 %) and idle (0 W) every night is normal', () => {
    const soc = (at: number) => (night(at) ? 10 : 10 + ((at / MINUTE) % 80));
    expect(assess('STATE_OF_CHARGE', 'STORAGE', soc)).toEqual([]);
    expect(assess('POWER', 'STORAGE', (at) => (night(at) ? 0 : noisy(at)))).toEqual([]);
  });

  it('a state of charge stuck at 50 % for 26 hours is frozen, its nights at 10 % are not', () => {
    const stuckFrom = T0 + 4 * 24 * HOUR + 12 * HOUR;
    const soc = (at: number) =>
      at >= stuckFrom && at < stuckFrom + 26 * HOUR
        ? 50
        : night(at)
          ? 10
          : 11 + ((at / MINUTE) % 80);
    expect(assess('STATE_OF_CHARGE', 'STORAGE', soc).map((period) => period.value)).toEqual([50]);
  });

  it('two inverter trips on different days are both found', () => {
    const trips = [T0 + 2 * 24 * HOUR, T0 + 6 * 24 * HOUR];
    const pv = (at: number) =>
      night(at) || trips.some((from) => at >= from && at < from + 24 * HOUR) ? 0 : noisy(at);
    expect(assess('POWER', 'PRODUCTION', pv)).toHaveLength(2);
  });
});

describe('values at a limit', () => {
  it('a charger at full power for two hours on some evenings is normal; for a day it is frozen', () => {
    const range = { start: T0, end: T0 + 10 * 24 * HOUR };
    const charging = (at: number) => {
      const day = Math.floor((at - T0) / (24 * HOUR));
      const hour = ((at - T0) % (24 * HOUR)) / HOUR;
      return day % 3 === 0 && hour >= 19 && hour < 21
        ? 11_000
        : hour < 7
          ? 0
          : 20 + ((at / MINUTE) % 9);
    };
    const assess = (value: (at: number) => number) =>
      frozenPeriods(series(range.start, range.end, MINUTE, value), {
        intervalMs: MINUTE,
        kindOf: (v) => (v === 0 ? 'rest' : v === 11_000 ? 'limit' : 'working'),
      });
    expect(assess(charging)).toEqual([]);
    const stuck = T0 + 6 * 24 * HOUR + 19 * HOUR;
    expect(
      assess((at) => (at >= stuck && at < stuck + 24 * HOUR ? 11_000 : charging(at))).map(
        (period) => period.value,
      ),
    ).toEqual([11_000]);
  });
});
