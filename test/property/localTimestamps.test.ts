import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { LocalDateTime } from '../../api/index.ts';
import {
  LocalTimestamps,
  formatLocal,
  instantOf,
} from '../../server/measurements/metrics/localTime.ts';

/**
 * Local time without a Luxon call per value (`localTime.ts`), against Luxon itself: timestamps
 * written from remembered offsets, and wall times read into instants from them when the offset
 * is steady around, in zones with DST, with +05:45 and -02:30 offsets, Lord Howe's half-hour
 * DST, Dublin's negative DST, Troll's two-hour DST, Samoa's skipped day and Chatham's +13:45,
 * over runs of instants that cross their changes, and in every zone this runtime knows.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const ZONES = [
  'UTC',
  'Europe/Rome',
  'Europe/Dublin',
  'America/New_York',
  'America/St_Johns',
  'America/Santiago',
  'America/Havana',
  'America/Sao_Paulo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Tehran',
  'Africa/Casablanca',
  'Antarctica/Troll',
  'Pacific/Apia',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
] as const;

const EVERY_ZONE = Intl.supportedValuesOf('timeZone');

/** Luxon's ISO text, with UTC written `+00:00` as the API writes every offset. */
const luxonText = (zone: string, instant: number) =>
  DateTime.fromMillis(instant, { zone })
    .toISO({ suppressMilliseconds: true })!
    .replace(/Z$/, '+00:00');

/** The earlier instant of a wall time, or the moved-forward one in a gap, by Luxon alone. */
const luxonInstant = (zone: string, local: LocalDateTime) =>
  Math.min(
    ...DateTime.fromObject(local, { zone })
      .getPossibleOffsets()
      .map((candidate) => candidate.toMillis()),
  );

const changesByZoneYear = new Map<string, number[]>();

/** The instants of a year (1980–2040) where the zone's offset changes, to the minute. */
function changesOf(zone: string, year: number): number[] {
  const key = `${zone}|${year}`;
  const known = changesByZoneYear.get(key);
  if (known) return known;
  const iana = IANAZone.create(zone);
  const changes: number[] = [];
  const start = Date.UTC(year, 0, 1);
  for (let low = start; low < Date.UTC(year + 1, 0, 1); low += 6 * HOUR) {
    let high = low + 6 * HOUR;
    if (iana.offset(low) === iana.offset(high)) continue;
    let from = low;
    while (high - from > MIN) {
      const middle = from + Math.floor((high - from) / 2 / MIN) * MIN;
      if (iana.offset(middle) === iana.offset(from)) from = middle;
      else high = middle;
    }
    changes.push(high);
  }
  changesByZoneYear.set(key, changes);
  return changes;
}

/** An instant between 1980 and 2040, or one a few days around one of a zone's changes. */
const instantNearChanges = (zone: string) =>
  fc.oneof(
    fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2040, 0, 1) }),
    fc
      .tuple(
        fc.integer({ min: 1980, max: 2039 }),
        fc.nat(),
        fc.integer({ min: -2 * DAY, max: 2 * DAY }),
      )
      .map(([year, pick, shift]) => {
        const changes = changesOf(zone, year);
        return changes.length === 0
          ? Date.UTC(year, 5, 1) + shift
          : changes[pick % changes.length]! + shift;
      }),
  );

/** A run of instants from a start, as a series' buckets or samples follow each other. */
const runOfInstants = fc.constantFrom(...ZONES).chain((zone) =>
  fc.record({
    zone: fc.constant(zone),
    // Often on a whole UTC hour or quarter: an hourly series' points, whole local hours or not.
    start: instantNearChanges(zone).chain((instant) =>
      fc.constantFrom(
        instant,
        Math.floor(instant / HOUR) * HOUR,
        Math.floor(instant / (15 * MIN)) * 15 * MIN,
      ),
    ),
    step: fc.constantFrom(HOUR, 15 * MIN, MIN, 1000, 1, 45 * MIN + 7, DAY),
    count: fc.integer({ min: 1, max: 200 }),
  }),
);

describe('timestamps written from remembered offsets', () => {
  it('are Luxon’s over runs of instants across DST changes', () => {
    fc.assert(
      fc.property(runOfInstants, ({ zone, start, step, count }) => {
        const timestamps = new LocalTimestamps(zone);
        for (let index = 0; index < count; index++) {
          const instant = start + index * step;
          expect(timestamps.format(instant)).toBe(luxonText(zone, instant));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('are Luxon’s in every zone, one writer for instants in any order', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EVERY_ZONE),
        fc.array(fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2040, 0, 1) }), {
          minLength: 1,
          maxLength: 20,
        }),
        (zone, instants) => {
          const timestamps = new LocalTimestamps(zone);
          for (const instant of instants) {
            expect(timestamps.format(instant)).toBe(luxonText(zone, instant));
            expect(formatLocal(zone, instant)).toBe(luxonText(zone, instant));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('wall times read into instants', () => {
  const wallTime = (instant: number): LocalDateTime => {
    const date = new Date(instant);
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
    };
  };

  it('are Luxon’s, skipped and repeated times near DST changes included', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...ZONES)
          .chain((zone) => fc.tuple(fc.constant(zone), instantNearChanges(zone))),
        ([zone, instant]) => {
          // Near a change in UTC is near it in local time too: a wall time around the change.
          const local = wallTime(instant);
          expect(instantOf(zone, local)).toBe(luxonInstant(zone, local));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('are Luxon’s in every zone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EVERY_ZONE),
        fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2040, 0, 1) }),
        (zone, instant) => {
          const local = wallTime(instant);
          expect(instantOf(zone, local)).toBe(luxonInstant(zone, local));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
