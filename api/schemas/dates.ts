import { z } from 'zod';

/**
 * Local dates and date-times in a plant's zone, as the specification writes them: `yyyy-MM-dd`
 * and `yyyy-MM-dd'T'HH:mm`. A value that does not parse, or names no calendar day (Feb 30), is a
 * 400 naming the parameter and the expected format.
 */

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Years a plant's data can have. From 1980 every IANA zone's offset is a whole number of quarter
 * hours (before, some zones kept local mean time such as +05:41:16), so local hours and days are
 * whole 15-minute buckets; before 100, JavaScript even reads years as 19xx. At 9999 a day's end
 * would need a five-digit year.
 */
export const FIRST_YEAR = 1980;
export const LAST_YEAR = 9998;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

function isCalendarDay({ year, month, day }: LocalDate): boolean {
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function parseLocalDate(text: string): LocalDate | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isCalendarDay(date) ? date : undefined;
}

export function parseLocalDateTime(text: string): LocalDateTime | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const value = {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4]),
    minute: Number(match[5]),
  };
  return isCalendarDay(value) && value.hour < 24 && value.minute < 60 ? value : undefined;
}

export const formatLocalDate = ({ year, month, day }: LocalDate) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

export function localDateParam(name: string) {
  const message = `${name} must be a date in the format yyyy-MM-dd, from ${FIRST_YEAR} to ${LAST_YEAR}`;
  return z
    .string({ error: message })
    .transform((text, context) => {
      const date = parseLocalDate(text);
      if (!date) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return date;
    })
    .meta({ description: `Local date in the plant's time zone, yyyy-MM-dd` });
}

export function localDateTimeParam(name: string) {
  const message = `${name} must be a date-time in the format yyyy-MM-dd'T'HH:mm, from ${FIRST_YEAR} to ${LAST_YEAR}`;
  return z
    .string({ error: message })
    .transform((text, context) => {
      const value = parseLocalDateTime(text);
      if (!value) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value;
    })
    .meta({ description: `Local date-time in the plant's time zone, yyyy-MM-dd'T'HH:mm` });
}
