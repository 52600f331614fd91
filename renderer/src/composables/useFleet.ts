import {
  computed,
  onScopeDispose,
  ref,
  shallowRef,
  toValue,
  watch,
  type MaybeRefOrGetter,
  type Ref,
} from 'vue';
import { useQuery, useQueryClient } from '@tanstack/vue-query';
import { forEachLimited, PER_PLANT_CONCURRENCY } from '../../../api/concurrency.ts';
import type { QueryValue } from '../../../api/routeInput.ts';
import type { PlantSummary } from '../../../api/schemas/fleet.ts';
import type { PV_HEALTH_STATUSES } from '../../../api/schemas/metrics.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
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
import { apiQueryKey } from '../queryClient.ts';
import { callRoute, fetchRoute } from './useApiQuery.ts';
import { isRouteMissing } from './useSensorStatuses.ts';
import { useServerTable, type Page } from './useServerTable.ts';

export type PvHealthStatus = (typeof PV_HEALTH_STATUSES)[number];

/** Rows per page: the first screenful arrives in one answer. */
export const FLEET_PAGE_SIZE = 50;
/** Figures move: the screen reads them again every two minutes while it is shown. */
const FLEET_REFRESH_MS = 120_000;
const SUMMARIES_ROUTE = 'listPlantSummaries';

type FigureKind = 'production' | 'consumption' | 'health';

/** What arrived of one plant's figures (assembled plant by plant). */
interface Figures {
  changes: Partial<Record<FigureKind, (row: FleetRow) => FleetRow>>;
  /** Kinds answered (or failed) at least once: a plant's row is complete when all are. */
  answered: ReadonlySet<FigureKind>;
}

const kindsOf = (plant: Plant): FigureKind[] =>
  plant.pv ? ['production', 'consumption', 'health'] : ['production', 'consumption'];

/**
 * The fleet screen's rows. With the fleet extension, one `plant-summaries` page sorted, filtered
 * and searched by the server (worst status first by default). Against a server with only the
 * specification's routes (detected once per environment: a 404 for the route), the plant list
 * page by page, then each plant's daily production and consumption and PV health, at most
 * PER_PLANT_CONCURRENCY requests in flight, each row filling in as its answers arrive. Both are
 * queries of the shared cache, read again every FLEET_REFRESH_MS.
 */
