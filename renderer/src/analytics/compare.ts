import type { Translate } from '../../../i18n/translator.ts';
import { xyOf } from '../charts/series.ts';
import type { ChartPoint, ChartSeries, SeriesRole } from '../charts/types.ts';
import { translate } from '../i18n.ts';
import type { ComparePeriod } from './ranges.ts';

/**
 * The datasets of one flow over the chosen period and, when comparing, the previous period's
 * drawn over it ("Consumption, previous week (16 Mar 2026 – 22 Mar 2026)"), named in the language
 * of `t`. Pure.
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
  t: Translate = translate,
): ChartSeries[] {
  const datasets: ChartSeries[] = [
    { label, role, unit: series.unit, points: xyOf(series.current) },
  ];
  if (series.previous) {
    const which = t(`analytics.compare.inSentence.${compare ?? 'period'}`);
    datasets.push({
      label: series.previousRange
        ? t('analytics.compare.seriesOver', {
            label,
            which,
            range: describeRange(series.previousRange),
          })
        : t('analytics.compare.series', { label, which }),
      role: 'previous',
      unit: series.unit,
      points: xyOf(series.previous),
    });
  }
  return datasets;
}
