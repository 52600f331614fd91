import { computed, nextTick, ref, shallowRef } from 'vue';
import type { PlantDeskBridge } from '../../../electron/ipc/contract.ts';
import type { MadeReport } from '../../../server/domain/reports/index.ts';
import {
  parseReportPrintQuery,
  type ReportPrintOrder,
} from '../../../server/domain/reports/printRequest.ts';
import { useBridge } from '../bridge.ts';
import { appDate } from '../clock.ts';
import { translate } from '../i18n.ts';
import { makeScopeReport } from './useReports.ts';
import { errorMessage } from './useFormErrors.ts';

interface Made {
  report: MadeReport;
  at: Date;
}

/**
 * The desktop app's print route (its hidden print window, for the report schedule): the report
 * the host already made for it (`reports.preparedReport` with the address's token; the page
 * reads nothing from the API), drawn as the report screen draws it, then `reports.printReady`
 * with the token once it is drawn, or with the reason it could not be. The host prints the page
 * then (or fails that run); nobody looks at this page. In browser mode no host makes reports
 * (there is no schedule), so the address stays printable by making the report from the API as
 * the report screen does.
 */
export function useReportPrint(
  query: Record<string, unknown>,
  bridge: PlantDeskBridge = useBridge(),
) {
  const order: ReportPrintOrder | null = parseReportPrintQuery(query);
  const report = shallowRef<MadeReport | null>(null);
  const madeAt = ref<Date | null>(null);
  // Computed, as on the report screen: the words follow the language.
  const scopeName = computed(() =>
    order?.scope === 'fleet'
      ? translate('reports.scopeFleet')
      : (report.value?.fleet.plants[0]?.plant.name ?? ''),
  );
  const error = ref<string | null>(null);

  async function tellHost(ok: boolean, message?: string): Promise<void> {
    if (!order) return;
    try {
      await bridge.invoke('reports.printReady', {
        token: order.token,
        ok,
        ...(message !== undefined && { message }),
      });
    } catch {
      // The host gave up already (its deadline): nothing is waiting for this page any more.
    }
  }

  async function make(): Promise<void> {
    if (!order) {
      error.value = translate('reports.printAddressInvalid');
      return;
    }
    try {
      const browser = (await bridge.invoke('app.info')).host === 'web';
      const made = browser ? await madeHere(order) : await handedOver(order);
      if (!made) return;
      report.value = made.report;
      madeAt.value = made.at;
      await nextTick();
      // Printed text needs its fonts: a PDF drawn before they load keeps the fallback's.
      await document.fonts?.ready;
      await tellHost(true);
    } catch (caught) {
      await fail(translate('reports.failed', { message: errorMessage(caught) }));
    }
  }

  async function handedOver(order: ReportPrintOrder): Promise<Made> {
    const prepared = await bridge.invoke('reports.preparedReport', { token: order.token });
    // The host prints only whole reports: no plant of it failed.
    return { report: { fleet: prepared.fleet, failed: [] }, at: new Date(prepared.madeAt) };
  }

  async function madeHere(order: ReportPrintOrder): Promise<Made | null> {
    const made = await makeScopeReport(bridge, order.scope, order.period);
    // A printed report is whole, or none.
    if (made.failed.length > 0) {
      await fail(
        translate(
          'reports.plantsFailed',
          { n: made.failed.length, names: made.failed.map((f) => f.name).join(', ') },
          made.failed.length,
        ),
      );
      return null;
    }
    return { report: made, at: appDate() };
  }

  async function fail(message: string): Promise<void> {
    error.value = message;
    await tellHost(false, message);
  }

  return { report, madeAt, scopeName, error, make };
}
