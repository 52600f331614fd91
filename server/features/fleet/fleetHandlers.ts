import {
  PAGE_SIZE_DEFAULT,
  permission,
  type PlantSummary,
  type PlantSummarySortProperty,
  type SortOrder,
} from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, ignoringCase, type SortColumns } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { resolvePvHealthThresholds } from '../../pvHealth/pvHealthThresholds.ts';
import { filteredPlants } from '../plants/plantFilters.ts';
import { compareSummaries, type SummaryPermissions } from './plantSummaries.ts';
import { SummaryCache } from './summaryCache.ts';
import { plantSensorStatuses } from './sensorStatuses.ts';

type FleetHandlers = Pick<RouteHandlers, 'listPlantSummaries' | 'listSensorStatuses'>;

const DEFAULT_SORT: SortOrder[] = [{ property: 'name', direction: 'asc' }];

/** Properties that are columns of the plant: such an order pages in SQL, computing one page. */
const PLANT_COLUMNS: Partial<
  Record<PlantSummarySortProperty, string | ReturnType<typeof ignoringCase>>
> = {
  plantUuid: 'plants.plant_uuid',
  name: ignoringCase('plants.name'),
  timezone: 'plants.timezone',
  peakPowerKw: 'plants.pv_peak_power_kw',
};

/** Fleet monitoring: plant summaries and sensor freshness. */
export function fleetHandlers({ db, now, pvHealth }: ServerContext): FleetHandlers {
  const thresholds = resolvePvHealthThresholds(pvHealth);
  const cache = new SummaryCache();
  return {
    listPlantSummaries: async ({ user, query }) => {
      const permissions: SummaryPermissions = {
        production: user.permissions.includes(permission('PLANT_POWER_PRODUCTION', 'READ')),
        consumption: user.permissions.includes(permission('PLANT_POWER_CONSUMPTION', 'READ')),
        health: user.permissions.includes(permission('PLANT_HEALTH', 'READ')),
      };
      const options = { nowMs: now().getTime(), thresholds, permissions };
      const plants = filteredPlants(db, user.organizationUuid, query);
      const sort = query.sort && query.sort.length > 0 ? query.sort : DEFAULT_SORT;
      const statuses = query.status ?? [];
      if (statuses.length === 0 && sort.every((order) => order.property in PLANT_COLUMNS)) {
        const { rows, page } = await fetchPage(
          db,
          plants,
          { ...query, sort },
          {
            sortColumns: PLANT_COLUMNS as SortColumns,
            defaultSort: DEFAULT_SORT,
            tieBreaker: 'plants.plant_uuid',
          },
        );
        return { content: await cache.summaries(db, rows, options), page };
      }
      // Ordered or filtered by what is computed: every matching plant is summarized first (a
      // batch of plants at a time, a few queries each, unless summarized within the minute).
      const all = await cache.summaries(db, await plants.execute(), options);
      const matching =
        statuses.length === 0
          ? all
          : all.filter((summary) => summary.status !== null && statuses.includes(summary.status));
      matching.sort(compareSummaries(sort));
      return pageOfSummaries(matching, query.page ?? 0, query.size ?? PAGE_SIZE_DEFAULT);
    },

    listSensorStatuses: async ({ plant, query }) => {
      const evaluatedAt = now();
      return {
        plantUuid: plant.plant_uuid,
        timezone: plant.timezone,
        evaluatedAt: evaluatedAt.toISOString(),
        sensors: await plantSensorStatuses(db, plant, evaluatedAt.getTime(), {
          recent: query.recent === true,
        }),
      };
    },
  };
}

function pageOfSummaries(summaries: readonly PlantSummary[], number: number, size: number) {
  const totalElements = summaries.length;
  return {
    content: summaries.slice(number * size, (number + 1) * size),
    page: { number, size, totalElements, totalPages: Math.ceil(totalElements / size) },
  };
}
