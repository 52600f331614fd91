import type { AppLocale } from './locales.ts';

/**
 * Numbers, power, energy, percentages, durations and date-times as the chosen language writes
 * them (decimal comma in German and Italian), through Intl only. The main process (alert texts,
 * notifications) and the renderer use the same functions, so a figure reads alike everywhere.
 * Machine-readable output (CSV, file names, API bodies) never comes through here.
 */

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.DurationFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.DurationFormat>(
  key: string,
  make: () => T,
): T {
  let format = cache.get(key) as T | undefined;
  if (!format) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

export function numberFormat(
  locale: AppLocale,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  return cached(
    `n|${locale}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
  );
}

export function dateTimeFormat(
  locale: AppLocale,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  return cached(
    `d|${locale}|${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(locale, options),
  );
}

/** "1,234.5" / "1.234,5" / "1234,5": at most `maximumFractionDigits`, grouping as the language does. */
export function formatNumber(
  locale: AppLocale,
  value: number,
  maximumFractionDigits = 2,
  minimumFractionDigits = 0,
): string {
  return numberFormat(locale, { maximumFractionDigits, minimumFractionDigits }).format(value);
}

/** A file's size: "850 bytes", "12.3 kB", "1.2 MB" (decimal units, as file managers show them). */
export function formatBytes(locale: AppLocale, bytes: number): string {
  if (bytes < 1000) {
    // The short form says "850 byte" in English; the long one is each language's plural.
    return numberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
  }
  const [unit, size] = bytes < 1e6 ? ['kilobyte', bytes / 1e3] : ['megabyte', bytes / 1e6];
  return numberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(size);
}

/** A ratio as a percentage: 0.456 → "46%" / "46 %". */
export function formatPercent(locale: AppLocale, ratio: number, maximumFractionDigits = 0): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits }).format(ratio);
}

/** At most three significant figures (two below 100), as a reading is worth reading. */
function readable(locale: AppLocale, value: number): string {
  return numberFormat(locale, {
    maximumSignificantDigits: Math.abs(value) >= 100 ? 3 : 2,
  }).format(value);
}

/** "850 W", "3.4 kW" / "3,4 kW", "1.2 MW"; the sign is kept (export, discharge). */
export function formatPower(locale: AppLocale, watts: number): string {
  return scaled(locale, watts, ['W', 'kW', 'MW']);
}

/** "950 Wh", "12 kWh", "3.1 MWh". */
export function formatEnergy(locale: AppLocale, wattHours: number): string {
  return scaled(locale, wattHours, ['Wh', 'kWh', 'MWh']);
}

function scaled(
  locale: AppLocale,
  value: number,
  units: readonly [string, string, string],
): string {
  const size = Math.abs(value);
  if (size >= 1e6) return `${readable(locale, value / 1e6)} ${units[2]}`;
  if (size >= 1000) return `${readable(locale, value / 1000)} ${units[1]}`;
  if (size >= 1) return `${formatNumber(locale, Math.round(value), 0)} ${units[0]}`;
  return `${readable(locale, value)} ${units[0]}`;
}

/**
 * A length of time in its two largest units, as the language abbreviates them: "45 sec",
 * "12 min", "1 hr, 30 min" / "1 Std., 30 Min." / "1 h e 30 min", "2 days, 4 hr". Below ten
 * seconds it keeps a tenth ("1.5 sec" / "1,5 Sek."), below one a millisecond ("250 ms"): a
 * timeout reads as set.
 */
