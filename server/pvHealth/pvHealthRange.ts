import { formatLocalDate, MAX_SUMMARY_DAYS, type LocalDate } from '../../api/index.ts';
import { unprocessable } from '../http/errors.ts';
import {
  addDays,
  compareLocalDates,
  daysInclusive,
  todayIn,
} from '../measurements/metrics/localTime.ts';

/**
 * The local days PV health looks at: `startDate` to `endDate` inclusive. Without `endDate`, the
 * last full day (yesterday); without `startDate`, the 7 days ending with `endDate`. Inverted or
 * longer than 366 days: 422.
 */

export const DEFAULT_HEALTH_DAYS = 7;

export interface HealthRange {
  first: LocalDate;
  last: LocalDate;
}

export function healthRange(
  zone: string,
  startDate: LocalDate | undefined,
  endDate: LocalDate | undefined,
  now: Date,
): HealthRange {
  const last = endDate ?? addDays(todayIn(zone, now), -1);
  const first = startDate ?? addDays(last, 1 - DEFAULT_HEALTH_DAYS);
  const startName = startDate ? 'startDate' : 'startDate (default endDate − 6 days)';
  const endName = endDate ? 'endDate' : 'endDate (default yesterday)';
  checkDayRange(first, last, startName, endName);
  return { first, last };
}

/**
 * A range of local days as asked: 422 when `first` is after `last` or it spans more than
 * MAX_SUMMARY_DAYS days. The names say which parameters (or defaults) gave each end.
 */
export function checkDayRange(
  first: LocalDate,
  last: LocalDate,
  startName: string,
  endName: string,
): void {
  if (compareLocalDates(first, last) > 0) {
    throw unprocessable(
      `${startName} ${formatLocalDate(first)} is after ${endName} ${formatLocalDate(last)}`,
    );
  }
  const days = daysInclusive(first, last);
  if (days > MAX_SUMMARY_DAYS) {
    throw unprocessable(
      `The range from ${startName} ${formatLocalDate(first)} to ${endName} ${formatLocalDate(last)} ` +
        `spans ${days} days; at most ${MAX_SUMMARY_DAYS} days are allowed`,
    );
  }
}
