/**
 * A report's period: a calendar month or year in the plant's own days. Dates are local
 * `yyyy-MM-dd`, as the metrics routes take them; the instants come from the API's answers
 * (their `from`/`to` carry the zone's offsets), so nothing here needs a time-zone database.
 */

export type ReportPeriod =
  { kind: 'month'; year: number; month: number } | { kind: 'year'; year: number };

export interface LocalDateRange {
  /** First day, inclusive. */
  start: string;
  /** Last day, inclusive. */
  end: string;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function periodRange(period: ReportPeriod): LocalDateRange {
  if (period.kind === 'year')
    return { start: `${pad(period.year, 4)}-01-01`, end: `${pad(period.year, 4)}-12-31` };
  const prefix = `${pad(period.year, 4)}-${pad(period.month)}`;
  return { start: `${prefix}-01`, end: `${prefix}-${pad(daysInMonth(period.year, period.month))}` };
}

/** Every local day of a range, in order. */
export function daysOf(range: LocalDateRange): string[] {
  const days: string[] = [];
  const [y, m, d] = range.start.split('-').map(Number) as [number, number, number];
  for (let at = Date.UTC(y, m - 1, d); ; at += 86_400_000) {
    const day = new Date(at).toISOString().slice(0, 10);
    if (day > range.end) return days;
    days.push(day);
  }
}

/** Stable key for file names and settings: `2026-03`, `2026`. */
export function periodKey(period: ReportPeriod): string {
  return period.kind === 'year'
    ? pad(period.year, 4)
    : `${pad(period.year, 4)}-${pad(period.month)}`;
}

export function parsePeriodKey(key: string): ReportPeriod | null {
  const match = /^(\d{4})(?:-(0[1-9]|1[0-2]))?$/.exec(key);
  if (!match) return null;
  const year = Number(match[1]);
  return match[2] ? { kind: 'month', year, month: Number(match[2]) } : { kind: 'year', year };
}

/** The period is over on `today` (local `yyyy-MM-dd`): only past periods make a final report. */
export function isPast(period: ReportPeriod, today: string): boolean {
  return periodRange(period).end < today;
}

/** The month before the one `today` (local `yyyy-MM-dd`) falls in. */
export function previousMonth(today: string): ReportPeriod {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return month === 1
    ? { kind: 'month', year: year - 1, month: 12 }
    : { kind: 'month', year, month: month - 1 };
}
