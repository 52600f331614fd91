import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { plantSearchCondition, plantSearchOf, type PlantSearch } from './plantSearch.ts';

/** What narrows a list of plants: `GET /plants` and `GET /plant-summaries` share it. */
export interface PlantFilters {
  plantUuids?: readonly string[] | undefined;
  externalIds?: readonly string[] | undefined;
  search?: string | undefined;
}

/** The filters with the search term as it is looked up (see `PlantSearch`). */
export interface PlantLookupFilters {
  plantUuids?: readonly string[] | undefined;
  externalIds?: readonly string[] | undefined;
  search?: PlantSearch | undefined;
}

/** The organization's plants matching the filters, every column selected, not yet ordered. */
export function filteredPlants(db: Db, organizationUuid: string, filters: PlantFilters) {
  const { search, ...lists } = filters;
  return filteredPlantsBy(db, organizationUuid, {
    ...lists,
    search: search ? plantSearchOf(engineOf(db), search) : undefined,
  });
}

/**
 * As `filteredPlants`; the organization, the lists' items and the search's value are only
 * bound, so they may be stand-ins (server/db/queryTemplates.ts).
 */
export function filteredPlantsBy(db: Db, organizationUuid: string, filters: PlantLookupFilters) {
  // A search answered from an index finds a few plants: they are looked up by key, and their
  // organization checked, rather than every plant of the organization read to be matched. The
  // organization's condition is written so no planner takes its index: a unary + on SQLite,
  // IS TRUE on PostgreSQL (whose planner, with stale statistics, read all 2,000 plants of the
  // organization for one match: 0.5 ms in the database, 0.1 ms so).
  const organization = sql.ref('plants.organization_uuid');
  let plants = db.selectFrom('plants').selectAll();
  const kind = filters.search?.kind;
  const indexed = kind !== undefined && kind !== 'scan';
  if (indexed && engineOf(db) === 'sqlite') {
    plants = plants.where(sql.raw('+plants.organization_uuid'), '=', organizationUuid);
  } else if (indexed) {
    plants = plants.where(sql<boolean>`(${organization} = ${organizationUuid}) is true`);
  } else {
    plants = plants.where(organization, '=', organizationUuid);
  }
  if (filters.plantUuids && filters.plantUuids.length > 0) {
    plants = plants.where('plant_uuid', 'in', [...filters.plantUuids]);
  }
  if (filters.externalIds && filters.externalIds.length > 0) {
    const externalIds = [...filters.externalIds];
    plants = plants.where((eb) =>
      eb.exists(
        eb
          .selectFrom('plant_external_ids as x')
          .select('x.plant_uuid')
          .whereRef('x.plant_uuid', '=', 'plants.plant_uuid')
          .where('x.external_id', 'in', externalIds),
      ),
    );
  }
  const search = filters.search;
  if (search) plants = plants.where((eb) => plantSearchCondition(eb, search, engineOf(db)));
  return plants;
}
