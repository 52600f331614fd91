import type { MaybeRefOrGetter } from 'vue';
import type { Series } from '../../../api/schemas/metrics.ts';
import { seriesToPoints, shiftPoints } from '../charts/series.ts';
import type { CoveragePoint } from '../charts/types.ts';
import {
  daysBetween,
  previousDateRange,
  type ComparePeriod,
  type DateRange,
} from '../analytics/ranges.ts';
import type { SummaryChoice } from '../analytics/query.ts';
import { plantChoice, useAnalyticsLoader, type AnalyticsLoader } from './useAnalyticsLoader.ts';

export type Flow = 'consumption' | 'production';

/** Energy per local day of one flow over the chosen range, and the previous period's. */
export interface FlowDays {
  flow: Flow;
  /** kWh, as the API answers. */
  unit: string;
  /** The plant's zone, as the API answers. */
  zone: string;
  range: DateRange;
  current: CoveragePoint[];
  /** The previous period, moved onto the current days (day i over day i); null: no comparison. */
  previous: CoveragePoint[] | null;
  previousRange: DateRange | null;
}

/** The range route of each flow (summaryProduction is the extension twin of summaryConsumption). */
const SUMMARY_ROUTE = {
  consumption: 'summaryConsumption',
  production: 'summaryProduction',
} as const satisfies Record<Flow, string>;

/**
 * One flow over `range`, and over `previousRange` (when comparing) moved onto the same days:
 * both read by `read` at once.
 */
export async function flowWithPrevious<R extends { start: string }>(
  flow: Flow,
  range: R,
  previousRange: R | null,
  read: (range: R) => Promise<Series>,
) {
  const [current, previous] = await Promise.all([
    read(range),
    previousRange ? read(previousRange) : Promise.resolve(null),
  ]);
  const zone = current.timezone;
  return {
    flow,
    unit: current.unit,
    zone,
    range,
    current: seriesToPoints(current),
    previous:
      previous && previousRange
        ? shiftPoints(seriesToPoints(previous), zone, {
            days: daysBetween(previousRange.start, range.start),
          })
        : null,
    previousRange,
  };
}

/**
 * The range summary's data: per flow, the energy of each local day of the range, from that
 * flow's summary route (startDate, endDate) in one call. Its limits (at most 366 days, start
 * not after end) are the server's, and its 422 message is shown in the flow's card.
 *
 * With a comparison period, the previous range (same length, shifted back) is loaded the same
 * way and drawn over the current days.
 */
export function useAnalyticsSummary(
  plantUuid: MaybeRefOrGetter<string>,
  choice: MaybeRefOrGetter<SummaryChoice | null>,
): Record<Flow, AnalyticsLoader<FlowDays>> {
  const input = plantChoice(plantUuid, choice);

  function loaderOf(flow: Flow): AnalyticsLoader<FlowDays> {
    return useAnalyticsLoader(
      ['summary', flow],
      input,
      async ({ plantUuid: plant, choice: chosen }, call) => {
        const daysOf = (range: DateRange): Promise<Series> =>
          call(SUMMARY_ROUTE[flow], {
            params: { plantUuid: plant },
            query: { startDate: range.start, endDate: range.end },
          });
        const compare: ComparePeriod | null = chosen.compare;
        return flowWithPrevious(
          flow,
          chosen.range,
          compare ? previousDateRange(chosen.range, compare) : null,
          daysOf,
        );
      },
    );
  }

  return { consumption: loaderOf('consumption'), production: loaderOf('production') };
}
