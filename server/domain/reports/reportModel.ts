import type { ReportPeriod } from './period.ts';
import {
  consumptionBaseline,
  differencePercent,
  type ConsumptionBaseline,
} from './consumptionBaseline.ts';
import {
  daylightAvailability,
  type Availability,
  type HourProduction,
  type Site,
} from './daylightAvailability.ts';
import type { ReportDataHealth } from './reportDataHealth.ts';

/**
 * The numbers of a monthly or yearly report, made from the API's answers alone: daily energy
 * per flow (with each day's coverage), PV health over the period, and the alerts the desktop
 * monitor kept. Pure: the same answers give the same report, so a past period can be made again
 * and a test can hold the report against the API.
 */

/** One local day of one flow, as a daily series answers it. */
export interface DayEnergy {
  day: string;
  /** kWh; null when the day has no data. */
  kwh: number | null;
  /** Share of the day with data, 0..1. */
  coverage: number;
  /** Length of the local day (23 or 25 on a change of clock). */
  hours: number;
}

/** The figures of PV health over the period, as `pv-health` answers them. */
export interface PeriodHealth {
  energyProducedKwh: number;
  expectedEnergyKwh: number | null;
  performancePercent: number | null;
  performanceRatio: number | null;
  status: string;
}

/** What a report lists of an alert. */
export interface ReportAlert {
  id: string;
  rule: string;
  severity: 'critical' | 'warning';
  subjectName: string | null;
  message: string;
  openedAt: string;
  resolvedAt: string | null;
}

export interface PlantReportInput {
  plant: {
    uuid: string;
    name: string;
    timezone: string;
    peakPowerKw: number | null;
    /** Where the sun is measured for availability; absent or null: the plant has no location. */
    location?: Site | null;
  };
  period: ReportPeriod;
  /** Start and end (exclusive) of the period as instants, from the daily series' `from`/`to`. */
  from: string;
  to: string;
  /** null: not readable (no permission) or not answered. */
  production: DayEnergy[] | null;
  consumption: DayEnergy[] | null;
  health: PeriodHealth | null;
  alerts: readonly ReportAlert[];
  /** Consumption per day before the period, for the expectation (null: not readable). */
  consumptionHistory?: {
    weeksBefore: DayEnergy[] | null;
    yearBefore: DayEnergy[] | null;
  } | null;
  /** Production per local hour of the period (null: not readable). */
  productionHours?: HourProduction[] | null;
  /** The data-health extension's view of the period; null without it (404) or not readable. */
  dataHealth?: ReportDataHealth | null;
}

/**
 * An energy total with the coverage it rests on. The coverage is the metrics answers' own (the
 * share of each day with data); where the server has the data-health extension, the report also
 * carries the coverage of the sensors behind the figure and their findings (`dataHealth`).
 */
export interface EnergyFigure {
  kwh: number | null;
  /** Time-weighted share of the period with data, 0..1. */
  coverage: number;
  daysWithData: number;
}

export interface PlantReport {
  plant: PlantReportInput['plant'];
  period: ReportPeriod;
  from: string;
  to: string;
  production: EnergyFigure | null;
  consumption: EnergyFigure | null;
  expectedProductionKwh: number | null;
  /** Production over expected, percent (PV health's own figure). */
  performancePercent: number | null;
  /** kWh per kWp over the period. */
  specificYield: number | null;
  performanceRatio: number | null;
  /** The coverage the performance ratio rests on: the production's. */
  performanceRatioCoverage: number | null;
  healthStatus: string | null;
  /** Expected consumption from the plant's own past, with the actual's difference from it. */
  expectedConsumption: ExpectedConsumption;
  /** Daylight availability by the hour. */
  availability: Availability;
  /** Coverage and findings of the data-health extension; null without it. */
  dataHealth: ReportDataHealth | null;
  alerts: ReportAlert[];
  days: ReportDay[];
}

export interface ExpectedConsumption extends ConsumptionBaseline {
  /** (actual − expected) / expected, percent. */
  differencePercent: number | null;
}

export interface ReportDay {
  day: string;
  productionKwh: number | null;
  productionCoverage: number | null;
  consumptionKwh: number | null;
  consumptionCoverage: number | null;
}

/** Totals are summed in this order and rounded like the API's energies (Wh resolution). */
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

export function energyFigure(days: readonly DayEnergy[]): EnergyFigure {
  let kwh = 0;
  let covered = 0;
  let hours = 0;
  let daysWithData = 0;
  for (const day of days) {
    hours += day.hours;
    covered += day.coverage * day.hours;
    if (day.kwh !== null) {
      kwh += day.kwh;
      daysWithData += 1;
    }
  }
  return {
    kwh: daysWithData === 0 ? null : round(kwh),
    coverage: hours === 0 ? 0 : round(covered / hours, 4),
    daysWithData,
  };
}

function expectedConsumptionOf(
  input: PlantReportInput,
  actual: EnergyFigure | null,
): ExpectedConsumption {
  const history = input.consumptionHistory;
  const baseline = consumptionBaseline({
    period: input.consumption ?? [],
    weeksBefore: history?.weeksBefore ?? null,
    yearBefore: history?.yearBefore ?? null,
  });
  return {
    ...baseline,
    differencePercent: differencePercent(actual?.kwh ?? null, baseline.expectedKwh),
  };
}

/** Alerts open at any moment of [from, to): opened before the end, not resolved before the start. */
export function alertsOfPeriod(
  alerts: readonly ReportAlert[],
  from: string,
  to: string,
): ReportAlert[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  return alerts
    .filter(
      (alert) =>
        Date.parse(alert.openedAt) < end &&
        (alert.resolvedAt === null || Date.parse(alert.resolvedAt) >= start),
    )
    .sort((a, b) => a.openedAt.localeCompare(b.openedAt) || a.id.localeCompare(b.id));
}

