import { reactive, ref, shallowRef, toValue, type MaybeRefOrGetter } from 'vue';
import type { RouteId } from '../../../api/routes.ts';
import type { RouteInput, RouteResult } from '../../../api/routeInput.ts';
import type {
  EnergyBreakdown,
  ForecastSeries,
  PvHealth,
  Series,
} from '../../../api/schemas/metrics.ts';
import { PlantDeskError, useBridge } from '../bridge.ts';
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

/**
 * The plant dashboard's data: one independent state per card, each loaded by its own calls and
 * failing on its own (its error and Retry, the other cards untouched).
 *
 * Within one refresh of the whole dashboard, cards asking the same route with the same input
 * share one request (the tiles and "Last 7 days" both read the daily series; "Last 24 hours" and
 * the forecasts' actuals both read the hourly ones). A card's own Retry asks again.
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
  /** Forgets everything (another plant); a load running now is ignored. */
  clear(): void;
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

/** What a failed call says on its card. */
export function failureMessage(caught: unknown): string {
  if (caught instanceof PlantDeskError) return caught.message;
  if (caught instanceof Error && caught.message) return caught.message;
  return translate('dashboard.loadFailed');
}

/**
 * One card's state around its loader. Loads do not overlap: a reload while one runs waits for
 * it. A failed load keeps the data shown before (the card says it failed).
 */
export function useDashboardCard<T>(
  load: () => Promise<T>,
  clock: () => number = appNow,
): DashboardCard<T> {
  const data = shallowRef<T | null>(null);
  const error = ref<string | null>(null);
  const loading = ref(false);
  const updatedAt = ref<number | null>(null);
  let running: Promise<void> | null = null;
  /** Moves on clear(): a load started before it does not write its answer. */
  let generation = 0;

  function reload(): Promise<void> {
    running ??= (async () => {
      const started = generation;
      loading.value = true;
      try {
        const loaded = await load();
        if (started !== generation) return;
        data.value = loaded;
        error.value = null;
        updatedAt.value = clock();
      } catch (caught) {
        if (started !== generation) return;
        error.value = failureMessage(caught);
      } finally {
        if (started === generation) loading.value = false;
        running = null;
      }
    })();
    return running;
  }

  function clear(): void {
    generation++;
    running = null;
    data.value = null;
    error.value = null;
    loading.value = false;
    updatedAt.value = null;
  }

  return reactive({ data, error, loading, updatedAt, reload, clear }) as DashboardCard<T>;
}

export interface UseDashboardOptions {
  /** The current time (tests); default the host's clock. */
  clock?: () => number;
}

/**
 * Every card of the plant's dashboard. `zone` is the plant's IANA zone: the local day, the
 * history window and every label are the plant's. `refreshAll()` reloads every card at once
 * (sharing identical requests) and resolves when all have settled; it never rejects.
 */
export function useDashboard(
  plantUuid: MaybeRefOrGetter<string>,
  zone: MaybeRefOrGetter<string | null>,
  options: UseDashboardOptions = {},
) {
  const bridge = useBridge();
  const clock = options.clock ?? appNow;
  /** Identical requests of one refreshAll(); null outside of one (a card's own Retry). */
  let shared: Map<string, Promise<unknown>> | null = null;

  function call<Id extends RouteId>(route: Id, input: RouteInput<Id>): Promise<RouteResult<Id>> {
    const send = () => bridge.call(route, input) as Promise<RouteResult<Id>>;
    if (!shared) return send();
    const key = `${route} ${JSON.stringify(input)}`;
    let pending = shared.get(key);
    if (!pending) shared.set(key, (pending = send()));
    return pending as Promise<RouteResult<Id>>;
  }

  function context() {
    const plant = toValue(plantUuid);
    const plantZone = toValue(zone);
    if (!plant || !plantZone) throw new Error(translate('dashboard.plantNotLoaded'));
    const now = clock();
    return { params: { plantUuid: plant }, zone: plantZone, now };
  }

  function today() {
    const { params, zone: plantZone, now } = context();
    const date = localDateOf(now, plantZone);
    return {
      params,
      zone: plantZone,
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
    todayEnergy: useDashboardCard(async () => {
      const { params, zone: plantZone, date, fromMs, now } = today();
      const [consumption, production] = await daily(params, date);
      const c = pointOfDay(consumption, date);
      const p = pointOfDay(production, date);
      const soFar = (point: typeof c) =>
        point ? coverageSoFar(point.coverage, plantZone, fromMs, now) : null;
      return {
        date,
        fromMs,
        toMs: now,
        consumptionKwh: c?.value ?? null,
        productionKwh: p?.value ?? null,
        consumptionCoverage: soFar(c),
        productionCoverage: soFar(p),
      };
    }, clock),

    selfShares: useDashboardCard(async () => {
      const { params, date, fromMs, now, range } = today();
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
    }, clock),

    currentPower: useDashboardCard(async () => {
      const { params, zone: plantZone, now } = context();
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
    }, clock),

    lastWeek: useDashboardCard(async () => {
      const { params, date } = today();
      const [consumption, production] = await daily(params, date);
      return { consumption, production };
    }, clock),

    lastDay: useDashboardCard(async () => {
      const { params } = context();
      const [consumption, production] = await hourly(params);
      return { consumption, production };
    }, clock),

    consumptionForecast: useDashboardCard(async () => {
      const { params } = context();
      const [forecast, [actual]] = await Promise.all([
        call('predictConsumption', { params, query: { hours: FORECAST_HOURS } }),
        hourly(params),
      ]);
      return { forecast, actual };
    }, clock),

    productionForecast: useDashboardCard(async () => {
      const { params } = context();
      const [forecast, [, actual]] = await Promise.all([
        call('predictProduction', { params, query: { hours: FORECAST_HOURS } }),
        hourly(params),
      ]);
      return { forecast, actual };
    }, clock),

    pvHealth: useDashboardCard(async () => {
      const { params } = context();
      return call('pvHealth', { params });
    }, clock),

    breakdown: useDashboardCard(async () => {
      const { params, range } = today();
      return call('energyBreakdown', { params, query: range });
    }, clock),
  };

  const all = Object.values(cards) as DashboardCard<unknown>[];

  /**
   * Reloads every card. Rejects only when every card failed (the dashboard's "Last updated"
   * then stays at the last refresh that brought something); each card shows its own error.
   */
  async function refreshAll(): Promise<void> {
    shared = new Map();
    // Every card starts its calls now (synchronously up to its first await), sharing them.
    const loads = all.map((card) => card.reload());
    shared = null;
    await Promise.all(loads);
    const failed = all.filter((card) => card.error);
    if (failed.length === all.length) throw new Error(failed[0]!.error!);
  }

  function clear(): void {
    for (const card of all) card.clear();
  }

  return { cards, refreshAll, clear };
}
