import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  HOUR_MS,
  addDays,
  compareLocalDates,
  daysInclusive,
  formatLocal,
  hoursEndingWithCurrentHour,
  hoursEndingWithDay,
  instantOf,
  localDateOf,
  localDay,
  localDays,
  localDaysEndingWith,
  offsetMinutesAt,
  startOfLocalHour,
  todayIn,
  type TimeRange,
} from '../../../server/measurements/metrics/localTime.ts';

const date = (text: string) => {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};
const hoursLong = (range: TimeRange) => (range.end - range.start) / HOUR_MS;
const starts = (zone: string, ranges: readonly TimeRange[]) =>
  ranges.map((range) => formatLocal(zone, range.start));

interface DayCase {
  zone: string;
  day: string;
  hours: number;
  start: string;
  end: string;
  /** First and last of the 24 hours ending with the day. */
  firstHour: string;
  lastHour: string;
}

const DAYS: DayCase[] = [
  // Europe/Rome: spring forward 02:00 → 03:00, fall back 03:00 → 02:00.
  {
    zone: 'Europe/Rome',
    day: '2026-03-29',
    hours: 23,
    start: '2026-03-29T00:00:00+01:00',
    end: '2026-03-30T00:00:00+02:00',
    firstHour: '2026-03-28T23:00:00+01:00',
    lastHour: '2026-03-29T23:00:00+02:00',
  },
  {
    zone: 'Europe/Rome',
    day: '2026-10-25',
    hours: 25,
    start: '2026-10-25T00:00:00+02:00',
    end: '2026-10-26T00:00:00+01:00',
    firstHour: '2026-10-25T01:00:00+02:00',
    lastHour: '2026-10-25T23:00:00+01:00',
  },
  {
    zone: 'Europe/Rome',
    day: '2026-06-15',
    hours: 24,
    start: '2026-06-15T00:00:00+02:00',
    end: '2026-06-16T00:00:00+02:00',
    firstHour: '2026-06-15T00:00:00+02:00',
    lastHour: '2026-06-15T23:00:00+02:00',
  },
  {
    zone: 'America/New_York',
    day: '2026-03-08',
    hours: 23,
    start: '2026-03-08T00:00:00-05:00',
    end: '2026-03-09T00:00:00-04:00',
    firstHour: '2026-03-07T23:00:00-05:00',
    lastHour: '2026-03-08T23:00:00-04:00',
  },
  {
    zone: 'America/New_York',
    day: '2026-11-01',
    hours: 25,
    start: '2026-11-01T00:00:00-04:00',
    end: '2026-11-02T00:00:00-05:00',
    firstHour: '2026-11-01T01:00:00-04:00',
    lastHour: '2026-11-01T23:00:00-05:00',
  },
  {
    zone: 'America/New_York',
    day: '2026-01-20',
    hours: 24,
    start: '2026-01-20T00:00:00-05:00',
    end: '2026-01-21T00:00:00-05:00',
    firstHour: '2026-01-20T00:00:00-05:00',
    lastHour: '2026-01-20T23:00:00-05:00',
  },
  // Australia/Sydney: DST ends on the first Sunday of April, starts on the first of October.
  {
    zone: 'Australia/Sydney',
    day: '2026-04-05',
    hours: 25,
    start: '2026-04-05T00:00:00+11:00',
    end: '2026-04-06T00:00:00+10:00',
    firstHour: '2026-04-05T01:00:00+11:00',
    lastHour: '2026-04-05T23:00:00+10:00',
  },
  {
    zone: 'Australia/Sydney',
    day: '2026-10-04',
    hours: 23,
    start: '2026-10-04T00:00:00+10:00',
    end: '2026-10-05T00:00:00+11:00',
    firstHour: '2026-10-03T23:00:00+10:00',
    lastHour: '2026-10-04T23:00:00+11:00',
  },
  {
    zone: 'Australia/Sydney',
    day: '2026-07-01',
    hours: 24,
    start: '2026-07-01T00:00:00+10:00',
    end: '2026-07-02T00:00:00+10:00',
    firstHour: '2026-07-01T00:00:00+10:00',
    lastHour: '2026-07-01T23:00:00+10:00',
  },
  {
    zone: 'Asia/Kolkata',
    day: '2026-03-29',
    hours: 24,
    start: '2026-03-29T00:00:00+05:30',
    end: '2026-03-30T00:00:00+05:30',
    firstHour: '2026-03-29T00:00:00+05:30',
    lastHour: '2026-03-29T23:00:00+05:30',
  },
  {
    zone: 'Asia/Kathmandu',
    day: '2026-10-25',
    hours: 24,
    start: '2026-10-25T00:00:00+05:45',
    end: '2026-10-26T00:00:00+05:45',
    firstHour: '2026-10-25T00:00:00+05:45',
    lastHour: '2026-10-25T23:00:00+05:45',
  },
];