export function buildPlantReport(input: PlantReportInput): PlantReport {
  const production = input.production && energyFigure(input.production);
  const consumption = input.consumption && energyFigure(input.consumption);
  const peak = input.plant.peakPowerKw;
  const health = input.health;
  return {
    plant: input.plant,
    period: input.period,
    from: input.from,
    to: input.to,
    production,
    consumption,
    expectedProductionKwh: health?.expectedEnergyKwh ?? null,
    performancePercent: health?.performancePercent ?? null,
    specificYield:
      production?.kwh != null && peak != null && peak > 0 ? round(production.kwh / peak, 2) : null,
    performanceRatio: health?.performanceRatio ?? null,
    performanceRatioCoverage:
      health?.performanceRatio != null && production ? production.coverage : null,
    healthStatus: health?.status ?? null,
    expectedConsumption: expectedConsumptionOf(input, consumption),
    availability: daylightAvailability(input.productionHours ?? null, input.plant.location ?? null),
    dataHealth: input.dataHealth ?? null,
    alerts: alertsOfPeriod(input.alerts, input.from, input.to),
    days: mergeDays(input.production, input.consumption),
  };
}

function mergeDays(
  production: readonly DayEnergy[] | null,
  consumption: readonly DayEnergy[] | null,
): ReportDay[] {
  const byDay = new Map<string, ReportDay>();
  const rowOf = (day: string) => {
    let row = byDay.get(day);
    if (!row) {
      row = {
        day,
        productionKwh: null,
        productionCoverage: null,
        consumptionKwh: null,
        consumptionCoverage: null,
      };
      byDay.set(day, row);
    }
    return row;
  };
  for (const day of production ?? [])
    Object.assign(rowOf(day.day), { productionKwh: day.kwh, productionCoverage: day.coverage });
  for (const day of consumption ?? [])
    Object.assign(rowOf(day.day), { consumptionKwh: day.kwh, consumptionCoverage: day.coverage });
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
}

export interface FleetReport {
  period: ReportPeriod;
  plants: PlantReport[];
  productionKwh: number | null;
  consumptionKwh: number | null;
  /** Expected production of the plants that have an expectation, and their production. */
  expectedProductionKwh: number | null;
  productionOfExpectedPlantsKwh: number | null;
  /**
   * Expected consumption of the plants that have an expectation, their consumption, and its
   * difference from the expectation in percent. The difference is null when one of those plants
   * has no consumption figure: a sum of fewer plants' consumption against all their expectations
   * would read as a drop.
   */
  expectedConsumptionKwh: number | null;
  consumptionOfExpectedPlantsKwh: number | null;
  consumptionDifferencePercent: number | null;
  /** Total production over the total peak power of the plants with both. */
  specificYield: number | null;
  /** Plants by specific yield, best first; plants without one last, by name. */
  ranking: { plantUuid: string; name: string; specificYield: number | null; rank: number | null }[];
  alertCount: number;
}

const sumOf = (values: (number | null | undefined)[]): number | null => {
  const present = values.filter((value): value is number => value != null);
  return present.length === 0 ? null : round(present.reduce((a, b) => a + b, 0));
};

export function buildFleetReport(
  period: ReportPeriod,
  plants: readonly PlantReport[],
): FleetReport {
  const expected = plants.filter((plant) => plant.expectedProductionKwh !== null);
  const expectedUse = plants.filter((plant) => plant.expectedConsumption.expectedKwh !== null);
  const expectedConsumptionKwh = sumOf(
    expectedUse.map((plant) => plant.expectedConsumption.expectedKwh),
  );
  const consumptionOfExpectedPlantsKwh = sumOf(expectedUse.map((plant) => plant.consumption?.kwh));
  const everyActual = expectedUse.every((plant) => plant.consumption?.kwh != null);
  const rated = plants.filter(
    (plant) =>
      plant.production?.kwh != null &&
      plant.plant.peakPowerKw != null &&
      plant.plant.peakPowerKw > 0,
  );
  const ratedProduction = sumOf(rated.map((plant) => plant.production?.kwh));
  const ratedPeak = rated.reduce((total, plant) => total + (plant.plant.peakPowerKw ?? 0), 0);
  const ordered = [...plants].sort(
    (a, b) =>
      (b.specificYield ?? -Infinity) - (a.specificYield ?? -Infinity) ||
      a.plant.name.localeCompare(b.plant.name),
  );
  let rank = 0;
  return {
    period,
    plants: [...plants],
    productionKwh: sumOf(plants.map((plant) => plant.production?.kwh)),
    consumptionKwh: sumOf(plants.map((plant) => plant.consumption?.kwh)),
    expectedProductionKwh: sumOf(expected.map((plant) => plant.expectedProductionKwh)),
    productionOfExpectedPlantsKwh: sumOf(expected.map((plant) => plant.production?.kwh)),
    expectedConsumptionKwh,
    consumptionOfExpectedPlantsKwh,
    consumptionDifferencePercent: everyActual
      ? differencePercent(consumptionOfExpectedPlantsKwh, expectedConsumptionKwh)
      : null,
    specificYield:
      ratedProduction !== null && ratedPeak > 0 ? round(ratedProduction / ratedPeak, 2) : null,
    ranking: ordered.map((plant) => ({
      plantUuid: plant.plant.uuid,
      name: plant.plant.name,
      specificYield: plant.specificYield,
      rank: plant.specificYield === null ? null : ++rank,
    })),
    alertCount: plants.reduce((total, plant) => total + plant.alerts.length, 0),
  };
}