export function formatDuration(locale: AppLocale, durationMs: number): string {
  const format = cached(`t|${locale}`, () => new Intl.DurationFormat(locale, { style: 'short' }));
  const short = Math.round(durationMs);
  if (short > 0 && short < 1000) return format.format({ milliseconds: short });
  const tenths = Math.round(durationMs / 100);
  if (tenths >= 10 && tenths < 100) {
    return cached(
      `f|${locale}`,
      () => new Intl.DurationFormat(locale, { style: 'short', milliseconds: 'numeric' }),
    ).format({ seconds: Math.floor(tenths / 10), milliseconds: (tenths % 10) * 100 });
  }
  const seconds = Math.max(0, Math.round(durationMs / 1000));
  if (seconds < 60) {
    // "0 sec", not the empty string DurationFormat makes of a zero duration.
    return cached(
      `s|${locale}`,
      () => new Intl.DurationFormat(locale, { style: 'short', secondsDisplay: 'always' }),
    ).format({ seconds });
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return format.format({ minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return format.format({ hours, minutes: minutes % 60 });
  return format.format({ days: Math.floor(hours / 24), hours: hours % 24 });
}

export interface DateTimeStyle {
  dateStyle?: Intl.DateTimeFormatOptions['dateStyle'];
  timeStyle?: Intl.DateTimeFormatOptions['timeStyle'];
}

/**
 * An instant in a time zone (the plant's, or the system's when none is given), in the
 * language's own order and words: "Nov 27, 2026, 8:39 AM" / "27.11.2026, 08:39".
 */
export function formatDateTime(
  locale: AppLocale,
  instant: Date | number | string,
  style: DateTimeStyle = { dateStyle: 'medium', timeStyle: 'short' },
  timeZone?: string,
): string {
  const at = instant instanceof Date ? instant : new Date(instant);
  return dateTimeFormat(locale, { ...style, ...(timeZone ? { timeZone } : {}) }).format(at);
}

/** A calendar month in the language's words: "March 2026", "März 2026", "marzo 2026". */
export function formatMonth(locale: AppLocale, year: number, month: number): string {
  return dateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
}

/** The functions above bound to one language, for code that formats many figures. */
export function formattersFor(locale: AppLocale) {
  return {
    locale,
    number: (value: number, maximumFractionDigits?: number, minimumFractionDigits?: number) =>
      formatNumber(locale, value, maximumFractionDigits, minimumFractionDigits),
    percent: (ratio: number, maximumFractionDigits?: number) =>
      formatPercent(locale, ratio, maximumFractionDigits),
    power: (watts: number) => formatPower(locale, watts),
    bytes: (bytes: number) => formatBytes(locale, bytes),
    energy: (wattHours: number) => formatEnergy(locale, wattHours),
    duration: (durationMs: number) => formatDuration(locale, durationMs),
    dateTime: (instant: Date | number | string, style?: DateTimeStyle, timeZone?: string) =>
      formatDateTime(locale, instant, style, timeZone),
    month: (year: number, month: number) => formatMonth(locale, year, month),
  };
}

export type Formatters = ReturnType<typeof formattersFor>;

/** Why a typed number is refused: not a number, a separator that reads two ways, or grouping. */
export type DecimalProblem = 'invalid' | 'ambiguous' | 'grouped';

/** The language's decimal and grouping separators ("." and "," in English, the reverse in German). */
export function separatorsOf(locale: AppLocale): { decimal: string; group: string } {
  const parts = numberFormat(locale, { useGrouping: true }).formatToParts(12345.6);
  return {
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
  };
}

/**
 * A number as typed in a form field, in the language's way: "46,5" in German and Italian,
 * "46.5" in English; null when empty. The other language's separator is read as the decimal
 * point too (a pasted "46.4983") unless it could be a thousands separator ("1.234" in German
 * is 1.234 or 1234: refused as ambiguous). Grouped input ("1.234,5", "1 234") is refused rather
 * than guessed at, so a value is never saved a thousand times off.
 */
export function parseDecimal(locale: AppLocale, text: string): number | null | DecimalProblem {
  const trimmed = text.trim().replace(/^\u2212/, '-');
  if (trimmed === '') return null;
  const { decimal } = separatorsOf(locale);
  const foreign = decimal === ',' ? '.' : ',';
  const match = /^([+-]?)(\d*)(?:([.,])(\d*))?$/.exec(trimmed);
  if (!match) return /^[+-]?[\d.,\s\u00a0\u202f']+$/.test(trimmed) ? 'grouped' : 'invalid';
  const [, sign, whole = '', separator, fraction = ''] = match;
  if (whole === '' && fraction === '') return 'invalid';
  if (separator === foreign && fraction.length === 3 && whole !== '' && !/^0+$/.test(whole)) {
    return 'ambiguous';
  }
  const value = Number(`${sign}${whole || '0'}.${fraction || '0'}`);
  return Number.isFinite(value) ? value : 'invalid';
}

/**
 * A number as a form field shows it for editing: the language's decimal separator, no grouping
 * and every digit, so parseDecimal reads back exactly the same number.
 */
export function formatDecimal(locale: AppLocale, value: number): string {
  const plain = String(value);
  if (/e/i.test(plain)) {
    return numberFormat(locale, { useGrouping: false, maximumSignificantDigits: 17 }).format(value);
  }
  return plain.replace('.', separatorsOf(locale).decimal);
}