describe('local days and their 24 hours', () => {
  it.each(DAYS)('$zone $day is $hours hours long', (c) => {
    const day = localDay(c.zone, date(c.day));
    expect(hoursLong(day)).toBe(c.hours);
    expect(formatLocal(c.zone, day.start)).toBe(c.start);
    expect(formatLocal(c.zone, day.end)).toBe(c.end);
    expect(localDateOf(c.zone, day.start)).toEqual(date(c.day));
    expect(localDateOf(c.zone, day.end - 1)).toEqual(date(c.day));
  });

  it.each(DAYS)('$zone $day: the 24 hours ending with it', (c) => {
    const hours = hoursEndingWithDay(c.zone, date(c.day));
    expect(hours).toHaveLength(24);
    expect(hours.every((hour) => hoursLong(hour) === 1)).toBe(true);
    expect(hours[23]!.end).toBe(localDay(c.zone, date(c.day)).end);
    expect(formatLocal(c.zone, hours[0]!.start)).toBe(c.firstHour);
    expect(formatLocal(c.zone, hours[23]!.start)).toBe(c.lastHour);
    // Every boundary is on the 15-minute grid of the rollups.
    expect(hours.every((hour) => hour.start % 900_000 === 0)).toBe(true);
  });

  it('writes both 02:00 hours of a 25-hour day with their own offsets', () => {
    const labels = starts('Europe/Rome', hoursEndingWithDay('Europe/Rome', date('2026-10-25')));
    expect(labels.slice(0, 3)).toEqual([
      '2026-10-25T01:00:00+02:00',
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
    ]);
  });

  it('skips 02:00 on a 23-hour day', () => {
    const labels = starts('Europe/Rome', hoursEndingWithDay('Europe/Rome', date('2026-03-29')));
    expect(labels.slice(1, 4)).toEqual([
      '2026-03-29T00:00:00+01:00',
      '2026-03-29T01:00:00+01:00',
      '2026-03-29T03:00:00+02:00',
    ]);
  });

  it('starts Kathmandu hours at a quarter past a UTC hour and Kolkata hours at half past', () => {
    const kathmandu = hoursEndingWithDay('Asia/Kathmandu', date('2026-10-25'));
    expect(new Date(kathmandu[0]!.start).toISOString()).toBe('2026-10-24T18:15:00.000Z');
    const kolkata = hoursEndingWithDay('Asia/Kolkata', date('2026-03-29'));
    expect(new Date(kolkata[0]!.start).toISOString()).toBe('2026-03-28T18:30:00.000Z');
  });

  it('starts a day at its first instant when the zone skips midnight', () => {
    // America/Santiago moves from 00:00 to 01:00 on 2026-09-06.
    const day = localDay('America/Santiago', date('2026-09-06'));
    expect(formatLocal('America/Santiago', day.start)).toBe('2026-09-06T01:00:00-03:00');
    expect(hoursLong(day)).toBe(23);
  });

  it('starts a day at the earlier midnight when midnight happens twice', () => {
    // America/Havana falls back from 01:00 to 00:00 on 2026-11-01.
    const day = localDay('America/Havana', date('2026-11-01'));
    expect(formatLocal('America/Havana', day.start)).toBe('2026-11-01T00:00:00-04:00');
    expect(hoursLong(day)).toBe(25);
  });
});

