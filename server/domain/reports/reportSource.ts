import type { PvHealth, Series } from '../../../api/schemas/metrics.ts';
import type { PlantDataHealth } from '../../../api/schemas/dataHealth.ts';
import { forEachLimited, PER_PLANT_CONCURRENCY } from '../../../api/concurrency.ts';
import {
  buildFleetReport,
  buildPlantReport,
  type DayEnergy,
  type FleetReport,
  type PeriodHealth,
  type PlantReport,
  type PlantReportInput,
  type ReportAlert,
} from './reportModel.ts';
import { daysOf, periodRange, type LocalDateRange, type ReportPeriod } from './period.ts';
import { daysWithin, weeksBeforeRange, yearBeforeRange } from './consumptionBaseline.ts';
import { hoursOf, type Site } from './daylightAvailability.ts';
import { reportDataHealth } from './reportDataHealth.ts';

/**
 * Gathers a plant's report inputs from the API through an injected `call` (the renderer's
 * bridge, the main process's API client, or a test's HTTP client), so every number in a report
 * is one the API answers for the same period.
 *
 * Production per day: the `summaryProduction` extension in one call; against a server with only
 * the specification's routes (404), `dailyProduction` week by week (7 days ending with `date`).
 * A flow the user may not read (403) is left out, not an error.
 *
 * Also read: the consumption of the weeks before and of the same period a year before (the
 * expectation), the production per local hour (`sensor-history-productions` by the hour, one
 * call for the period: availability), and the data-health extension's coverage and findings,
 * left out against a server without it (404).
 */

export interface ReportCall {
  (
    route: string,
    input: { params?: Record<string, string>; query?: Record<string, string> },
  ): Promise<unknown>;
}

export interface ReportSourceDeps {
  call: ReportCall;
  /** The HTTP status of a failed call, when it was the API's answer. */
  statusOf(error: unknown): number | undefined;
  /** The desktop monitor's alerts of this plant (none in a test or without the monitor). */
  alertsOf?(plantUuid: string): readonly ReportAlert[];
}

export interface PlantFacts {
  uuid: string;
  name: string;
  timezone: string;
  peakPowerKw: number | null;
  location?: Site | null;
}

/** Series points → days, each day's length from the next bucket's start (DST days: 23 or 25 h). */
export function dayEnergies(series: Series): DayEnergy[] {
  const starts = series.points.map((point) => Date.parse(point.timestamp));
  const end = Date.parse(series.to);
  return series.points.map((point, index) => ({
    day: point.timestamp.slice(0, 10),
    kwh: point.value,
    coverage: point.coverage,
    hours: ((starts[index + 1] ?? end) - (starts[index] ?? end)) / 3_600_000,
  }));
}

/** Reference days for `dailyProduction` (7 days each, ending with the reference) covering a range. */
export function weeklyReferenceDays(range: LocalDateRange): string[] {
  const days = daysOf(range);
  const references: string[] = [];
  for (let index = 6; index < days.length + 6; index += 7) {
    references.push(days[Math.min(index, days.length - 1)]!);
  }
  return references;
}

async function unless403<T>(deps: ReportSourceDeps, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (deps.statusOf(error) === 403) return null;
    throw error;
  }
}

/** A 404 that says the route is missing (an extension), not that the plant is. */
const routeMissing = (deps: ReportSourceDeps, error: unknown) =>
  deps.statusOf(error) === 404 &&
  !(error instanceof Error && /plant\b.*not found/i.test(error.message));

/** An extension's answer, or null from a server without it. */
async function unless404<T>(deps: ReportSourceDeps, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (routeMissing(deps, error)) return null;
    throw error;
  }
}

async function productionSeries(deps: ReportSourceDeps, plantUuid: string, range: LocalDateRange) {
  const params = { plantUuid };
  try {
    return (await deps.call('summaryProduction', {
      params,
      query: { startDate: range.start, endDate: range.end },
    })) as Series;
  } catch (error) {
    if (!routeMissing(deps, error)) throw error;
  }
  const weeks: Series[] = [];
  for (const date of weeklyReferenceDays(range)) {
    weeks.push((await deps.call('dailyProduction', { params, query: { date } })) as Series);
  }
  return joinWeeks(weeks, range);
}

