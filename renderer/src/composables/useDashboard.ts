import { computed, reactive, toValue, type MaybeRefOrGetter } from 'vue';
import { useQuery, useQueryClient } from '@tanstack/vue-query';
import type { RouteId } from '../../../api/routes.ts';
import type { RouteInput } from '../../../api/routeInput.ts';
import type {
  EnergyBreakdown,
  ForecastSeries,
  PvHealth,
  Series,
} from '../../../api/schemas/metrics.ts';
import { useBridge } from '../bridge.ts';
import { localDateOf, localDateTimeOf } from '../charts/time.ts';
import {
  coverageSoFar,
  currentPowerWindow,
  gridImportOf,
  latestSample,
  pointOfDay,
  selfShares,
  startOfLocalDay,
  type SelfShares,
} from '../components/dashboard/dashboardMath.ts';
import { appNow } from '../clock.ts';
import { translate } from '../i18n.ts';
import { clampRefreshInterval } from './refreshInterval.ts';
import { fetchRoute } from './useApiQuery.ts';
import { failureMessage } from './useFormErrors.ts';

/**
 * The plant dashboard's data: one independent state per card, each loaded by its own calls and
 * failing on its own (its error and Retry, the other cards untouched).
 *
 * Cards asking the same route with the same input at the same time share one request (the tiles
 * and "Last 7 days" both read the daily series; "Last 24 hours" and the forecasts' actuals both
 * read the hourly ones). A card's own Retry asks again.
 */

/**
 * What every card shows: its data (kept while a refresh fails), its error, and when it loaded.
 * A reactive object (pass it as a prop; read `card.data` in templates). `data` is shallow: the
 * series are replaced, never mutated.
 */
export interface DashboardCard<T> {
  readonly data: T | null;
  readonly error: string | null;
  readonly loading: boolean;
  /** When the shown data was loaded (epoch ms), null before the first success. */
  readonly updatedAt: number | null;
  /** Loads again on its own (the card's Retry). Never rejects. */
  reload(): Promise<void>;
}

/** A point in time and its value. */
export interface Sample {
  /** Epoch ms of the bucket start. */
  x: number;
  y: number;
  /** The API's timestamp, with the plant's offset. */
  timestamp: string;
}

export interface TodayEnergyData {
  /** The plant's local day, yyyy-MM-dd. */
  date: string;
  /** From the start of the local day to the moment of the load (epoch ms). */
  fromMs: number;
  toMs: number;
  productionKwh: number | null;
  consumptionKwh: number | null;
  /** Share of the day so far with data (0..1); null when the server does not say. */
  productionCoverage: number | null;
  consumptionCoverage: number | null;
}

export interface SelfSharesData extends SelfShares {
  date: string;
  fromMs: number;
  toMs: number;
  productionKwh: number | null;
  consumptionKwh: number | null;
  gridImportKwh: number | null;
}

export interface CurrentPowerData {
  consumption: Sample | null;
  production: Sample | null;
  unit: string;
}

export interface FlowPair {
  consumption: Series;
  production: Series;
}

export interface ForecastData {
  forecast: ForecastSeries;
  /** The hourly actuals of the last 24 hours (current hour included), same unit. */
  actual: Series;
}

export interface DashboardCards {
  todayEnergy: DashboardCard<TodayEnergyData>;
  selfShares: DashboardCard<SelfSharesData>;
  currentPower: DashboardCard<CurrentPowerData>;
  lastWeek: DashboardCard<FlowPair>;
  lastDay: DashboardCard<FlowPair>;
  consumptionForecast: DashboardCard<ForecastData>;
  productionForecast: DashboardCard<ForecastData>;
  pvHealth: DashboardCard<PvHealth>;
  breakdown: DashboardCard<EnergyBreakdown>;
}

export const FORECAST_HOURS = 48;

export interface UseDashboardOptions {
  /** Time between refreshes, clamped to 10 s..5 min; default 30 s. */
  intervalMs?: MaybeRefOrGetter<number>;
  /** False holds every card (nothing is asked); default true. */
  enabled?: MaybeRefOrGetter<boolean>;
  /** The current time (tests); default the host's clock. */
  clock?: () => number;
}

/** What one card's loader is given: the plant, its zone, and the moment of the load. */
interface CardContext {
  params: { plantUuid: string };
  zone: string;
  now: number;
}

/**
 * Every card of the plant's dashboard, each a query of the shared cache keyed by the card, the
 * plant and its zone, asked again every `intervalMs` while the window is visible (and at once
 * when it is visible again). `zone` is the plant's IANA zone: the local day, the history window
 * and every label are the plant's. Another plant is other queries: nothing of the last one shows.
 */
