/**
 * UTC calendar months as epoch-millisecond ranges: the unit in which PostgreSQL keeps raw
 * readings (a partition of `readings` per month) and drops them (a whole partition at a time).
 */

export interface ReadingMonth {
  /** Epoch ms of the month's first instant (UTC), inclusive. */
  startMs: number;
  /** Epoch ms of the next month's first instant, exclusive. */
  endMs: number;
  /** The partition's table name: `readings_2026_06`. */
  partition: string;
}

const PARTITION_NAME = /^readings_(\d{4})_(\d{2})$/;

/** The UTC month `ms` falls in. */
export function readingMonthOf(ms: number): ReadingMonth {
  const date = new Date(ms);
  return monthAt(date.getUTCFullYear(), date.getUTCMonth());
}

/** The months from the one holding `fromMs` to the one holding `toMs`, both included. */
export function readingMonthsBetween(fromMs: number, toMs: number): ReadingMonth[] {
  const months: ReadingMonth[] = [];
  for (let month = readingMonthOf(fromMs); month.startMs <= toMs;) {
    months.push(month);
    month = readingMonthOf(month.endMs);
  }
  return months;
}

/** The month a partition's name stands for; undefined for a table not named like one. */
export function readingMonthOfPartition(name: string): ReadingMonth | undefined {
  const match = PARTITION_NAME.exec(name);
  if (!match) return undefined;
  const month = Number(match[2]) - 1;
  if (month < 0 || month > 11) return undefined;
  return monthAt(Number(match[1]), month);
}

function monthAt(year: number, monthIndex: number): ReadingMonth {
  const startMs = Date.UTC(year, monthIndex, 1);
  const endMs = Date.UTC(year, monthIndex + 1, 1);
  const start = new Date(startMs);
  const partition = `readings_${String(start.getUTCFullYear()).padStart(4, '0')}_${String(
    start.getUTCMonth() + 1,
  ).padStart(2, '0')}`;
  return { startMs, endMs, partition };
}
