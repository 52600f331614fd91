import { localDateOf, localDay, type TimeRange } from './metrics/localTime.ts';
import { NeumaierSum } from './neumaierSum.ts';
import type { Rollup } from './rollups.ts';

/**
 * Hourly and daily rollups made from 15-minute rollups, never from raw readings (so they stay
 * right once raw readings are dropped), the way hierarchical continuous aggregates work. Pure.
 *
 * Hours are UTC hours: exact for every zone whose local hours fall on them (whole-hour
 * offsets); a reader in a +05:45 or +05:30 zone reads 15-minute rows for hourly buckets. Days
 * are the local days of the plant's zone (23, 24 or 25 hours; every offset in use is a multiple
 * of 15 minutes, so a local day is whole 15-minute buckets).
 *
 * Sums are made quarter by quarter, oldest first, as SQLite's `sum()` makes them over the same
 * rows: a coarse row equals, to the bit, what summing its 15-minute rows in SQL answered before.
 */

export const HOUR_MS = 3_600_000;

export interface CoarseRollup {
  start: number;
  end: number;
  /** kWh; null when no quarter in it has energy (a `level` sensor), as SQL `sum()` answers. */
  energyKwh: number | null;
  /** Time-weighted over the covered time; the mean of the quarters' means when none is. */
  meanValue: number;
  minValue: number;
  maxValue: number;
  sampleCount: number;
  coveredSeconds: number;
}

/** Some span (an hour, a day) holding an instant. */
export type PeriodOf = (instant: number) => TimeRange;

export const utcHourOf: PeriodOf = (instant) => {
  const start = Math.floor(instant / HOUR_MS) * HOUR_MS;
  return { start, end: start + HOUR_MS };
};

/** The local day of `zone` holding an instant; remembers the last day, as quarters come in order. */
export function localDayIn(zone: string): PeriodOf {
  let last: TimeRange = { start: 0, end: 0 };
  return (instant) => {
    if (instant < last.start || instant >= last.end)
      last = localDay(zone, localDateOf(zone, instant));
    return last;
  };
}

/**
 * One coarse row per period holding some quarter, oldest first. `quarters`: one sensor's
 * 15-minute rollups, oldest first; a quarter belongs to the period holding its start.
 */
export function aggregateQuarters(quarters: readonly Rollup[], periodOf: PeriodOf): CoarseRollup[] {
  const rows: CoarseRollup[] = [];
  let open: OpenPeriod | undefined;
  for (const quarter of quarters) {
    if (
      !open ||
      quarter.bucketStart < open.period.start ||
      quarter.bucketStart >= open.period.end
    ) {
      if (open) rows.push(open.close());
      open = new OpenPeriod(periodOf(quarter.bucketStart));
    }
    open.add(quarter);
  }
  if (open) rows.push(open.close());
  return rows;
}

class OpenPeriod {
  readonly period: TimeRange;
  readonly #energy = new NeumaierSum();
  readonly #covered = new NeumaierSum();
  readonly #weighted = new NeumaierSum();
  readonly #means = new NeumaierSum();
  #quarters = 0;
  #min = Infinity;
  #max = -Infinity;
  #samples = 0;

  constructor(period: TimeRange) {
    this.period = period;
  }

  add(quarter: Rollup): void {
    this.#energy.add(quarter.energyKwh);
    this.#covered.add(quarter.coveredSeconds);
    this.#weighted.add(quarter.meanValue * quarter.coveredSeconds);
    this.#means.add(quarter.meanValue);
    this.#quarters += 1;
    this.#min = Math.min(this.#min, quarter.minValue);
    this.#max = Math.max(this.#max, quarter.maxValue);
    this.#samples += quarter.sampleCount;
  }

  close(): CoarseRollup {
    const covered = this.#covered.total() ?? 0;
    return {
      start: this.period.start,
      end: this.period.end,
      energyKwh: this.#energy.total(),
      meanValue:
        covered > 0
          ? (this.#weighted.total() ?? 0) / covered
          : (this.#means.total() ?? 0) / this.#quarters,
      minValue: this.#min,
      maxValue: this.#max,
      sampleCount: this.#samples,
      coveredSeconds: covered,
    };
  }
}

/**
 * What a rewrite of the quarters in [fromMs, toMs) makes stale: the local days holding them and
 * the UTC hours holding those days (a +05:45 day starts and ends inside a UTC hour), the span
 * whose quarters the fresh rows are made from.
 */
export function staleCoarseSpan(
  zone: string,
  fromMs: number,
  toMs: number,
): { days: TimeRange; hours: TimeRange } {
  const dayOf = localDayIn(zone);
  const days = { start: dayOf(fromMs).start, end: dayOf(toMs - 1).end };
  return {
    days,
    hours: { start: utcHourOf(days.start).start, end: utcHourOf(days.end - 1).end },
  };
}