export function useFleet() {
  const bridge = useBridge();
  const client = useQueryClient();
  const support = useExtensionSupportStore();
  const extension = computed(() => support.isServed(SUMMARIES_ROUTE));
  const statuses = ref<PvHealthStatus[]>([]);
  const filters = computed<Record<string, QueryValue>>(() =>
    extension.value && statuses.value.length > 0 ? { status: statuses.value.join(',') } : {},
  );
  /** Each plant's figures as they arrive, by plant (the plants of the page on screen). */
  const figures = shallowRef(new Map<string, Figures>());
  /** The plants of the page last read; a newer page stops the filling in of this one. */
  const plants = shallowRef<Plant[]>([]);
  let filling: AbortController | undefined;

  const table = useServerTable<typeof SUMMARIES_ROUTE | 'listPlants', FleetRow>({
    route: () => (extension.value ? SUMMARIES_ROUTE : 'listPlants'),
    // Only the plant list sorts on the server without the extension: by name.
    input: (query) =>
      extension.value
        ? { query }
        : { query: { page: query.page, size: query.size, search: query.search, sort: 'name,asc' } },
    read: async (route, input, signal) => {
      try {
        const page = await callRoute(bridge, route, input, signal);
        if (route === 'listPlants') fillIn((page as Page<Plant>).content);
        return page;
      } catch (caught) {
        // The screen asks the plant list instead (its route changes with `extension`).
        if (route === SUMMARIES_ROUTE && isRouteMissing(caught)) support.markMissing(route);
        throw caught;
      }
    },
    rows: (content) =>
      extension.value
        ? (content as PlantSummary[]).map(fromSummary)
        : (content as Plant[]).map(assembled),
    sortField: 'status',
    sortOrder: -1,
    pageSize: FLEET_PAGE_SIZE,
    filters: filters as Ref<Record<string, QueryValue>>,
    failureText: () => translate('fleet.loadFailed'),
    refetchInterval: FLEET_REFRESH_MS,
  });
  watch(extension, (served) => {
    if (served) return;
    table.sortField.value = 'name';
    table.sortOrder.value = 1;
  });

  function assembled(plant: Plant): FleetRow {
    const known = figures.value.get(plant.plantUuid);
    let row = pendingRow(plant, appNow());
    for (const change of Object.values(known?.changes ?? {})) row = change(row);
    const complete = kindsOf(plant).every((kind) => known?.answered.has(kind));
    return { ...row, assembling: !complete };
  }

  function record(plantUuid: string, kind: FigureKind, change?: (row: FleetRow) => FleetRow) {
    const next = new Map(figures.value);
    const known = next.get(plantUuid) ?? { changes: {}, answered: new Set() };
    next.set(plantUuid, {
      changes: change ? { ...known.changes, [kind]: change } : known.changes,
      answered: new Set(known.answered).add(kind),
    });
    figures.value = next;
  }

  /** The specification's routes: each plant's figures, as they come, through the cache. */
  function fillIn(page: Plant[]): void {
    filling?.abort();
    const controller = (filling = new AbortController());
    plants.value = page;
    // Figures of plants no longer listed go; those of plants still listed stay until replaced.
    figures.value = new Map(
      page.flatMap((plant) => {
        const known = figures.value.get(plant.plantUuid);
        return known ? [[plant.plantUuid, known] as const] : [];
      }),
    );
    const tasks = page.flatMap((plant) =>
      kindsOf(plant).map((kind) => ({ plantUuid: plant.plantUuid, kind })),
    );
    void forEachLimited(
      tasks,
      PER_PLANT_CONCURRENCY,
      async ({ plantUuid, kind }) => {
        const input = { params: { plantUuid } };
        if (kind === 'production') {
          const series = await fetchRoute(client, bridge, 'dailyProduction', input);
          return (row: FleetRow) => withProduction(row, series);
        }
        if (kind === 'consumption') {
          const series = await fetchRoute(client, bridge, 'dailyConsumption', input);
          return (row: FleetRow) => withConsumption(row, series);
        }
        const health = await fetchRoute(client, bridge, 'pvHealth', input);
        return (row: FleetRow) => withHealth(row, health);
      },
      (result, { plantUuid, kind }) => {
        if (controller.signal.aborted) return;
        // A figure the user may not see (403) or a plant without data stays empty.
        record(plantUuid, kind, result.status === 'fulfilled' ? result.value : undefined);
      },
      controller.signal,
    );
  }
  onScopeDispose(() => filling?.abort());

  const assembledMode = computed(() => !extension.value && plants.value.length > 0);
  /** Answers asked for the page on screen (assembled plant by plant), and those still to come. */
  const requested = computed(() =>
    assembledMode.value ? plants.value.reduce((sum, plant) => sum + kindsOf(plant).length, 0) : 0,
  );
  const pending = computed(() =>
    assembledMode.value
      ? plants.value.reduce(
          (sum, plant) =>
            sum +
            kindsOf(plant).filter((kind) => !figures.value.get(plant.plantUuid)?.answered.has(kind))
              .length,
          0,
        )
      : 0,
  );

  return {
    table,
    extension,
    statuses,
    /** Answers still on their way for this page (plant by plant), and how many were asked. */
    pending,
    requested,
    assembling: computed(() => pending.value > 0),
  };
}

/**
 * Every plant's summary, for the fleet's totals (the extension only), once `after` is true (the
 * table's first page goes first: these pages would compete with it). Null without the extension;
 * a failure leaves the totals out (the table says what failed).
 */
export function useFleetTotals(after: MaybeRefOrGetter<boolean>) {
  const bridge = useBridge();
  const support = useExtensionSupportStore();
  const served = computed(() => support.isServed(SUMMARIES_ROUTE));
  const query = useQuery({
    // Every page at once: a key of its own under the route's, which invalidating the route covers.
    queryKey: [...apiQueryKey(SUMMARIES_ROUTE), 'every page'],
    queryFn: async ({ signal }) => {
      const all: PlantSummary[] = [];
      for (let page = 0, pages = 1; page < pages; page++) {
        const input = { query: { page, size: 200, sort: 'name,asc' } };
        const answer = await callRoute(bridge, SUMMARIES_ROUTE, input, signal);
        all.push(...answer.content);
        pages = answer.page.totalPages;
      }
      return all;
    },
    enabled: computed(() => served.value && toValue(after)),
    refetchInterval: FLEET_REFRESH_MS,
  });

  return {
    summaries: computed(() =>
      served.value && query.data.value ? query.data.value.map(fromSummary) : null,
    ),
    /** Reads them again (with the extension: a refetch would ask even while disabled). */
    load: async () => {
      if (served.value) await query.refetch({ cancelRefetch: false });
    },
  };
}
