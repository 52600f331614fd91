import type { Granularity, LocalDate, Series } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import type { PlantRow } from '../../db/tables.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { energyBreakdown } from './energyBreakdown.ts';
import { dailyBuckets, energySeries, hourlyBuckets, summaryBuckets } from './energySeries.ts';
import { describeLocal } from './historyRange.ts';
import type { TimeRange } from './localTime.ts';
import type { EncodedJson } from '../../http/encodedJson.ts';
import {
  DEFAULT_METRICS_CACHE_LIMITS,
  MetricsCache,
  type MetricsCacheLimits,
} from './metricsCache.ts';
import {
  consumptionFlow,
  energySensorsOf,
  productionFlow,
  type EnergySensor,
  type PlantFlow,
} from './plantFlows.ts';
import { DEFAULT_GRANULARITY, powerHistory, type HistoryQuery } from './powerHistory.ts';

type EnergyMetricsHandlers = Pick<
  RouteHandlers,
  | 'dailyConsumption'
  | 'hourlyConsumption'
  | 'summaryConsumption'
  | 'dailyProduction'
  | 'hourlyProduction'
  | 'summaryProduction'
  | 'historyConsumption'
  | 'historyProduction'
  | 'energyBreakdown'
>;

type Plant = Readonly<PlantRow>;
type Kind = 'consumption' | 'production';

const FLOW_OF: Record<Kind, (sensors: readonly EnergySensor[]) => PlantFlow> = {
  consumption: consumptionFlow,
  production: productionFlow,
};

/** Long answers are not worth their memory: dashboards repeat short ones. */
const MAX_CACHED_BYTES = 256 * 1024;
const worthKeeping = (answer: EncodedJson<Series>) => answer.byteLength <= MAX_CACHED_BYTES;
/** An answer kept is sent again and again, so its bytes are its own (`EncodedJson.owned`). */
const owned = (answer: EncodedJson<Series>) => answer.owned();
/** Per plant: its energy sensors, and its consumption and production flows. */
const SENSOR_CACHE_LIMITS: MetricsCacheLimits = {
  plants: DEFAULT_METRICS_CACHE_LIMITS.plants,
  valuesPerPlant: 3,
};
/** `seconds` and `minutes` read raw readings, and are rarely asked twice. */
const CACHED_GRANULARITIES: readonly Granularity[] = ['hours', 'days'];

/** Energy per day and hour, power history and the energy breakdown of a plant. */
export function energyMetricsHandlers({ db, now, writes }: ServerContext): EnergyMetricsHandlers {
  const cache = new MetricsCache(() => writes.value);
  // Apart from the answers, which would push them out: every answer computed needs them.
  const plantSensors = new MetricsCache(() => writes.value, SENSOR_CACHE_LIMITS);
  const sensorsOf = (plant: Plant) =>
    plantSensors.get(plant.plant_uuid, 'sensors', () => energySensorsOf(db, plant.plant_uuid));
  // Once remembered, a flow is answered without a promise (`MetricsCache.get`).
  const flowOf = (plant: Plant, kind: Kind): PlantFlow | Promise<PlantFlow> =>
    plantSensors.get(plant.plant_uuid, kind, async () => FLOW_OF[kind](await sensorsOf(plant)));

  // Answers are remembered encoded: a repeated answer is sent without serialising it again.
  // Computed without a promise where the flow is remembered and the rollups read at once
  // (SQLite's hourly answers): one promise for the route, none per step.
  const energy = (
    plant: Plant,
    kind: Kind,
    buckets: readonly TimeRange[],
  ): Promise<EncodedJson<Series>> => {
    const span = `${buckets[0]!.start}|${buckets.length}|${buckets[buckets.length - 1]!.end}`;
    const compute = () => {
      const flow = flowOf(plant, kind);
      return flow instanceof Promise
        ? flow.then((read) => energySeries(db, plant, read, buckets))
        : energySeries(db, plant, flow, buckets);
    };
    try {
      return Promise.resolve(
        cache.get(
          plant.plant_uuid,
          `energy|${kind}|${plant.timezone}|${span}`,
          compute,
          worthKeeping,
          owned,
        ),
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };

  /** The energy of each local day from startDate to endDate (default today), per flow. */
  const summary = async (
    plant: Plant,
    kind: Kind,
    query: { startDate: LocalDate; endDate?: LocalDate | undefined },
  ): Promise<EncodedJson<Series>> =>
    energy(plant, kind, summaryBuckets(plant.timezone, query.startDate, query.endDate, now()));

  const history = async (
    plant: Plant,
    kind: Kind,
    query: HistoryQuery,
  ): Promise<EncodedJson<Series>> => {
    const compute = async () => powerHistory(db, plant, await flowOf(plant, kind), query);
    const granularity = query.granularity ?? DEFAULT_GRANULARITY;
    if (!CACHED_GRANULARITIES.includes(granularity)) return compute();
    const span = `${describeLocal(query.startDate)}|${describeLocal(query.endDate)}`;
    return cache.get(
      plant.plant_uuid,
      `history|${kind}|${plant.timezone}|${granularity}|${span}`,
      compute,
      worthKeeping,
      owned,
    );
  };

  return {
    dailyConsumption: ({ plant, query }) =>
      energy(plant, 'consumption', dailyBuckets(plant.timezone, query.date, now())),
    dailyProduction: ({ plant, query }) =>
      energy(plant, 'production', dailyBuckets(plant.timezone, query.date, now())),
    hourlyConsumption: ({ plant, query }) =>
      energy(plant, 'consumption', hourlyBuckets(plant.timezone, query.date, now())),
    hourlyProduction: ({ plant, query }) =>
      energy(plant, 'production', hourlyBuckets(plant.timezone, query.date, now())),
    summaryConsumption: ({ plant, query }) => summary(plant, 'consumption', query),
    summaryProduction: ({ plant, query }) => summary(plant, 'production', query),
    historyConsumption: ({ plant, query }) => history(plant, 'consumption', query),
    historyProduction: ({ plant, query }) => history(plant, 'production', query),
    energyBreakdown: async ({ plant, query }) =>
      energyBreakdown(db, plant, await sensorsOf(plant), query),
  };
}