export function useDashboard(
  plantUuid: MaybeRefOrGetter<string>,
  zone: MaybeRefOrGetter<string | null>,
  options: UseDashboardOptions = {},
) {
  const bridge = useBridge();
  const client = useQueryClient();
  const clock = options.clock ?? appNow;
  const intervalMs = computed(() => clampRefreshInterval(toValue(options.intervalMs ?? 30_000)));
  const enabled = computed(() => toValue(options.enabled ?? true));

  /** Cards asking the same route with the same input while it runs share the request. */
  const call = <Id extends RouteId>(route: Id, input: RouteInput<Id>) =>
    fetchRoute(client, bridge, route, input);

  /**
   * One card's state around its loader. A failed load keeps the data shown before (the card
   * says it failed); a request that did not complete is tried again first.
   */
  function card<T>(name: keyof DashboardCards, load: (context: CardContext) => Promise<T>) {
    const query = useQuery(
      computed(() => {
        const plant = toValue(plantUuid);
        const plantZone = toValue(zone);
        return {
          queryKey: ['dashboard', name, plant, plantZone],
          queryFn: async () => {
            if (!plant || !plantZone) throw new Error(translate('dashboard.plantNotLoaded'));
            const now = clock();
            const value = await load({ params: { plantUuid: plant }, zone: plantZone, now });
            return { value, loadedAt: clock() };
          },
          enabled: enabled.value && Boolean(plant && plantZone),
          refetchInterval: intervalMs.value,
        };
      }),
      client,
    );
    return reactive({
      data: computed(() => query.data.value?.value ?? null),
      error: computed(() =>
        query.error.value
          ? failureMessage(query.error.value, translate('dashboard.loadFailed'))
          : null,
      ),
      loading: query.isFetching,
      updatedAt: computed(() => query.data.value?.loadedAt ?? null),
      async reload() {
        await query.refetch();
      },
    }) as DashboardCard<T>;
  }

  function today({ params, zone: plantZone, now }: CardContext) {
    const date = localDateOf(now, plantZone);
    return {
      params,
      now,
      date,
      fromMs: startOfLocalDay(now, plantZone),
      /** Today 00:00 to now, for sensor-history-energy. */
      range: { startDate: `${date}T00:00`, endDate: localDateTimeOf(now, plantZone) },
    };
  }

  const daily = (params: { plantUuid: string }, date: string) =>
    Promise.all([
      call('dailyConsumption', { params, query: { date } }),
      call('dailyProduction', { params, query: { date } }),
    ]);
  const hourly = (params: { plantUuid: string }) =>
    Promise.all([call('hourlyConsumption', { params }), call('hourlyProduction', { params })]);

  const cards: DashboardCards = {
    todayEnergy: card('todayEnergy', async (context) => {
      const { params, date, fromMs, now } = today(context);
      const [consumption, production] = await daily(params, date);
      const c = pointOfDay(consumption, date);
      const p = pointOfDay(production, date);
      const soFar = (point: typeof c) =>
        point ? coverageSoFar(point.coverage, context.zone, fromMs, now) : null;
      return {
        date,
        fromMs,
        toMs: now,
        consumptionKwh: c?.value ?? null,
        productionKwh: p?.value ?? null,
        consumptionCoverage: soFar(c),
        productionCoverage: soFar(p),
      };
    }),

    selfShares: card('selfShares', async (context) => {
      const { params, date, fromMs, now, range } = today(context);
      const [[consumption, production], breakdown] = await Promise.all([
        daily(params, date),
        call('energyBreakdown', { params, query: range }),
      ]);
      const energy = {
        consumptionKwh: pointOfDay(consumption, date)?.value ?? null,
        productionKwh: pointOfDay(production, date)?.value ?? null,
        gridImportKwh: gridImportOf(breakdown),
      };
      return { date, fromMs, toMs: now, ...energy, ...selfShares(energy) };
    }),

    currentPower: card('currentPower', async ({ params, zone: plantZone, now }) => {
      const query = { ...currentPowerWindow(now, plantZone), granularity: 'minutes' };
      const [consumption, production] = await Promise.all([
        call('historyConsumption', { params, query }),
        call('historyProduction', { params, query }),
      ]);
      return {
        consumption: latestSample(consumption),
        production: latestSample(production),
        unit: consumption.unit,
      };
    }),

    lastWeek: card('lastWeek', async (context) => {
      const { params, date } = today(context);
      const [consumption, production] = await daily(params, date);
      return { consumption, production };
    }),

    lastDay: card('lastDay', async ({ params }) => {
      const [consumption, production] = await hourly(params);
      return { consumption, production };
    }),

    consumptionForecast: card('consumptionForecast', async ({ params }) => {
      const [forecast, [actual]] = await Promise.all([
        call('predictConsumption', { params, query: { hours: FORECAST_HOURS } }),
        hourly(params),
      ]);
      return { forecast, actual };
    }),

    productionForecast: card('productionForecast', async ({ params }) => {
      const [forecast, [, actual]] = await Promise.all([
        call('predictProduction', { params, query: { hours: FORECAST_HOURS } }),
        hourly(params),
      ]);
      return { forecast, actual };
    }),

    pvHealth: card('pvHealth', ({ params }) => call('pvHealth', { params })),

    breakdown: card('breakdown', async (context) => {
      const { params, range } = today(context);
      return call('energyBreakdown', { params, query: range });
    }),
  };

  const all = Object.values(cards) as DashboardCard<unknown>[];

  /** When the newest data on screen was loaded (epoch ms), null before the first. */
  const lastUpdated = computed(() => {
    const times = all.map((each) => each.updatedAt).filter((at) => at !== null);
    return times.length ? Math.max(...times) : null;
  });
  const refreshing = computed(() => all.some((each) => each.loading));

  /** Reloads every card at once (sharing identical requests); resolves when all have settled. */
  async function refreshAll(): Promise<void> {
    await Promise.all(all.map((each) => each.reload()));
  }

  return { cards, refreshAll, lastUpdated, refreshing, intervalMs };
}
