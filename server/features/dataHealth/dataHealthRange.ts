import { DATA_HEALTH_DEFAULT_DAYS, type LocalDate } from '../../../api/index.ts';
import { addDays, todayIn } from '../../measurements/metrics/localTime.ts';
import { checkDayRange } from '../../pvHealth/pvHealthRange.ts';

/**
 * The local days data health looks at: `startDate` to `endDate` inclusive. Without `endDate`,
 * today (so far); without `startDate`, the DATA_HEALTH_DEFAULT_DAYS days ending with `endDate`.
 * Inverted or longer than MAX_SUMMARY_DAYS: 422.
 */
export function dataHealthDays(
  zone: string,
  startDate: LocalDate | undefined,
  endDate: LocalDate | undefined,
  now: Date,
): { first: LocalDate; last: LocalDate } {
  const last = endDate ?? todayIn(zone, now);
  const first = startDate ?? addDays(last, 1 - DATA_HEALTH_DEFAULT_DAYS);
  const startName = startDate
    ? 'startDate'
    : `startDate (default endDate − ${DATA_HEALTH_DEFAULT_DAYS - 1} days)`;
  const endName = endDate ? 'endDate' : 'endDate (default today)';
  checkDayRange(first, last, startName, endName);
  return { first, last };
}
