import { DateTime } from 'luxon';
import { dateTimeFormat, formattersFor } from './format.ts';
import type { AppLocale } from './locales.ts';
import type { Translate } from './translator.ts';

/**
 * A text kept or handed on (an alert's message, an acceptance finding, a wiring check's finding)
 * as a message key and its raw figures, so that it is put into words in the reader's language
 * when it is read, not in the language of the moment it was made. Figures stay numbers and instants until then; names (of a
 * sensor, of a unit) stay as they were written.
 */
export interface HostText {
  key: string;
  params?: Readonly<Record<string, TextParam>>;
  /** The count that chooses the plural form (`{n}` in the message). */
  plural?: number;
}

export type TextParam =
  /** A name or other words kept as written; a number as it is (an integer ratio, a count). */
  | string
  | number
  /** At most `digits` decimals (2 by default), at least `minDigits`. */
  | { number: number; digits?: number; minDigits?: number }
  /** A ratio, 0.58 → "58%" / "58 %". */
  | { percent: number; digits?: number }
  | { power: number }
  | { energy: number }
  | { duration: number }
  /** An instant (epoch ms) told on the plant's clock: the time today, weekday and time this week. */
  | { clock: number; zone: string }
  /** A day (epoch ms) as the language writes dates, in the zone: "29 Mar 2026", "29.03.2026". */
  | { date: number; zone: string }
  | HostText
  /** Texts one after the other: comma-separated, or as `separator` says (" " for sentences). */
  | { list: readonly TextParam[]; separator?: string };

/**
 * What a host stored: any of the above (texts made before the languages were there are plain
 * English strings, shown as they are).
 */
export type StoredText = TextParam;

export interface Wording {
  t: Translate;
  locale: AppLocale;
  /** Epoch ms: a clock reads "10:58" today and "Sat 10:58" within the week. */
  now: number;
}

export function wordsOf(param: StoredText, wording: Wording): string {
  if (typeof param === 'string') return param;
  if (typeof param === 'number') return String(param);
  const format = formattersFor(wording.locale);
  if ('key' in param) return messageWords(param, wording);
  if ('list' in param) {
    return param.list.map((item) => wordsOf(item, wording)).join(param.separator ?? ', ');
  }
  if ('number' in param) return format.number(param.number, param.digits, param.minDigits);
  if ('percent' in param) return format.percent(param.percent, param.digits);
  if ('power' in param) return format.power(param.power);
  if ('energy' in param) return format.energy(param.energy);
  if ('duration' in param) return format.duration(param.duration);
  if ('date' in param) {
    return dateTimeFormat(wording.locale, { dateStyle: 'medium', timeZone: param.zone }).format(
      param.date,
    );
  }
  return clockWords(wording.locale, param.clock, param.zone, wording.now);
}

function messageWords(text: HostText, wording: Wording): string {
  const named = Object.fromEntries(
    Object.entries(text.params ?? {}).map(([name, value]) => [name, wordsOf(value, wording)]),
  );
  return text.plural === undefined
    ? wording.t(text.key, named)
    : wording.t(text.key, named, text.plural);
}

/** "10:58 AM" today (in the zone), "Sat 10:58 AM" within six days, else date and time. */
export function clockWords(locale: AppLocale, instantMs: number, zone: string, nowMs: number) {
  const time = DateTime.fromMillis(instantMs, { zone });
  const format = (options: Intl.DateTimeFormatOptions) =>
    dateTimeFormat(locale, { ...options, timeZone: zone }).format(instantMs);
  if (Math.abs(nowMs - instantMs) >= 6 * 86_400_000) {
    return format({ dateStyle: 'medium', timeStyle: 'short' });
  }
  const clock = format({ timeStyle: 'short' });
  if (time.hasSame(DateTime.fromMillis(nowMs, { zone }), 'day')) return clock;
  // The language's own time style ("09:00" in German), which a weekday option would lose.
  return `${format({ weekday: 'short' })} ${clock}`;
}
