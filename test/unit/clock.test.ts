import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { clockFrom, clockStartingAt, parseClockStart, systemClock } from '../../server/clock.ts';

/** The server's settable clock: what `--clock` accepts, and how the clock advances. */

describe('parseClockStart', () => {
  it.each([
    ['2026-06-21T12:00:00+02:00', '2026-06-21T10:00:00.000Z'],
    ['2026-06-21T10:00:00Z', '2026-06-21T10:00:00.000Z'],
    ['2026-06-21T10:00Z', '2026-06-21T10:00:00.000Z'],
    ['2026-10-25T02:30:00+01:00', '2026-10-25T01:30:00.000Z'],
    ['2026-10-25T02:30:00+02:00', '2026-10-25T00:30:00.000Z'],
    ['2026-12-31T23:30:00.250+05:45', '2026-12-31T17:45:00.250Z'],
    ['2026-06-21T12:00:00-0330', '2026-06-21T15:30:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(new Date(parseClockStart(text)).toISOString()).toBe(iso);
  });

  it.each([
    '',
    'now',
    '2026-06-21',
    '2026-06-21T12:00:00',
    '2026-06-21 12:00:00+02:00',
    '2026-02-30T12:00:00Z',
    '2026-06-21T25:00:00Z',
    '1750500000000',
  ])('refuses %j with what it expects', (text) => {
    expect(() => parseClockStart(text)).toThrow(
      `The clock must be an ISO 8601 date-time with an offset, such as 2026-06-21T12:00:00+02:00 or 2026-06-21T10:00:00Z, not '${text}'`,
    );
  });

  it('reads back any instant written with any whole-minute offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(9998, 0, 1) }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (ms, offsetMinutes) => {
          const text = DateTime.fromMillis(ms, {
            zone: `UTC${offsetMinutes >= 0 ? '+' : '-'}${Math.floor(Math.abs(offsetMinutes) / 60)}:${String(Math.abs(offsetMinutes) % 60).padStart(2, '0')}`,
          }).toISO()!;
          expect(parseClockStart(text)).toBe(ms);
        },
      ),
    );
  });
});

describe('clockStartingAt', () => {
  it('starts at the instant and advances with the elapsed time, not the system time', () => {
    let elapsed = 5_000;
    const clock = clockStartingAt(Date.parse('2026-03-29T00:30:00Z'), () => elapsed);
    expect(clock().toISOString()).toBe('2026-03-29T00:30:00.000Z');
    elapsed += 90 * 60_000;
    expect(clock().toISOString()).toBe('2026-03-29T02:00:00.000Z');
  });
});

describe('clockFrom', () => {
  it('is the system clock without a start', () => {
    expect(clockFrom(undefined)).toBe(systemClock);
  });

  it('accepts a Date, epoch ms or text, and refuses what is not an instant', () => {
    const at = Date.parse('2026-12-31T23:30:00+01:00');
    for (const start of [new Date(at), at, '2026-12-31T23:30:00+01:00']) {
      const reading = clockFrom(start)().getTime();
      expect(reading).toBeGreaterThanOrEqual(at);
      expect(reading).toBeLessThan(at + 5_000);
    }
    expect(() => clockFrom(Number.NaN)).toThrow('The clock must be');
    expect(() => clockFrom('noon')).toThrow("not 'noon'");
  });
});
