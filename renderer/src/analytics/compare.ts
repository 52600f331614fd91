import { xyOf } from '../charts/series.ts';
import type { ChartPoint, ChartSeries, SeriesRole } from '../charts/types.ts';
import { COMPARE_LABELS, type ComparePeriod } from './ranges.ts';

/**
 * The datasets of one flow over the chosen period and, when comparing, the previous period's
 * drawn over it ("Consumption, previous week (2026-03-16 – 2026-03-22)"). Pure.
 */
export interface ComparedSeries<Range> {
  unit: string;
  current: readonly ChartPoint[];
  previous: readonly ChartPoint[] | null;
  previousRange: Range | null;
}

export function comparedDatasets<Range>(
  role: SeriesRole,
  label: string,
  series: ComparedSeries<Range>,
  compare: ComparePeriod | null,
  describeRange: (range: Range) => string,
): ChartSeries[] {
  const datasets: ChartSeries[] = [
    { label, role, unit: series.unit, points: xyOf(series.current) },
  ];
  if (series.previous) {
    const which = compare ? COMPARE_LABELS[compare].toLowerCase() : 'previous period';
    datasets.push({
      label: series.previousRange
        ? `${label}, ${which} (${describeRange(series.previousRange)})`
        : `${label}, ${which}`,
      role: 'previous',
      unit: series.unit,
      points: xyOf(series.previous),
    });
  }
  return datasets;
}