describe('runs of local days', () => {
  it('gives the 7 days ending with a reference day, oldest first, with a DST day among them', () => {
    const days = localDaysEndingWith('Europe/Rome', date('2026-03-31'), 7);
    expect(starts('Europe/Rome', days)).toEqual([
      '2026-03-25T00:00:00+01:00',
      '2026-03-26T00:00:00+01:00',
      '2026-03-27T00:00:00+01:00',
      '2026-03-28T00:00:00+01:00',
      '2026-03-29T00:00:00+01:00',
      '2026-03-30T00:00:00+02:00',
      '2026-03-31T00:00:00+02:00',
    ]);
    expect(days.map(hoursLong)).toEqual([24, 24, 24, 24, 23, 24, 24]);
    for (let index = 1; index < days.length; index++) {
      expect(days[index]!.start).toBe(days[index - 1]!.end);
    }
  });

  it('covers a whole year of Sydney days with both changes', () => {
    const days = localDays('Australia/Sydney', date('2026-01-01'), date('2026-12-31'));
    expect(days).toHaveLength(365);
    expect(days.filter((day) => hoursLong(day) === 23)).toHaveLength(1);
    expect(days.filter((day) => hoursLong(day) === 25)).toHaveLength(1);
    expect(days.reduce((total, day) => total + hoursLong(day), 0)).toBe(365 * 24);
  });

  it('does calendar arithmetic across months, years and leap days', () => {
    expect(addDays(date('2028-02-28'), 1)).toEqual(date('2028-02-29'));
    expect(addDays(date('2026-12-31'), 1)).toEqual(date('2027-01-01'));
    expect(addDays(date('2026-03-01'), -1)).toEqual(date('2026-02-28'));
    expect(daysInclusive(date('2026-01-01'), date('2026-12-31'))).toBe(365);
    expect(daysInclusive(date('2026-05-05'), date('2026-05-05'))).toBe(1);
    expect(compareLocalDates(date('2026-05-05'), date('2026-05-06'))).toBeLessThan(0);
    expect(compareLocalDates(date('2026-05-06'), date('2026-05-06'))).toBe(0);
  });
});

describe('today and the current hour', () => {
  const instant = Date.parse('2026-03-28T23:30:00Z');

  it('is today in the plant zone, not in UTC', () => {
    expect(todayIn('Europe/Rome', new Date(instant))).toEqual(date('2026-03-29'));
    expect(todayIn('Asia/Kathmandu', new Date(instant))).toEqual(date('2026-03-29'));
    expect(todayIn('America/New_York', new Date(instant))).toEqual(date('2026-03-28'));
    expect(todayIn('Australia/Sydney', new Date(instant))).toEqual(date('2026-03-29'));
  });

  it('ends the 24 hours with the current, unfinished hour', () => {
    const now = Date.parse('2026-03-29T01:20:00Z'); // 03:20+02:00, just after the change
    const hours = hoursEndingWithCurrentHour('Europe/Rome', now);
    expect(hours).toHaveLength(24);
    expect(formatLocal('Europe/Rome', hours[23]!.start)).toBe('2026-03-29T03:00:00+02:00');
    expect(formatLocal('Europe/Rome', hours[0]!.start)).toBe('2026-03-28T03:00:00+01:00');
  });

  it('floors to the local hour in a +05:45 zone', () => {
    const now = Date.parse('2026-03-29T01:20:00Z'); // 07:05+05:45
    expect(formatLocal('Asia/Kathmandu', startOfLocalHour('Asia/Kathmandu', now))).toBe(
      '2026-03-29T07:00:00+05:45',
    );
    const hours = hoursEndingWithCurrentHour('Asia/Kathmandu', now);
    expect(new Date(hours[23]!.start).toISOString()).toBe('2026-03-29T01:15:00.000Z');
  });
});

describe('local hours', () => {
  it('agrees with Luxon where an offset changes by half an hour (Lord Howe)', () => {
    const zone = 'Australia/Lord_Howe';
    // DST ends 2026-04-05 at 02:00+11:00 (15:00Z), back to 01:30+10:30.
    for (const text of ['2026-04-04T14:45:00Z', '2026-04-04T15:10:00Z', '2026-04-04T15:40:00Z']) {
      const instant = Date.parse(text);
      expect(startOfLocalHour(zone, instant), text).toBe(
        DateTime.fromMillis(instant, { zone }).startOf('hour').toMillis(),
      );
    }
  });
});

