import type { AppLocale } from '../../../i18n/locales.ts';
import type { CoveragePoint } from '../charts/types.ts';
import { formatPercent, NO_DATA } from '../charts/units.ts';

/**
 * Totals of a per-day energy series and their change against a previous period. Pure.
 */

export interface Totals {
  /** Sum of the days with data; null when no day has data. */
  total: number | null;
  /** Mean over the days with data; null when none has. */
  average: number | null;
  /** Days with a value (null values are days without data). */
  daysWithData: number;
  days: number;
  /** The day with the largest value. */
  peak: { x: number; y: number } | null;
}

/** Rounded as the server rounds its metrics, so a sum shows no float noise. */
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

export function totalsOf(points: readonly Pick<CoveragePoint, 'x' | 'y'>[]): Totals {
  let total = 0;
  let daysWithData = 0;
  let peak: Totals['peak'] = null;
  for (const point of points) {
    if (point.y === null) continue;
    total += point.y;
    daysWithData += 1;
    if (!peak || point.y > peak.y) peak = { x: point.x, y: point.y };
  }
  return {
    total: daysWithData ? round6(total) : null,
    average: daysWithData ? round6(total / daysWithData) : null,
    daysWithData,
    days: points.length,
    peak,
  };
}

/** Change from `previous` to `current` in percent, or null when it has no meaning. */
export function changePercent(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

/** `+12.5%`, `−3.0%`, `0.0%` (German `+12,5 %`); `—` when there is nothing to compare. */
export function formatChange(percent: number | null, locale: AppLocale = 'en'): string {
  if (percent === null || !Number.isFinite(percent)) return NO_DATA;
  const text = formatPercent(Math.abs(percent), 1, locale);
  if (Math.abs(percent) < 0.05) return text;
  return `${percent > 0 ? '+' : '−'}${text}`;
}
