import { DateTime, IANAZone } from 'luxon';
import type { LocalDate, LocalDateTime } from '../../../api/schemas/dates.ts';

/**
 * Local days and hours of a plant's zone as epoch-millisecond ranges, and timestamps written
 * with the zone's offset. Luxon does every zone computation; this module only remembers its
 * answers, because metrics ask for the same boundaries and offsets over and over, and Luxon
 * needs several microseconds for each.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** `[start, end)` in epoch milliseconds. */
export interface TimeRange {
  start: number;
  end: number;
}

// ---- calendar arithmetic on local dates (no zone involved) ----

const epochDay = ({ year, month, day }: LocalDate) => Date.UTC(year, month - 1, day) / DAY_MS;

function fromEpochDay(days: number): LocalDate {
  const date = new Date(days * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export const addDays = (date: LocalDate, days: number): LocalDate =>
  fromEpochDay(epochDay(date) + days);

/** Negative when `a` is before `b`. */
export const compareLocalDates = (a: LocalDate, b: LocalDate): number => epochDay(a) - epochDay(b);

/** Days from `start` to `end`, both included. */
export const daysInclusive = (start: LocalDate, end: LocalDate): number =>
  epochDay(end) - epochDay(start) + 1;

// ---- local time → instant ----

/** Per zone, the first instant of each local day by its epoch day: what days are never changes. */
const dayStartsByZone = new Map<string, Map<number, number>>();
const MAX_REMEMBERED_DAYS = 100_000;

/**
 * The instant of a local wall time. A time skipped by a DST change moves forward by the size
 * of the change (02:30 on a spring-forward day is 03:30); a time that happens twice means its
 * earlier occurrence.
 */
export function instantOf(zone: string, local: LocalDateTime): number {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const steady = steadyOffsetAround(zone, wall);
  if (steady !== undefined) return wall - steady * MINUTE_MS;
  const remembered = daysOfZone(instantsNearChanges, zone);
  let instant = remembered.get(wall);
  if (instant === undefined) {
    const candidates = DateTime.fromObject(local, { zone }).getPossibleOffsets();
    if (candidates.length === 0) throw new Error(`Unknown time zone ${zone}`);
    instant = Math.min(...candidates.map((candidate) => candidate.toMillis()));
    if (remembered.size >= MAX_REMEMBERED_DAYS) remembered.clear();
    remembered.set(wall, instant);
  }
  return instant;
}

/**
 * Per zone, `instantOf` by wall time (as epoch milliseconds) for wall times within a day of an
 * offset change, which Luxon answers: a history window starting or ending near one cost
 * about twice a whole 30-day answer in Luxon's calls.
 */
const instantsNearChanges = new Map<string, Map<number, number>>();

/** The zone's remembered days in `byZone`, made on first use. */
function daysOfZone<T>(byZone: Map<string, Map<number, T>>, zone: string): Map<number, T> {
  let days = byZone.get(zone);
  if (!days) {
    days = new Map();
    byZone.set(zone, days);
  }
  return days;
}

/** `startOfLocalDay` of a day counted from 1970-01-01: keyed by a number, not a text. */
function startOfEpochDay(zone: string, day: number): number {
  const starts = daysOfZone(dayStartsByZone, zone);
  let start = starts.get(day);
  if (start === undefined) {
    start = instantOf(zone, { ...fromEpochDay(day), hour: 0, minute: 0 });
    if (starts.size >= MAX_REMEMBERED_DAYS) starts.clear();
    starts.set(day, start);
  }
  return start;
}

/** The first instant of a local day (not always 00:00: some zones skip midnight). */
export const startOfLocalDay = (zone: string, date: LocalDate): number =>
  startOfEpochDay(zone, epochDay(date));

/** A local day: 23, 24 or 25 hours long. */
export const localDay = (zone: string, date: LocalDate): TimeRange => {
  const day = epochDay(date);
  return { start: startOfEpochDay(zone, day), end: startOfEpochDay(zone, day + 1) };
};

/** Every local day from `first` to `last` inclusive, oldest first. */
export function localDays(zone: string, first: LocalDate, last: LocalDate): TimeRange[] {
  const firstDay = epochDay(first);
  const lastDay = epochDay(last);
  const days: TimeRange[] = [];
  let start = startOfEpochDay(zone, firstDay);
  for (let day = firstDay; day <= lastDay; day++) {
    const end = startOfEpochDay(zone, day + 1);
    days.push({ start, end });
    start = end;
  }
  return days;
}

/** The `count` local days ending with `reference` (included), oldest first. */
export const localDaysEndingWith = (
  zone: string,
  reference: LocalDate,
  count: number,
): TimeRange[] => localDays(zone, addDays(reference, 1 - count), reference);

/** The local date of an instant. */
export function localDateOf(zone: string, instant: number): LocalDate {
  const wall = wallClock(zone, instant);
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/** Today in the plant's zone by the injectable clock. */
export const todayIn = (zone: string, now: Date): LocalDate => localDateOf(zone, now.getTime());

/** The start of the local hour holding an instant (in +05:45 zones, at :15 past a UTC hour). */
export function startOfLocalHour(zone: string, instant: number): number {
  const offset = offsetMinutesAt(zone, instant);
  const wall = instant + offset * MINUTE_MS;
  const start = instant - (((wall % HOUR_MS) + HOUR_MS) % HOUR_MS);
  if (offsetMinutesAt(zone, start) === offset) return start;
  // The hour began under another offset (a change of less than an hour, as on Lord Howe).
  return DateTime.fromMillis(instant, { zone }).startOf('hour').toMillis();
}

/** `count` consecutive one-hour ranges ending at `end`. */
export function hoursEndingAt(end: number, count: number): TimeRange[] {
  const hours: TimeRange[] = [];
  for (let start = end - count * HOUR_MS; start < end; start += HOUR_MS) {
    hours.push({ start, end: start + HOUR_MS });
  }
  return hours;
}

/**
 * The 24 hours ending at the end of a local day: on a 25-hour day its first hour is left out,
 * on a 23-hour day the previous day's last hour is in.
 */
export function hoursEndingWithDay(zone: string, date: LocalDate): readonly TimeRange[] {
  const end = startOfEpochDay(zone, epochDay(date) + 1);
  let hours = dayHoursByEnd.get(end);
  if (!hours) {
    if (dayHoursByEnd.size >= MAX_REMEMBERED_DAY_HOURS) dayHoursByEnd.clear();
    hours = hoursEndingAt(end, 24);
    dayHoursByEnd.set(end, hours);
  }
  return hours;
}

/**
 * `hoursEndingWithDay`'s hours by the instant they end at (whatever the zone), made once as the
 * days' boundaries are: 24 ranges cost an hourly answer more to make than to look up. About
 * 600 kB at most: a year and more of days of one zone, or recent days of many zones.
 */
const dayHoursByEnd = new Map<number, readonly TimeRange[]>();
const MAX_REMEMBERED_DAY_HOURS = 512;

/** The 24 hours ending with the current local hour (the current, unfinished hour is the last). */
export const hoursEndingWithCurrentHour = (zone: string, now: number): TimeRange[] =>
  hoursEndingAt(startOfLocalHour(zone, now) + HOUR_MS, 24);

// ---- instant → local text ----

interface UtcDayOffsets {
  /** Offset in minutes at the start of the UTC day. */
  before: number;
  after: number;
  /** The first instant with offset `after`; Infinity when the day has no transition. */
  changesAt: number;
}

const zoneDays = new Map<string, Map<number, UtcDayOffsets>>();

/**
 * Offsets of a UTC day, found with two Luxon calls (and a bisection on the rare day the zone
 * changes its offset). No zone changes its offset twice within one day.
 */
function offsetsOfUtcDay(zone: string, dayIndex: number): UtcDayOffsets {
  const days = daysOfZone(zoneDays, zone);
  let offsets = days.get(dayIndex);
  if (offsets) return offsets;
  const ianaZone = IANAZone.create(zone);
  let low = dayIndex * DAY_MS;
  let high = low + DAY_MS - 1;
  // Whole minutes: only local mean times before ~1900 had offsets with seconds.
  const offsetAt = (instant: number) => Math.round(ianaZone.offset(instant));
  const before = offsetAt(low);
  const after = offsetAt(high);
  if (before === after) {
    offsets = { before, after, changesAt: Infinity };
  } else {
    // Invariant: offset(low) === before, offset(high) === after.
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (offsetAt(middle) === before) low = middle;
      else high = middle;
    }
    offsets = { before, after, changesAt: high };
  }
  if (days.size >= MAX_REMEMBERED_DAYS) days.clear();
  days.set(dayIndex, offsets);
  return offsets;
}

/**
 * The zone's offset (minutes) when it holds from the UTC day before `wall`'s to the day after,
 * else undefined. An instant is less than a day from its wall time, so a wall time with a steady
 * offset around it is neither skipped nor repeated: its one instant is `wall` minus that offset,
 * what Luxon would answer, from remembered offsets instead of a Luxon call per request.
 */
function steadyOffsetAround(zone: string, wall: number): number | undefined {
  const day = Math.floor(wall / DAY_MS);
  const offset = offsetsOfUtcDay(zone, day).before;
  for (let near = day - 1; near <= day + 1; near++) {
    const offsets = offsetsOfUtcDay(zone, near);
    if (offsets.changesAt !== Infinity || offsets.before !== offset) return undefined;
  }
  return offset;
}

/** The zone's offset from UTC at an instant, in minutes. */
export function offsetMinutesAt(zone: string, instant: number): number {
  const offsets = offsetsOfUtcDay(zone, Math.floor(instant / DAY_MS));
  return instant < offsets.changesAt ? offsets.before : offsets.after;
}

/** A Date whose UTC fields are the zone's wall clock at `instant`. */
const wallClock = (zone: string, instant: number) =>
  new Date(instant + offsetMinutesAt(zone, instant) * MINUTE_MS);

/** "00" to "59": every field of a time of day but the milliseconds. */
const TWO_DIGITS = Array.from({ length: 60 }, (_, value) =>
  value < 10 ? `0${value}` : `${value}`,
);

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${TWO_DIGITS[Math.floor(absolute / 60)]}:${TWO_DIGITS[absolute % 60]}`;
}

/** Date prefixes by day: a daily series writes a new day at every point. */
const datePrefixes = new Map<number, string>();
const MAX_REMEMBERED_PREFIXES = 4096;

/** `yyyy-MM-ddT` of a day counted from 1970-01-01. */
function datePrefixOf(epochDay: number): string {
  const remembered = datePrefixes.get(epochDay);
  if (remembered !== undefined) return remembered;
  const date = new Date(epochDay * DAY_MS);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  const prefix = `${year}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]}T`;
  if (datePrefixes.size >= MAX_REMEMBERED_PREFIXES) datePrefixes.clear();
  datePrefixes.set(epochDay, prefix);
  return prefix;
}

/**
 * One `LocalTimestamps` per zone and framing, so its texts of whole hours outlive a series: 64
 * zones, each bare and as a series point's start (`seriesJson.ts`).
 */
const timestampsByZone = new Map<string, LocalTimestamps>();
const MAX_REMEMBERED_ZONES = 128;

/**
 * ISO 8601 in a zone's local time with its offset, `2026-03-29T03:00:00+02:00`; milliseconds
 * only when there are some. UTC is written `+00:00` like every other offset.
 *
 * For the many timestamps of a series: consecutive instants mostly share their UTC day's
 * offsets, their offset's text and their local date, so each is worked out once per change.
 */
export class LocalTimestamps {
  readonly #zone: string;
  /**
   * Written before and after every timestamp, kept with its date and its hours of day: a series
   * point's start (`seriesJson.ts`) then comes in two pieces rather than joined from four.
   */
  readonly #before: string;
  readonly #after: string;
  #utcDay = NaN;
  #offsets: UtcDayOffsets = { before: 0, after: 0, changesAt: Infinity };
  #offset = NaN;
  #offsetText = '';
  #localDay = NaN;
  #datePrefix = '';
  /** `HH:00:00` and the offset's text, by local hour, for the current offset. */
  #wholeHours: (string | undefined)[] = [];
  /** `#wholeHours` by offset: a zone has one or two offsets. */
  readonly #wholeHoursByOffset = new Map<number, (string | undefined)[]>();

  constructor(zone: string, before = '', after = '') {
    this.#zone = zone;
    this.#before = before;
    this.#after = after;
  }

  /**
   * The zone's shared instance with that framing (`format` keeps no state a caller could see).
   */
  static of(zone: string, before = '', after = ''): LocalTimestamps {
    const key = before === '' && after === '' ? zone : `${zone}\u0000${before}\u0000${after}`;
    let timestamps = timestampsByZone.get(key);
    if (!timestamps) {
      if (timestampsByZone.size >= MAX_REMEMBERED_ZONES) timestampsByZone.clear();
      timestamps = new LocalTimestamps(zone, before, after);
      timestampsByZone.set(key, timestamps);
    }
    return timestamps;
  }

  format(instant: number): string {
    const utcDay = Math.floor(instant / DAY_MS);
    if (utcDay !== this.#utcDay) {
      this.#offsets = offsetsOfUtcDay(this.#zone, utcDay);
      this.#utcDay = utcDay;
    }
    const offsets = this.#offsets;
    const offset = instant < offsets.changesAt ? offsets.before : offsets.after;
    if (offset !== this.#offset) {
      this.#offset = offset;
      this.#offsetText = offsetText(offset);
      let wholeHours = this.#wholeHoursByOffset.get(offset);
      if (!wholeHours) this.#wholeHoursByOffset.set(offset, (wholeHours = []));
      this.#wholeHours = wholeHours;
    }
    const wall = instant + offset * MINUTE_MS;
    const localDay = Math.floor(wall / DAY_MS);
    if (localDay !== this.#localDay) {
      this.#localDay = localDay;
      this.#datePrefix = this.#before + datePrefixOf(localDay);
    }
    const milliseconds = wall - localDay * DAY_MS;
    // Whole hours (every point of an hourly series): the rest of the text once per hour of day.
    if (milliseconds % HOUR_MS === 0) {
      const hour = milliseconds / HOUR_MS;
      const rest = (this.#wholeHours[hour] ??=
        `${TWO_DIGITS[hour]}:00:00${this.#offsetText}${this.#after}`);
      return this.#datePrefix + rest;
    }
    const seconds = Math.floor(milliseconds / 1000);
    const fraction = milliseconds - seconds * 1000;
    return (
      this.#datePrefix +
      TWO_DIGITS[Math.floor(seconds / 3600)] +
      ':' +
      TWO_DIGITS[Math.floor(seconds / 60) % 60] +
      ':' +
      TWO_DIGITS[seconds % 60] +
      (fraction === 0 ? '' : `.${String(fraction).padStart(3, '0')}`) +
      this.#offsetText +
      this.#after
    );
  }
}

/** One timestamp as `LocalTimestamps` writes it. */
export const formatLocal = (zone: string, instant: number): string =>
  LocalTimestamps.of(zone).format(instant);
