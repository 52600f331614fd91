import type { Routes } from '../../../api/index.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import type { ServerContext } from '../../context.ts';
import {
  containsIgnoreCase,
  fetchPage,
  ignoringCase,
  nowIso,
  type SortColumnsOf,
} from '../../db/lists.ts';
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

export function plantHandlers({ db, now }: ServerContext): PlantHandlers {
  return {
    createPlant: async ({ user, body }) =>
      insertPlant(db, user.organizationUuid, body, nowIso(now)),

    listPlants: async ({ user, query }) => {
      let plants = db
        .selectFrom('plants')
        .selectAll()
        .where('organization_uuid', '=', user.organizationUuid);
      if (query.plantUuids && query.plantUuids.length > 0) {
        plants = plants.where('plant_uuid', 'in', query.plantUuids);
      }
      if (query.externalIds && query.externalIds.length > 0) {
        const externalIds = query.externalIds;
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
      if (query.search) {
        const term = query.search;
        plants = plants.where((eb) =>
          eb.or([
            containsIgnoreCase('plants.name', term),
            eb.exists(
              eb
                .selectFrom('plant_external_ids as s')
                .select('s.plant_uuid')
                .whereRef('s.plant_uuid', '=', 'plants.plant_uuid')
                .where(containsIgnoreCase('s.external_id', term)),
            ),
          ]),
        );
      }
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

    updatePlant: async ({ plant, body }) => updatePlant(db, plant, body, nowIso(now)),

    deletePlant: async ({ plant }) => {
      await deletePlant(db, plant.plant_uuid);
      return undefined;
    },
  };
}
