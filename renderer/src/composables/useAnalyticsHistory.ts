import { computed, type ComputedRef, type MaybeRefOrGetter } from 'vue';
import type { Series } from '../../../api/schemas/metrics.ts';
import { pointCapOf, type PointCap } from '../charts/series.ts';
import type { CoveragePoint } from '../charts/types.ts';
import { previousDateTimeRange, type DateTimeRange } from '../analytics/ranges.ts';
import type { HistoryChoice } from '../analytics/query.ts';
import { plantChoice, useAnalyticsLoader, type AnalyticsLoader } from './useAnalyticsLoader.ts';
import { flowWithPrevious, type Flow } from './useAnalyticsSummary.ts';

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
  const input = plantChoice(plantUuid, choice);

  function loaderOf(flow: Flow): AnalyticsLoader<FlowHistory> {
    return useAnalyticsLoader(
      ['history', flow],
      input,
      async ({ plantUuid: plant, choice: chosen }, call) => {
        const fetch = (range: DateTimeRange): Promise<Series> =>
          call(ROUTES[flow], {
            params: { plantUuid: plant },
            query: { startDate: range.start, endDate: range.end, granularity: chosen.granularity },
          });
        return flowWithPrevious(
          flow,
          chosen.range,
          chosen.compare ? previousDateTimeRange(chosen.range, chosen.compare) : null,
          fetch,
        );
      },
    );
  }

  const consumption = loaderOf('consumption');
  const production = loaderOf('production');
  const pointCap = computed(
    () => pointCapOf(consumption.failure.value) ?? pointCapOf(production.failure.value),
  );
  return { consumption, production, pointCap };
}
