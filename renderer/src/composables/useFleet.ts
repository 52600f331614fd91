import { computed, ref, shallowRef, type Ref } from 'vue';
import { forEachLimited, PER_PLANT_CONCURRENCY } from '../../../api/concurrency.ts';
import type { QueryValue } from '../../../api/routeInput.ts';
import type { PV_HEALTH_STATUSES } from '../../../api/schemas/metrics.ts';
import { useBridge } from '../bridge.ts';
import { translate } from '../i18n.ts';
import { appNow } from '../clock.ts';
import {
  fromSummary,
  pendingRow,
  withConsumption,
  withHealth,
  withProduction,
  type FleetRow,
} from '../fleet/fleetRows.ts';
import { useExtensionSupportStore } from '../stores/useExtensionSupportStore.ts';
import { isRouteMissing } from './useSensorStatuses.ts';
import { useServerTable, type Page } from './useServerTable.ts';

export type PvHealthStatus = (typeof PV_HEALTH_STATUSES)[number];

/** Rows per page: the first screenful arrives in one answer. */
export const FLEET_PAGE_SIZE = 50;
const SUMMARIES_ROUTE = 'listPlantSummaries';

/**
 * The fleet screen's rows. With the fleet extension, one `plant-summaries` page sorted, filtered
 * and searched by the server (worst status first by default). Against a server with only the
 * specification's routes (detected once per environment: a 404 for the route), the plant list
 * page by page, then each plant's daily production and consumption and PV health, at most
 * PER_PLANT_CONCURRENCY requests in flight, each row filling in as its answers arrive.
 */
export function useFleet() {
  const bridge = useBridge();
  const support = useExtensionSupportStore();
  const extension = computed(() => support.isServed(SUMMARIES_ROUTE));
  const statuses = ref<PvHealthStatus[]>([]);
  const filters = computed<Record<string, QueryValue>>(() =>
    extension.value && statuses.value.length > 0 ? { status: statuses.value.join(',') } : {},
  );
  /** Answers still expected for the page on screen (assembled plant by plant). */
  const pending = ref(0);
  const requested = ref(0);
  let assembly = 0;

  const table = useServerTable<FleetRow>({
    fetch: fetchPage,
    sortField: 'status',
    sortOrder: -1,
    pageSize: FLEET_PAGE_SIZE,
    filters: filters as Ref<Record<string, QueryValue>>,
    failureText: () => translate('fleet.loadFailed'),
  });

  async function fetchPage(query: Record<string, QueryValue>): Promise<Page<FleetRow>> {
    if (extension.value) {
      try {
        const page = await bridge.call(SUMMARIES_ROUTE, { query }, { requestId: 'fleet-page' });
        return { ...page, content: page.content.map(fromSummary) };
      } catch (caught) {
        if (!isRouteMissing(caught)) throw caught;
        support.markMissing(SUMMARIES_ROUTE);
      }
    }
    return assemblePage(query);
  }

  /** The specification's routes: the plant page at once, its figures as they come. */
  async function assemblePage(query: Record<string, QueryValue>): Promise<Page<FleetRow>> {
    const generation = ++assembly;
    // Only the plant list sorts on the server here: by name.
    table.sortField.value = 'name';
    table.sortOrder.value = 1;
    const page = await bridge.call('listPlants', {
      query: { page: query.page, size: query.size, search: query.search, sort: 'name,asc' },
    });
    const now = appNow();
    const rows = page.content.map((plant) => pendingRow(plant, now));
    void fillIn(rows, generation);
    return { content: rows, page: page.page };
  }

  async function fillIn(rows: readonly FleetRow[], generation: number): Promise<void> {
    type Task = { plantUuid: string; kind: 'production' | 'consumption' | 'health' };
    const tasks: Task[] = rows.flatMap((row) => [
      { plantUuid: row.plantUuid, kind: 'production' as const },
      { plantUuid: row.plantUuid, kind: 'consumption' as const },
      ...(row.peakPowerKw === null ? [] : [{ plantUuid: row.plantUuid, kind: 'health' as const }]),
    ]);
    const left = new Map<string, number>();
    for (const task of tasks) left.set(task.plantUuid, (left.get(task.plantUuid) ?? 0) + 1);
    pending.value = tasks.length;
    requested.value = tasks.length;
    const current = () => generation === assembly;
    const update = (plantUuid: string, change: (row: FleetRow) => FleetRow) => {
      if (!current()) return;
      table.rows.value = table.rows.value.map((row) =>
        row.plantUuid === plantUuid ? change(row) : row,
      );
    };
    await forEachLimited(
      tasks,
      PER_PLANT_CONCURRENCY,
      async (task) => {
        if (!current()) return null;
        const input = { params: { plantUuid: task.plantUuid } };
        if (task.kind === 'production') {
          const series = await bridge.call('dailyProduction', input);
          return (row: FleetRow) => withProduction(row, series);
        }
        if (task.kind === 'consumption') {
          const series = await bridge.call('dailyConsumption', input);
          return (row: FleetRow) => withConsumption(row, series);
        }
        const health = await bridge.call('pvHealth', input);
        return (row: FleetRow) => withHealth(row, health);
      },
      (result, task) => {
        if (!current()) return;
        pending.value -= 1;
        const remaining = (left.get(task.plantUuid) ?? 1) - 1;
        left.set(task.plantUuid, remaining);
        update(task.plantUuid, (row) => {
          // A figure the user may not see (403) or a plant without data stays empty.
          const next = result.status === 'fulfilled' && result.value ? result.value(row) : row;
          return remaining === 0 ? { ...next, assembling: false } : next;
        });
      },
    );
  }

  return {
    table,
    extension,
    statuses,
    /** Answers still on their way for this page (plant by plant), and how many were asked. */
    pending,
    requested,
    assembling: computed(() => !extension.value && pending.value > 0),
  };
}

/** Every plant's summary, for the fleet's totals (the extension only). */
export function useFleetTotals() {
  const bridge = useBridge();
  const summaries = shallowRef<FleetRow[] | null>(null);
  const error = ref<string | null>(null);

  async function load(): Promise<void> {
    try {
      const all: FleetRow[] = [];
      for (let page = 0, pages = 1; page < pages; page++) {
        const answer = await bridge.call(SUMMARIES_ROUTE, {
          query: { page, size: 200, sort: 'name,asc' },
        });
        all.push(...answer.content.map(fromSummary));
        pages = answer.page.totalPages;
      }
      summaries.value = all;
      error.value = null;
    } catch (caught) {
      if (isRouteMissing(caught)) return;
      error.value = caught instanceof Error ? caught.message : String(caught);
    }
  }

  return { summaries, error, load };
}
