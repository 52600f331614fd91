import {
  formatLocalDate,
  type LocalDate,
  freshnessState,
  PV_HEALTH_SEVERITY,
  type PlantSummary,
  type PlantSummarySortProperty,
  type SensorStateCounts,
  type SortOrder,
} from '../../../api/index.ts';
import { clearSkyIndex, createPvModel } from '../../domain/index.ts';
import type { Db } from '../../db/database.ts';
import { rowsOf } from '../../db/fastQuery.ts';
import type { PlantRow } from '../../db/tables.ts';
import { toPlant } from '../plants/plantStore.ts';
import {
  CLEAR_SKY_STEP_MS,
  CLIMATOLOGICAL_CLEAR_SKY_INDEX,
  FORECAST_AMBIENT_C,
} from '../../forecasts/clearSkyProduction.ts';
import { pvSiteOf } from '../../forecasts/pvSite.ts';
import { combineFlow, roundMetric } from '../../measurements/metrics/flowMeasures.ts';
import { localDay, todayIn, type TimeRange } from '../../measurements/metrics/localTime.ts';
import {
  consumptionFlow,
  productionFlow,
  type PlantFlow,
} from '../../measurements/metrics/plantFlows.ts';
import { assessPvHealth, type PvHealthFacts } from '../../pvHealth/pvHealthAssessment.ts';
import { healthSpan, pvHealthFactsFrom } from '../../pvHealth/pvHealthInputs.ts';
import { healthRange, type HealthRange } from '../../pvHealth/pvHealthRange.ts';
import { loadPlantInputs, type PlantInputs } from '../../pvHealth/plantInputs.ts';
import type { PvHealthThresholds } from '../../pvHealth/pvHealthThresholds.ts';

/**
 * Plant summaries: each plant at a glance. Today's figures are the local day so far, PV health
 * is that of the last 7 full local days, as `pv-health` answers by default.
 */

/** Which figures the caller may see: energy and health need their metrics permissions. */
export interface SummaryPermissions {
  production: boolean;
  consumption: boolean;
  health: boolean;
}

export interface SummaryOptions {
  nowMs: number;
  thresholds: PvHealthThresholds;
  permissions: SummaryPermissions;
}

/** Below this share of peak power expected so far (kWh per kWp), no percentage is given. */
const MIN_EXPECTED_KWH_PER_KWP = 0.01;

/**
 * Plants summarized together: each batch is read in a few queries (sensor freshness, then the
 * plants' inputs), so a whole organization is a few queries per batch, and each query's
 * `in (...)` lists stay bounded.
 */
export const SUMMARY_BATCH_PLANTS = 200;

export async function summarizePlants(
  db: Db,
  plants: readonly Readonly<PlantRow>[],
  options: SummaryOptions,
): Promise<PlantSummary[]> {
  const summaries: PlantSummary[] = [];
  for (let first = 0; first < plants.length; first += SUMMARY_BATCH_PLANTS) {
    const batch = plants.slice(first, first + SUMMARY_BATCH_PLANTS);
    const uuids = batch.map((plant) => plant.plant_uuid);
    const freshness = await sensorFreshness(db, uuids, options.nowMs);
    const periods = batch.map((plant) => periodsOf(plant, options.nowMs));
    const end = Math.max(...periods.map((period) => period.todayRange.end));
    const inputs = await loadPlantInputs(db, uuids, {
      production: { start: Math.min(...periods.map((period) => period.span.start)), end },
      consumption: { start: Math.min(...periods.map((period) => period.todayRange.start)), end },
    });
    batch.forEach((plant, index) => {
      summaries.push(
        summarizePlant(
          plant,
          periods[index]!,
          inputs.get(plant.plant_uuid)!,
          freshness.get(plant.plant_uuid),
          options,
        ),
      );
    });
  }
  return summaries;
}

