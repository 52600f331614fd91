import { DateTime } from 'luxon';
import type { Granularity } from '../../../api/schemas/metrics.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { appNow } from '../clock.ts';

/**
 * Times in the plant's zone, through Luxon only. Every label a chart, a tile or a CSV shows is
 * formatted here, so "the plant's zone, named on screen" holds everywhere.
 */

/** What a label needs to show: a granularity of the API, or a plain clock / month. */
export type LabelGranularity = Granularity | 'clock' | 'month';

/**
 * Each language's numeric dates: English keeps the ISO order it has always shown, German writes
 * `29.03.2026`, Italian `29/03/2026`. Times are 24-hour in all three.
 */
const DATE: Record<AppLocale, { day: string; month: string }> = {
  en: { day: 'yyyy-MM-dd', month: 'yyyy-MM' },
  de: { day: 'dd.MM.yyyy', month: 'MM.yyyy' },
  it: { day: 'dd/MM/yyyy', month: 'MM/yyyy' },
};

function formatOf(granularity: LabelGranularity, locale: AppLocale): string {
  const { day, month } = DATE[locale];
  switch (granularity) {
    case 'seconds':
      return `${day} HH:mm:ss`;
    case 'minutes':
    case 'hours':
      return `${day} HH:mm`;
    case 'days':
      return day;
    case 'month':
      return month;
    case 'clock':
      return 'HH:mm:ss';
  }
}

/** The instant in the zone, or throws for an unknown zone (a plant's zone is validated IANA). */
export function inZone(ms: number, zone: string): DateTime {
  const time = DateTime.fromMillis(ms, { zone });
  if (!time.isValid) throw new Error(`Invalid time zone or instant: ${zone} ${ms}`);
  return time;
}

/**
 * True when the local wall time of `ms` happens twice in the zone (the repeated hour when DST
 * ends: 02:00–02:59 on 2026-10-25 in Europe/Rome), so a label must carry the offset.
 */
export function isAmbiguousLocalTime(ms: number, zone: string): boolean {
  return inZone(ms, zone).getPossibleOffsets().length > 1;
}

/**
 * A label for an instant in the plant's zone: `2026-03-29 03:00` (hours), `2026-03-29` (days),
 * `14:03:22` (clock)… Times within the repeated hour of a DST end carry their offset, so the two
 * 02:00 of 2026-10-25 in Europe/Rome read `2026-10-25 02:00 +02:00` and `2026-10-25 02:00 +01:00`.
 * German `29.03.2026 03:00`, Italian `29/03/2026 03:00`.
 */
export function formatInZone(
  ms: number,
  zone: string,
  granularity: LabelGranularity,
  locale: AppLocale = 'en',
): string {
  const time = inZone(ms, zone);
  const text = time.toFormat(formatOf(granularity, locale));
  if (granularity === 'days' || granularity === 'month') return text;
  return time.getPossibleOffsets().length > 1 ? `${text} ${time.toFormat('ZZ')}` : text;
}

/** `UTC+01:00`: the zone's offset at an instant. */
export function offsetLabel(zone: string, at: number = appNow()): string {
  return `UTC${inZone(at, zone).toFormat('ZZ')}`;
}

/** `Europe/Rome (UTC+01:00)`: the zone named on screen, with its offset at `at` (default now). */
export function zoneLabel(zone: string, at: number = appNow()): string {
  return `${zone} (${offsetLabel(zone, at)})`;
}

/**
 * "Data as of" time: `14:03:22` when `ms` is today in the zone (relative to `now`), else
 * `2026-03-28 14:03:22`.
 */
export function formatAsOf(
  ms: number,
  zone: string,
  now: number = appNow(),
  locale: AppLocale = 'en',
): string {
  const time = inZone(ms, zone);
  const sameDay = time.hasSame(inZone(now, zone), 'day');
  return time.toFormat(sameDay ? 'HH:mm:ss' : `${DATE[locale].day} HH:mm:ss`);
}

/** ISO 8601 in the zone with its offset, as the API writes it: `2026-03-29T03:00:00+02:00`. */
export function isoInZone(ms: number, zone: string): string {
  const text = inZone(ms, zone).toISO({ suppressMilliseconds: true, includeOffset: true }) ?? '';
  // Luxon writes a fixed zero offset (UTC) as `Z`; the API writes `+00:00` like any other offset.
  return text.endsWith('Z') ? `${text.slice(0, -1)}+00:00` : text;
}

/** Today's local date in the zone, `yyyy-MM-dd` (the `date` query of the daily/hourly routes). */
export function localDateOf(ms: number, zone: string): string {
  return inZone(ms, zone).toFormat('yyyy-MM-dd');
}

/** A local date-time for the history routes' startDate/endDate, `yyyy-MM-ddTHH:mm`. */
export function localDateTimeOf(ms: number, zone: string): string {
  return inZone(ms, zone).toFormat("yyyy-MM-dd'T'HH:mm");
}
