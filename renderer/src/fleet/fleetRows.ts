import type { PlantSummary, SensorStateCounts } from '../../../api/schemas/fleet.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { PvHealth, Series } from '../../../api/schemas/metrics.ts';
import { DateTime } from 'luxon';

/**
 * A row of the fleet screen: a plant summary as the extension answers it, or as a client
 * assembles it plant by plant from the specification's routes, where some figures are unknown
 * (`sensorCounts`, `lastReadingAt`, the expected production) and the others arrive one by one.
 */
export type FleetRow = Omit<PlantSummary, 'sensorCounts'> & {
  sensorCounts: SensorStateCounts | null;
  /** Figures still on their way (assembled plant by plant). */
  assembling: boolean;
};

export const fromSummary = (summary: PlantSummary): FleetRow => ({
  ...summary,
  assembling: false,
});

/** A plant of `GET /plants` before its figures arrive. */
export function pendingRow(plant: Plant, nowMs: number): FleetRow {
  const zone = plant.location.timezone;
  return {
    plantUuid: plant.plantUuid,
    name: plant.name,
    externalIds: plant.externalIds,
    location: plant.location,
    timezone: zone,
    peakPowerKw: plant.pv?.peakPowerKw ?? null,
    localDate: DateTime.fromMillis(nowMs, { zone }).toFormat('yyyy-MM-dd'),
    productionKwh: null,
    consumptionKwh: null,
    expectedProductionKwh: null,
    productionPercentOfExpected: null,
    specificYieldKwhPerKwp: null,
    specificYield7DaysKwhPerKwp: null,
    status: null,
    performancePercent: null,
    lastReadingAt: null,
    sensorCounts: null,
    assembling: true,
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Today's value of a daily series (the 7 days ending today): its last point. */
export function todayOf(series: Series): number | null {
  return series.points.at(-1)?.value ?? null;
}

export function withProduction(row: FleetRow, series: Series): FleetRow {
  const productionKwh = todayOf(series);
  return {
    ...row,
    productionKwh,
    specificYieldKwhPerKwp:
      productionKwh !== null && row.peakPowerKw ? round(productionKwh / row.peakPowerKw) : null,
  };
}

export const withConsumption = (row: FleetRow, series: Series): FleetRow => ({
  ...row,
  consumptionKwh: todayOf(series),
});

export const withHealth = (row: FleetRow, health: PvHealth): FleetRow => ({
  ...row,
  status: health.status,
  performancePercent: health.performancePercent,
  specificYield7DaysKwhPerKwp: row.peakPowerKw
    ? round(health.energyProducedKwh / row.peakPowerKw)
    : null,
});