/** The weeks' days inside the range, in order and once each, as one series. */
export function joinWeeks(weeks: readonly Series[], range: LocalDateRange): Series {
  const byDay = new Map<string, Series['points'][number]>();
  for (const week of weeks) {
    for (const point of week.points) {
      const day = point.timestamp.slice(0, 10);
      if (day >= range.start && day <= range.end) byDay.set(day, point);
    }
  }
  const points = [...byDay.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const first = weeks[0]!;
  const last = weeks.at(-1)!;
  const lastPoint = last.points.findLast((point) => point.timestamp.slice(0, 10) <= range.end);
  const lastIndex = lastPoint ? last.points.indexOf(lastPoint) : -1;
  const to = last.points[lastIndex + 1]?.timestamp ?? last.to;
  return { ...first, from: points[0]?.timestamp ?? first.from, to, points };
}

/** The local day after `day`. */
const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export async function loadPlantReportInput(
  deps: ReportSourceDeps,
  plant: PlantFacts,
  period: ReportPeriod,
): Promise<PlantReportInput> {
  const range = periodRange(period);
  const overRange = async <T>(route: string, over: LocalDateRange = range) =>
    (await deps.call(route, {
      params: { plantUuid: plant.uuid },
      query: { startDate: over.start, endDate: over.end },
    })) as T;
  const consumptionOver = async (over: LocalDateRange) =>
    daysWithin(dayEnergies(await overRange<Series>('summaryConsumption', over)), over);
  // A year is expected from the year before only: a few weeks of one season say nothing of the
  // others.
  const weeksBefore = period.kind === 'month' ? weeksBeforeRange(range.start) : null;
  const yearBefore = yearBeforeRange(range);
  const [production, consumption, health, before, yearAgo, hours, dataHealth] = await Promise.all([
    unless403(deps, () => productionSeries(deps, plant.uuid, range)),
    unless403(deps, () => overRange<Series>('summaryConsumption')),
    unless403(deps, () => overRange<PvHealth>('pvHealth')),
    weeksBefore && unless403(deps, () => consumptionOver(weeksBefore)),
    unless403(deps, () => consumptionOver(yearBefore)),
    plant.location
      ? unless403(
          deps,
          async () =>
            (await deps.call('historyProduction', {
              params: { plantUuid: plant.uuid },
              query: {
                startDate: `${range.start}T00:00`,
                endDate: `${nextDay(range.end)}T00:00`,
                granularity: 'hours',
              },
            })) as Series,
        )
      : null,
    unless403(deps, () => unless404(deps, () => overRange<PlantDataHealth>('getDataHealth'))),
  ]);
  const bounds = production ?? consumption ?? health;
  return {
    plant,
    period,
    from: bounds?.from ?? `${range.start}T00:00:00Z`,
    to: bounds?.to ?? `${range.end}T00:00:00Z`,
    production: production && dayEnergies(production),
    consumption: consumption && dayEnergies(consumption),
    health: health && periodHealth(health),
    alerts: deps.alertsOf?.(plant.uuid) ?? [],
    consumptionHistory: consumption && { weeksBefore: before, yearBefore: yearAgo },
    productionHours: hours && hoursOf(hours),
    dataHealth: dataHealth && reportDataHealth(dataHealth),
  };
}

function periodHealth(health: PvHealth): PeriodHealth {
  const { energyProducedKwh, expectedEnergyKwh, performancePercent, performanceRatio, status } =
    health;
  return { energyProducedKwh, expectedEnergyKwh, performancePercent, performanceRatio, status };
}

/** The fields of `GET /plants` a report needs. */
interface ListedPlant {
  plantUuid: string;
  name: string;
  location: { timezone: string; latitude: number; longitude: number };
  pv: { peakPowerKw: number } | null;
}

/** The plant's site, when its answer carries one (a partial answer, as a test's, may not). */
const siteOf = ({ latitude, longitude }: ListedPlant['location']): Site | null =>
  Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;

const factsOf = (plant: ListedPlant): PlantFacts => ({
  uuid: plant.plantUuid,
  name: plant.name,
  timezone: plant.location.timezone,
  peakPowerKw: plant.pv?.peakPowerKw ?? null,
  location: siteOf(plant.location),
});

/** Plants per `GET /plants` page when a report reads them all. */
const PLANTS_PAGE_SIZE = 100;

/** The plants of a report: one (`plantUuid`) or every plant of the organization, by name. */
export async function reportPlants(
  deps: ReportSourceDeps,
  plantUuid?: string,
): Promise<PlantFacts[]> {
  if (plantUuid)
    return [factsOf((await deps.call('getPlant', { params: { plantUuid } })) as ListedPlant)];
  const plants: PlantFacts[] = [];
  for (let page = 0; ; page += 1) {
    const answer = (await deps.call('listPlants', {
      query: { page: String(page), size: String(PLANTS_PAGE_SIZE), sort: 'name' },
    })) as { content: ListedPlant[]; page: { totalPages: number } };
    plants.push(...answer.content.map(factsOf));
    if (page + 1 >= answer.page.totalPages) return plants;
  }
}

export interface MadeReport {
  fleet: FleetReport;
  /** Plants whose answers failed (other than 403), left out of the report. */
  failed: { name: string; error: unknown }[];
}

/** A report of `plants` over `period`, at most PER_PLANT_CONCURRENCY plants in flight. */
export async function makeReport(
  deps: ReportSourceDeps,
  plants: readonly PlantFacts[],
  period: ReportPeriod,
): Promise<MadeReport> {
  const reports: PlantReport[] = [];
  const failed: MadeReport['failed'] = [];
  await forEachLimited(
    plants,
    PER_PLANT_CONCURRENCY,
    async (plant) => buildPlantReport(await loadPlantReportInput(deps, plant, period)),
    (result, plant) => {
      if (result.status === 'fulfilled') reports.push(result.value);
      else failed.push({ name: plant.name, error: result.reason });
    },
  );
  const order = new Map(plants.map((plant, index) => [plant.uuid, index]));
  reports.sort((a, b) => order.get(a.plant.uuid)! - order.get(b.plant.uuid)!);
  return { fleet: buildFleetReport(period, reports), failed };
}