/** A plant's local day so far and its PV health days, and the span of rollups both need. */
interface SummaryPeriods {
  today: LocalDate;
  todayRange: TimeRange;
  health: HealthRange;
  span: TimeRange;
}

function periodsOf(plant: Readonly<PlantRow>, nowMs: number): SummaryPeriods {
  const zone = plant.timezone;
  const now = new Date(nowMs);
  const today = todayIn(zone, now);
  const todayRange = localDay(zone, today);
  const health = healthRange(zone, undefined, undefined, now);
  const healthDays = healthSpan(zone, health);
  return {
    today,
    todayRange,
    health,
    span: {
      start: Math.min(todayRange.start, healthDays.start),
      end: Math.max(todayRange.end, healthDays.end),
    },
  };
}

function summarizePlant(
  plant: Readonly<PlantRow>,
  { today, todayRange, health: range }: SummaryPeriods,
  inputs: PlantInputs,
  freshness: PlantFreshness | undefined,
  { nowMs, thresholds, permissions }: SummaryOptions,
): PlantSummary {
  const zone = plant.timezone;
  const sensors = inputs.energySensors;
  const todayEnergy = (flow: PlantFlow) =>
    combineFlow(inputs.rollups.measureFlow(flow, [todayRange]), (energyKwh) => energyKwh)[0]!.value;
  const productionKwh = permissions.production ? todayEnergy(productionFlow(sensors)) : null;
  const consumptionKwh = permissions.consumption ? todayEnergy(consumptionFlow(sensors)) : null;

  const needHealth = permissions.health || permissions.production;
  const facts = needHealth ? pvHealthFactsFrom(plant, range, inputs) : null;
  const health = facts ? assessPvHealth(facts, thresholds) : null;

  const site = pvSiteOf(plant);
  const peak = plant.pv_peak_power_kw;
  let expectedProductionKwh: number | null = null;
  if (site && facts && permissions.production) {
    const clearSkySoFar = createPvModel(site).clearSkyEnergyKwh(
      todayRange.start,
      Math.min(Math.max(nowMs, todayRange.start), todayRange.end),
      FORECAST_AMBIENT_C,
      CLEAR_SKY_STEP_MS,
    );
    expectedProductionKwh = roundMetric(clearSkySoFar * recentClearSkyIndex(facts));
  }
  const yieldOf = (kwh: number | null | undefined) =>
    kwh == null || peak === null || !(peak > 0) ? null : roundMetric(kwh / peak);

  return {
    plantUuid: plant.plant_uuid,
    name: plant.name,
    externalIds: JSON.parse(plant.external_ids) as string[],
    location: toPlant(plant).location,
    timezone: zone,
    peakPowerKw: peak,
    localDate: formatLocalDate(today),
    productionKwh,
    consumptionKwh,
    expectedProductionKwh,
    productionPercentOfExpected:
      productionKwh !== null &&
      expectedProductionKwh !== null &&
      peak !== null &&
      expectedProductionKwh >= MIN_EXPECTED_KWH_PER_KWP * peak
        ? roundMetric((productionKwh / expectedProductionKwh) * 100)
        : null,
    specificYieldKwhPerKwp: yieldOf(productionKwh),
    specificYield7DaysKwhPerKwp:
      permissions.production && health ? yieldOf(health.energyProducedKwh) : null,
    status: permissions.health && health ? health.status : null,
    performancePercent: permissions.health && health ? health.performancePercent : null,
    lastReadingAt:
      freshness?.lastReadingAt == null ? null : new Date(freshness.lastReadingAt).toISOString(),
    sensorCounts: freshness?.counts ?? emptyCounts(),
  };
}

/**
 * The plant's clear-sky index over the PV health days: measured over clear-sky energy where
 * production was measured, by the forecasts' rules (low sun ignored, clamped); the
 * climatological index without such history.
 */
