import { computed, ref, shallowRef } from 'vue';
import type { Alert, PlantDeskBridge } from '../../../electron/ipc/contract.ts';
import type { RouteId } from '../../../api/routes.ts';
import {
  daysCsv,
  makeReport,
  periodKey,
  previousMonth,
  reportPlants,
  summaryCsv,
  type MadeReport,
  type PlantFacts,
  type ReportPeriod,
  type ReportSourceDeps,
} from '../../../server/domain/reports/index.ts';
import { PlantDeskError, useBridge } from '../bridge.ts';
import { downloadText, fileNameOf } from '../charts/csv.ts';
import { appDate } from '../clock.ts';
import { translate } from '../i18n.ts';
import { errorMessage } from './useFormErrors.ts';

/** `fleet`, or one plant's uuid. */
export type ReportScope = 'fleet' | string;

/** The host's local day, `yyyy-MM-dd`: which month is the last complete one. */
function hostToday(): string {
  const now = appDate();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The bridge as the report source: the API's answers, and the monitor's alerts of the plant. */
export function bridgeReportSource(
  bridge: PlantDeskBridge,
  alerts: readonly Alert[],
): ReportSourceDeps {
  return {
    call: (route, input) => bridge.call(route as RouteId, input as never),
    statusOf: (error) =>
      error instanceof PlantDeskError && error.kind === 'api' ? error.status : undefined,
    alertsOf: (plantUuid) => alerts.filter((alert) => alert.plantUuid === plantUuid),
  };
}

/** The monitor's alerts; none when the host keeps none (the report says where they come from). */
export async function monitorAlerts(bridge: PlantDeskBridge): Promise<Alert[]> {
  try {
    return (await bridge.invoke('alerts.state')).alerts;
  } catch {
    return [];
  }
}

/**
 * The report of `scope` over `period` as the report screen makes it: the fleet's plants (those
 * already listed, if any) or the one plant.
 */
export async function makeScopeReport(
  bridge: PlantDeskBridge,
  scope: ReportScope,
  period: ReportPeriod,
  listed: readonly PlantFacts[] = [],
): Promise<MadeReport> {
  const deps = bridgeReportSource(bridge, await monitorAlerts(bridge));
  const chosen =
    scope === 'fleet'
      ? listed.length > 0
        ? listed
        : await reportPlants(deps)
      : await reportPlants(deps, scope);
  return makeReport(deps, chosen, period);
}

/**
 * A monthly or yearly report of one plant or the fleet, made again from the API whenever asked
 * (any past period). The PDF is the page printed by the host in the desktop app, or the
 * browser's print dialog; the CSVs are downloaded in both.
 */
export function useReports(bridge: PlantDeskBridge = useBridge()) {
  const plants = ref<PlantFacts[]>([]);
  const scope = ref<ReportScope>('fleet');
  const period = ref<ReportPeriod>(previousMonth(hostToday()));
  const report = shallowRef<MadeReport | null>(null);
  const madeAt = ref<Date | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const outcome = ref<string | null>(null);
  /** Browser mode: the PDF is the browser's print dialog, and the button says Print. */
  const browser = ref(false);
  let latest = 0;

  async function loadPlants(): Promise<void> {
    try {
      browser.value = (await bridge.invoke('app.info')).host === 'web';
      plants.value = await reportPlants(bridgeReportSource(bridge, []));
    } catch (caught) {
      error.value = errorMessage(caught);
    }
  }

  async function make(): Promise<void> {
    const request = ++latest;
    loading.value = true;
    error.value = null;
    outcome.value = null;
    try {
      const made = await makeScopeReport(bridge, scope.value, period.value, plants.value);
      if (request !== latest) return;
      report.value = made;
      madeAt.value = appDate();
    } catch (caught) {
      if (request === latest) {
        report.value = null;
        error.value = translate('reports.failed', { message: errorMessage(caught) });
      }
    } finally {
      if (request === latest) loading.value = false;
    }
  }

  const scopeName = computed(() =>
    scope.value === 'fleet'
      ? translate('reports.scopeFleet')
      : (plants.value.find((plant) => plant.uuid === scope.value)?.name ?? ''),
  );
  const baseName = () => `plantdesk-report-${scopeName.value}-${periodKey(period.value)}`;

  async function savePdf(): Promise<void> {
    error.value = null;
    try {
      if (browser.value) {
        window.print();
        outcome.value = translate('reports.printDialog');
        return;
      }
      const result = await bridge.invoke('report.savePdf', {
        suggestedName: fileNameOf(baseName(), 'pdf'),
      });
      outcome.value = result.saved
        ? translate('reports.pdfSaved', { path: result.path ?? '' })
        : translate('reports.pdfCancelled');
    } catch (caught) {
      error.value = errorMessage(caught);
    }
  }

  function downloadCsv(kind: 'summary' | 'days'): void {
    const made = report.value;
    if (!made) return;
    const text =
      kind === 'summary'
        ? summaryCsv(made.fleet, periodKey(made.fleet.period), translate)
        : daysCsv(made.fleet.plants, translate);
    const name = fileNameOf(`${baseName()}-${kind}`, 'csv');
    downloadText(name, text);
    outcome.value = translate('reports.csvDownloaded', { file: name });
  }

  return {
    plants,
    scope,
    period,
    report,
    madeAt,
    loading,
    error,
    outcome,
    browser,
    loadPlants,
    make,
    savePdf,
    downloadCsv,
  };
}
