import type { Routes } from '../../../api/index.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, ignoringCase, nowIso, type SortColumnsOf } from '../../db/lists.ts';
import { filteredPlants } from './plantFilters.ts';
import { deletePlant, insertPlant, toPlant, updatePlant } from './plantStore.ts';

type PlantHandlers = Pick<
  RouteHandlers,
  'createPlant' | 'listPlants' | 'getPlant' | 'updatePlant' | 'deletePlant'
>;

const PLANT_COLUMNS: SortColumnsOf<Routes['listPlants']> = {
  plantUuid: 'plants.plant_uuid',
  name: ignoringCase('plants.name'),
  createdAt: 'plants.created_at',
  updatedAt: 'plants.updated_at',
};

export function plantHandlers({ db, now, searchUpkeep }: ServerContext): PlantHandlers {
  // What the search finds (names, external ids) may have changed: its index merges later.
  const noting = <T>(written: T): T => {
    searchUpkeep.noteWrite();
    return written;
  };
  return {
    createPlant: async ({ user, body }) =>
      noting(await insertPlant(db, user.organizationUuid, body, nowIso(now))),

    listPlants: async ({ user, query }) => {
      const plants = filteredPlants(db, user.organizationUuid, query);
      const { rows, page } = await fetchPage(db, plants, query, {
        sortColumns: PLANT_COLUMNS,
        defaultSort: [{ property: 'name', direction: 'asc' }],
        tieBreaker: 'plants.plant_uuid',
      });
      return {
        content: rows.map(toPlant),
        page,
      };
    },

    getPlant: async ({ plant }) => toPlant(plant),

    updatePlant: async ({ plant, body }) => noting(await updatePlant(db, plant, body, nowIso(now))),

    deletePlant: async ({ plant }) => {
      await deletePlant(db, plant.plant_uuid);
      return noting(undefined);
    },
  };
}
