import type { DateTimeStyle, Formatters } from '../../../../i18n/format.ts';
import { currentFormatters } from '../../i18n.ts';

const DATE_AND_TIME: DateTimeStyle = { dateStyle: 'long', timeStyle: 'short' };

/**
 * "November 21, 2026 at 12:00 PM" / "21. November 2026 um 12:00" in the plant's zone, as the
 * commissioning report dates things; the user's own zone when the plant's is unknown to this
 * browser (a zone Intl refuses would otherwise leave the report without a date).
 */
export function formatInstantIn(
  at: Date | string,
  timeZone: string,
  f: Formatters = currentFormatters(),
  style: DateTimeStyle = DATE_AND_TIME,
): string {
  try {
    return f.dateTime(at, style, timeZone);
  } catch {
    return f.dateTime(at, style);
  }
}
