import type { Translate } from '../../../i18n/translator.ts';
import { csvLines, csvNumber, csvText } from '../csv.ts';
import type { FleetReport, PlantReport } from './reportModel.ts';

/**
 * A report as CSV: the summary (one row per plant, in ranking order for the fleet) and the days
 * (one row per plant and local day). Comma-separated, `.` decimals, local days as `yyyy-MM-dd`,
 * ratios as fractions 0..1, a last row with the fleet's totals (scope FLEET; more than one plant), the expectation's basis as its code (WEEKS_BEFORE, YEAR_BEFORE;
 * empty when there is none), the data-health columns empty without the extension: a machine-friendly file that every spreadsheet and script parses the
 * same way whatever the user's language, as the charts' CSV export does. Only the header is in
 * the user's language; the PDF is the file for reading.
 */

const SUMMARY_COLUMNS = [
  'rank',
  'plant',
  'period',
  'productionKwh',
  'productionCoverage',
  'expectedProductionKwh',
  'performancePercent',
  'specificYield',
  'performanceRatio',
  'performanceRatioCoverage',
  'availability',
  'availabilityCoverage',
  'consumptionKwh',
  'consumptionCoverage',
  'expectedConsumptionKwh',
  'consumptionDifferencePercent',
  'consumptionBasis',
  'productionDataHealthCoverage',
  'consumptionDataHealthCoverage',
  'dataHealthGaps',
  'dataHealthCounterIssues',
  'dataHealthFrozen',
  'alerts',
  'scope',
  'productionOfExpectedKwh',
  'consumptionOfExpectedKwh',
] as const;

const DAY_COLUMNS = [
  'plant',
  'day',
  'productionKwh',
  'productionCoverage',
  'consumptionKwh',
  'consumptionCoverage',
] as const;

const header = (t: Translate, columns: readonly string[]) =>
  columns.map((column) => csvText(t(`reports.csv.${column}`)));

/** The share of the daylight with data that availability rests on. */
function availabilityCoverage({ availability }: PlantReport): number | null {
  if (availability.daylightHours === 0) return null;
  return 1 - availability.unknownHours / availability.daylightHours;
}

const count = (value: number | undefined) => (value === undefined ? '' : String(value));

function summaryRow(report: PlantReport, rank: number | null, period: string): string[] {
  const health = report.dataHealth;
  return [
    rank === null ? '' : String(rank),
    csvText(report.plant.name),
    period,
    csvNumber(report.production?.kwh),
    csvNumber(report.production?.coverage),
    csvNumber(report.expectedProductionKwh),
    csvNumber(report.performancePercent),
    csvNumber(report.specificYield),
    csvNumber(report.performanceRatio),
    csvNumber(report.performanceRatioCoverage),
    csvNumber(report.availability.ratio),
    csvNumber(availabilityCoverage(report), 4),
    csvNumber(report.consumption?.kwh),
    csvNumber(report.consumption?.coverage),
    csvNumber(report.expectedConsumption.expectedKwh),
    csvNumber(report.expectedConsumption.differencePercent),
    report.expectedConsumption.basis ?? '',
    csvNumber(health?.productionCoverage),
    csvNumber(health?.consumptionCoverage),
    count(health?.findings.gaps),
    count(health?.findings.counterIssues),
    count(health?.findings.frozen),
    String(report.alerts.length),
    'PLANT',
    csvNumber(report.expectedProductionKwh === null ? null : report.production?.kwh),
    csvNumber(report.expectedConsumption.expectedKwh === null ? null : report.consumption?.kwh),
  ];
}

/**
 * The fleet's totals as a last row, told apart by `scope` (FLEET) rather than by a name, which a
 * plant could share. The expectations' columns beside `…OfExpectedKwh` are the sums over the
 * plants with an expectation; columns with no fleet figure stay empty.
 */
function fleetRow(fleet: FleetReport, period: string): string[] {
  const row = new Map<(typeof SUMMARY_COLUMNS)[number], string>([
    ['period', period],
    ['productionKwh', csvNumber(fleet.productionKwh)],
    ['expectedProductionKwh', csvNumber(fleet.expectedProductionKwh)],
    ['specificYield', csvNumber(fleet.specificYield)],
    ['consumptionKwh', csvNumber(fleet.consumptionKwh)],
    ['expectedConsumptionKwh', csvNumber(fleet.expectedConsumptionKwh)],
    ['consumptionDifferencePercent', csvNumber(fleet.consumptionDifferencePercent)],
    ['alerts', String(fleet.alertCount)],
    ['scope', 'FLEET'],
    ['productionOfExpectedKwh', csvNumber(fleet.productionOfExpectedPlantsKwh)],
    ['consumptionOfExpectedKwh', csvNumber(fleet.consumptionOfExpectedPlantsKwh)],
  ]);
  return SUMMARY_COLUMNS.map((column) => row.get(column) ?? '');
}

export function summaryCsv(fleet: FleetReport, period: string, t: Translate): string {
  const byUuid = new Map(fleet.plants.map((plant) => [plant.plant.uuid, plant]));
  return csvLines([
    header(t, SUMMARY_COLUMNS),
    ...fleet.ranking.map((entry) => summaryRow(byUuid.get(entry.plantUuid)!, entry.rank, period)),
    // A plant's own report (one plant) needs no totals: they would repeat its row.
    ...(fleet.plants.length > 1 ? [fleetRow(fleet, period)] : []),
  ]);
}

export function daysCsv(plants: readonly PlantReport[], t: Translate): string {
  return csvLines([
    header(t, DAY_COLUMNS),
    ...plants.flatMap((report) =>
      report.days.map((day) => [
        csvText(report.plant.name),
        day.day,
        csvNumber(day.productionKwh),
        csvNumber(day.productionCoverage),
        csvNumber(day.consumptionKwh),
        csvNumber(day.consumptionCoverage),
      ]),
    ),
  ]);
}
