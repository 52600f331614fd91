import type { ReportScheduleSettings } from '../../ipc/contract.ts';
import {
  previousMonth,
  periodKey,
  type ReportPeriod,
} from '../../../server/domain/reports/period.ts';

/**
 * When the monthly report is due. The schedule's day is a day of the month (1..28: every month
 * has it); on that local day, and on every later day of the month, last month's report is due
 * until it has been written. A run missed while the app was closed is caught up once at the
 * next start: only the latest due period, never a backlog. Local days come from the caller
 * (the host's zone), so a change of clock never moves or repeats a run.
 */

export const DEFAULT_SCHEDULE: ReportScheduleSettings = {
  enabled: false,
  dayOfMonth: 1,
  folder: null,
};

/** The month whose report is due on `today` (local `yyyy-MM-dd`). */
export function duePeriod(settings: ReportScheduleSettings, today: string): ReportPeriod {
  const lastMonth = previousMonth(today);
  if (Number(today.slice(8, 10)) >= settings.dayOfMonth) return lastMonth;
  // Before this month's day: the run of last month's day is the latest one due.
  const first = `${periodKey(lastMonth)}-01`;
  return previousMonth(first);
}

/** The period to write now, or null: off, no folder, or the due period already written. */
export function periodToWrite(
  settings: ReportScheduleSettings,
  lastWritten: string | null,
  today: string,
): ReportPeriod | null {
  if (!settings.enabled || settings.folder === null) return null;
  const due = duePeriod(settings, today);
  return lastWritten !== null && lastWritten >= periodKey(due) ? null : due;
}
