import { formatLocalDate, type LocalDateTime } from '../../../api/index.ts';
import { unprocessable } from '../../http/errors.ts';
import { instantOf, type TimeRange } from './localTime.ts';

const pad2 = (value: number) => String(value).padStart(2, '0');

/** `yyyy-MM-dd'T'HH:mm`, as the parameter was written. */
export const describeLocal = (value: LocalDateTime): string =>
  `${formatLocalDate(value)}T${pad2(value.hour)}:${pad2(value.minute)}`;

const minutesOf = (value: LocalDateTime) =>
  Date.UTC(value.year, value.month - 1, value.day, value.hour, value.minute);

/**
 * [startDate, endDate) of the sensor-history routes as instants; 422 when startDate is after
 * endDate (compared as written, in local time). Equal dates make an empty range.
 */
export function historyRange(
  zone: string,
  startDate: LocalDateTime,
  endDate: LocalDateTime,
): TimeRange {
  if (minutesOf(startDate) > minutesOf(endDate)) {
    throw unprocessable(
      `startDate ${describeLocal(startDate)} is after endDate ${describeLocal(endDate)}`,
    );
  }
  const start = instantOf(zone, startDate);
  // A start in a DST gap moves forward and can pass an end written just after it.
  return { start, end: Math.max(start, instantOf(zone, endDate)) };
}
