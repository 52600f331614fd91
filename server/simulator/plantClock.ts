import { DateTime, IANAZone } from 'luxon';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;
const SLOT_MS = 900_000;
const MAX_CACHED_SLOTS = 20_000;

/**
 * Local wall-clock time of one plant, for the parts of the simulation people drive (cooking at
 * noon, the car arriving at 18:30, hot water at 06:30). Offsets come from Luxon and are cached
 * per 15-minute slot: every zone's transitions fall on 15-minute boundaries of UTC.
 */
export class PlantClock {
  readonly #zone: IANAZone;
  readonly #offsets = new Map<number, number>();

  constructor(timezone: string) {
    const zone = IANAZone.create(timezone);
    this.#zone = zone.isValid ? zone : IANAZone.create('UTC');
  }

  /** Minutes to add to UTC to get local time at `ms`. */
  offsetMinutes(ms: number): number {
    const slot = Math.floor(ms / SLOT_MS);
    let offset = this.#offsets.get(slot);
    if (offset === undefined) {
      if (this.#offsets.size >= MAX_CACHED_SLOTS) this.#offsets.clear();
      offset = this.#zone.offset(slot * SLOT_MS);
      this.#offsets.set(slot, offset);
    }
    return offset;
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
