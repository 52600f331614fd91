import { computed, toValue, type ComputedRef, type MaybeRefOrGetter } from 'vue';
import type { Series } from '../../../api/schemas/metrics.ts';
import { useBridge } from '../bridge.ts';
import { pointCapOf, seriesToPoints, shiftPoints, type PointCap } from '../charts/series.ts';
import type { CoveragePoint } from '../charts/types.ts';
import { daysBetween, previousDateTimeRange, type DateTimeRange } from '../analytics/ranges.ts';
import type { HistoryChoice } from '../analytics/query.ts';
import { useAnalyticsLoader, type AnalyticsLoader } from './useAnalyticsLoader.ts';
import { translate } from '../i18n.ts';
import type { Flow } from './useAnalyticsSummary.ts';

/** Power of one flow over the chosen date-time range, and the previous period's. */
export interface FlowHistory {
  flow: Flow;
  /** W, as the API answers. */
  unit: string;
  zone: string;
  range: DateTimeRange;
  current: CoveragePoint[];
  previous: CoveragePoint[] | null;
  previousRange: DateTimeRange | null;
}

const ROUTES = { consumption: 'historyConsumption', production: 'historyProduction' } as const;

/**
 * Sensor history: average power per bucket of the chosen granularity, per flow, and the
 * previous period's drawn over it. A range with more points than the API allows fails with its
 * 422: `pointCap` reads the server's message and the coarser granularity it suggests.
 */
export function useAnalyticsHistory(
  plantUuid: MaybeRefOrGetter<string>,
  choice: MaybeRefOrGetter<HistoryChoice | null>,
): Record<Flow, AnalyticsLoader<FlowHistory>> & { pointCap: ComputedRef<PointCap | null> } {
  const bridge = useBridge();

  function fetch(flow: Flow, range: DateTimeRange, chosen: HistoryChoice): Promise<Series> {
    return bridge.call(ROUTES[flow], {
      params: { plantUuid: toValue(plantUuid) },
      query: { startDate: range.start, endDate: range.end, granularity: chosen.granularity },
    });
  }

  function loaderOf(flow: Flow): AnalyticsLoader<FlowHistory> {
    return useAnalyticsLoader(async () => {
      const chosen = toValue(choice);
      if (!chosen) throw new Error(translate('analytics.plantLoading'));
      const previousRange = chosen.compare
        ? previousDateTimeRange(chosen.range, chosen.compare)
        : null;
      const [current, previous] = await Promise.all([
        fetch(flow, chosen.range, chosen),
        previousRange ? fetch(flow, previousRange, chosen) : Promise.resolve(null),
      ]);
      const zone = current.timezone;
      return {
        flow,
        unit: current.unit,
        zone,
        range: chosen.range,
        current: seriesToPoints(current),
        previous:
          previous && previousRange
            ? shiftPoints(seriesToPoints(previous), zone, {
                days: daysBetween(previousRange.start, chosen.range.start),
              })
            : null,
        previousRange,
      };
    });
  }

  const consumption = loaderOf('consumption');
  const production = loaderOf('production');
  const pointCap = computed(
    () => pointCapOf(consumption.failure.value) ?? pointCapOf(production.failure.value),
  );
  return { consumption, production, pointCap };
}