export function recentClearSkyIndex(facts: PvHealthFacts): number {
  const samples = facts.days.flatMap((day) =>
    day.quarterHours.map((quarter) => ({
      measuredKwh: quarter.productionCoverage > 0 ? quarter.producedKwh : null,
      clearSkyKwh: quarter.clearSkyKwh * quarter.productionCoverage,
      sunElevationDeg: quarter.sunElevationDeg,
    })),
  );
  return clearSkyIndex(samples) ?? CLIMATOLOGICAL_CLEAR_SKY_INDEX;
}

interface PlantFreshness {
  lastReadingAt: number | null;
  counts: SensorStateCounts;
}

const emptyCounts = (): SensorStateCounts => ({
  total: 0,
  REPORTING: 0,
  LATE: 0,
  SILENT: 0,
  NEVER: 0,
});

/**
 * Each plant's latest reading and its sensors by freshness state, in one query: the latest
 * reading of each sensor is one descent of the readings' primary key.
 */
async function sensorFreshness(
  db: Db,
  plantUuids: readonly string[],
  nowMs: number,
): Promise<Map<string, PlantFreshness>> {
  const byPlant = new Map<string, PlantFreshness>();
  if (plantUuids.length === 0) return byPlant;
  const rows = await rowsOf(
    db,
    db
      .selectFrom('sensors as s')
      .select((eb) => [
        's.plant_uuid',
        's.sampling_interval_seconds',
        eb
          .selectFrom('readings as r')
          .select((inner) => inner.fn.max('r.taken_at').as('latest'))
          .whereRef('r.sensor_uuid', '=', 's.sensor_uuid')
          .as('last_taken_at'),
      ])
      .where('s.plant_uuid', 'in', [...plantUuids])
      .compile(),
  );
  for (const row of rows) {
    let entry = byPlant.get(row.plant_uuid);
    if (!entry) {
      entry = { lastReadingAt: null, counts: emptyCounts() };
      byPlant.set(row.plant_uuid, entry);
    }
    const last = row.last_taken_at === null ? null : Number(row.last_taken_at);
    entry.counts.total += 1;
    entry.counts[freshnessState(last, row.sampling_interval_seconds, nowMs)] += 1;
    if (last !== null && (entry.lastReadingAt === null || last > entry.lastReadingAt)) {
      entry.lastReadingAt = last;
    }
  }
  return byPlant;
}

// ---- ordering ----

type SortValue = string | number | null;

function sortValue(summary: PlantSummary, property: PlantSummarySortProperty): SortValue {
  switch (property) {
    case 'name':
      return summary.name.toLowerCase();
    case 'status':
      return summary.status === null ? null : PV_HEALTH_SEVERITY[summary.status];
    case 'sensorCounts.total':
      return summary.sensorCounts.total;
    case 'sensorCounts.REPORTING':
      return summary.sensorCounts.REPORTING;
    case 'sensorCounts.LATE':
      return summary.sensorCounts.LATE;
    case 'sensorCounts.SILENT':
      return summary.sensorCounts.SILENT;
    case 'sensorCounts.NEVER':
      return summary.sensorCounts.NEVER;
    default:
      return summary[property];
  }
}

/**
 * Orders summaries as a list query asks: each sort order in turn, empty values last in either
 * direction (as the SQL lists do), then the plant uuid so pages never overlap.
 */
export function compareSummaries(orders: readonly SortOrder[]) {
  return (a: PlantSummary, b: PlantSummary): number => {
    for (const order of orders) {
      const property = order.property as PlantSummarySortProperty;
      const left = sortValue(a, property);
      const right = sortValue(b, property);
      if (left === right) continue;
      if (left === null) return 1;
      if (right === null) return -1;
      const difference = left < right ? -1 : 1;
      return order.direction === 'asc' ? difference : -difference;
    }
    return a.plantUuid < b.plantUuid ? -1 : a.plantUuid > b.plantUuid ? 1 : 0;
  };
}