describe('local date-times to instants', () => {
  it('moves a time skipped by DST forward', () => {
    const instant = instantOf('Europe/Rome', { ...date('2026-03-29'), hour: 2, minute: 30 });
    expect(formatLocal('Europe/Rome', instant)).toBe('2026-03-29T03:30:00+02:00');
  });

  it('takes the earlier of a time that happens twice', () => {
    const instant = instantOf('Europe/Rome', { ...date('2026-10-25'), hour: 2, minute: 30 });
    expect(formatLocal('Europe/Rome', instant)).toBe('2026-10-25T02:30:00+02:00');
    expect(new Date(instant).toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('answers wall times near a change alike when asked again (remembered), as Luxon does', () => {
    // Every quarter hour of the days around both changes of a year in Rome and Sydney.
    for (const [zone, days] of [
      ['Europe/Rome', ['2026-03-28', '2026-03-29', '2026-03-30', '2026-10-24', '2026-10-25']],
      ['Australia/Sydney', ['2026-04-04', '2026-04-05', '2026-10-03', '2026-10-04']],
    ] as const) {
      for (const day of days) {
        for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
          const local = { ...date(day), hour: Math.floor(minutes / 60), minute: minutes % 60 };
          const offsets = DateTime.fromObject(local, { zone }).getPossibleOffsets();
          const expected = Math.min(...offsets.map((offset) => offset.toMillis()));
          expect(instantOf(zone, local), `${zone} ${day} ${minutes} min`).toBe(expected);
          expect(instantOf(zone, local), `${zone} ${day} ${minutes} min again`).toBe(expected);
        }
      }
    }
  });

  it('reads ordinary times in 30- and 45-minute zones', () => {
    const kathmandu = instantOf('Asia/Kathmandu', { ...date('2026-01-10'), hour: 12, minute: 0 });
    expect(new Date(kathmandu).toISOString()).toBe('2026-01-10T06:15:00.000Z');
    const kolkata = instantOf('Asia/Kolkata', { ...date('2026-01-10'), hour: 12, minute: 0 });
    expect(new Date(kolkata).toISOString()).toBe('2026-01-10T06:30:00.000Z');
  });
});

describe('timestamps with the local offset', () => {
  it('changes offset exactly at the transition instant', () => {
    const change = Date.parse('2026-03-29T01:00:00Z');
    expect(offsetMinutesAt('Europe/Rome', change - 1)).toBe(60);
    expect(offsetMinutesAt('Europe/Rome', change)).toBe(120);
    expect(formatLocal('Europe/Rome', change - 1)).toBe('2026-03-29T01:59:59.999+01:00');
    expect(formatLocal('Europe/Rome', change)).toBe('2026-03-29T03:00:00+02:00');
  });

  it('writes negative, fractional-hour and zero offsets', () => {
    const instant = Date.parse('2026-07-04T16:05:09Z');
    expect(formatLocal('America/New_York', instant)).toBe('2026-07-04T12:05:09-04:00');
    expect(formatLocal('Asia/Kathmandu', instant)).toBe('2026-07-04T21:50:09+05:45');
    expect(formatLocal('Asia/Kolkata', instant)).toBe('2026-07-04T21:35:09+05:30');
    expect(formatLocal('UTC', instant)).toBe('2026-07-04T16:05:09+00:00');
    expect(formatLocal('America/St_Johns', instant)).toBe('2026-07-04T13:35:09-02:30');
  });

  it('agrees with Intl every 7 h 15 min of a DST year', () => {
    for (const zone of ['Europe/Rome', 'Australia/Sydney', 'America/New_York']) {
      const start = Date.parse('2026-01-01T00:00:00Z');
      for (let instant = start; instant < start + 365 * 86_400_000; instant += 900_000 * 29) {
        const local = new Date(instant).toLocaleString('sv-SE', { timeZone: zone });
        expect(formatLocal(zone, instant).slice(0, 19)).toBe(local.replace(' ', 'T'));
      }
    }
  });
});
