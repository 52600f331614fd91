import { DateTime, IANAZone } from 'luxon';
import { offsetMinutesAt } from '../measurements/metrics/localTime.ts';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;
/**
 * Local wall-clock time of one plant, for the parts of the simulation people drive (cooking at
 * noon, the car arriving at 18:30, hot water at 06:30). Offsets are the metrics' own
 * (`offsetMinutesAt`: remembered per UTC day, the instant of a change found by bisection), since
 * not every zone changes on a quarter hour of UTC: St John's changed at 03:31 UTC in 2010.
 */
export class PlantClock {
  readonly #zone: IANAZone;

  constructor(timezone: string) {
    const zone = IANAZone.create(timezone);
    this.#zone = zone.isValid ? zone : IANAZone.create('UTC');
  }

  /** Minutes to add to UTC to get local time at `ms`. */
  offsetMinutes(ms: number): number {
    return offsetMinutesAt(this.#zone.name, ms);
  }

  /** Days since 1970-01-01 of the local date at `ms`. */
  localDay(ms: number): number {
    return Math.floor((ms + this.offsetMinutes(ms) * MINUTE_MS) / DAY_MS);
  }

  /** Local hours since local midnight at `ms`, fractional. */
  localHour(ms: number): number {
    const local = ms + this.offsetMinutes(ms) * MINUTE_MS;
    return (local - Math.floor(local / DAY_MS) * DAY_MS) / 3_600_000;
  }

  /** The instant of wall-clock time `minuteOfDay` (0..1439) on local day `localDay`. */
  wallClockMs(localDay: number, minuteOfDay: number): number {
    const date = new Date(localDay * DAY_MS);
    const minute = Math.min(Math.max(Math.round(minuteOfDay), 0), MINUTES_PER_DAY - 1);
    // A time skipped by a DST change moves forward, as a clock set by hand would.
    return DateTime.fromObject(
      {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth() + 1,
        day: date.getUTCDate(),
        hour: Math.floor(minute / 60),
        minute: minute % 60,
      },
      { zone: this.#zone },
    ).toMillis();
  }
}

/** Saturday or Sunday. Day 0 (1970-01-01) was a Thursday. */
export function isWeekend(localDay: number): boolean {
  const weekday = (((localDay + 4) % 7) + 7) % 7; // 0 = Sunday
  return weekday === 0 || weekday === 6;
}
