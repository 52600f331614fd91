import type { Db } from '../../db/database.ts';
import { engineOf } from '../../db/engine.ts';
import { plantSearchCondition } from './plantSearch.ts';

/** What narrows a list of plants: `GET /plants` and `GET /plant-summaries` share it. */
export interface PlantFilters {
  plantUuids?: readonly string[] | undefined;
  externalIds?: readonly string[] | undefined;
  search?: string | undefined;
}

/** The organization's plants matching the filters, every column selected, not yet ordered. */
export function filteredPlants(db: Db, organizationUuid: string, filters: PlantFilters) {
  let plants = db
    .selectFrom('plants')
    .selectAll()
    .where('organization_uuid', '=', organizationUuid);
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
  if (filters.search) {
    const term = filters.search;
    const engine = engineOf(db);
    plants = plants.where((eb) => plantSearchCondition(eb, engine, term));
  }
  return plants;
}
