import type { RouteHandlers } from '../../http/routing.ts';
import type { ServerContext } from '../../context.ts';
import { nowIso } from '../../db/lists.ts';
import { refuseRevoked } from '../../http/sessionInStatement.ts';
import { EncodedJson } from '../../http/encodedJson.ts';
import { plantListPage, rememberedPageQuery } from './plantList.ts';
import { deletePlant, insertPlant, toPlant, updatePlant } from './plantStore.ts';

type PlantHandlers = Pick<
  RouteHandlers,
  'createPlant' | 'listPlants' | 'getPlant' | 'updatePlant' | 'deletePlant'
>;

export function plantHandlers(context: ServerContext): PlantHandlers {
  const { db, now, searchUpkeep, plantDirectory } = context;
  // What the search finds (names, external ids) may have changed: its index merges later.
  const noting = <T>(written: T): T => {
    searchUpkeep.noteWrite();
    return written;
  };
  return {
    createPlant: async ({ user, body }) =>
      noting(await insertPlant(db, user.organizationUuid, body, nowIso(now))),

    listPlants: async ({ user, query, sessionToCheck }) => {
      const org = user.organizationUuid;
      const checked = sessionToCheck ?? undefined;
      const remembered = await plantDirectory.page(org, rememberedPageQuery(query), checked);
      if (remembered?.revoked) throw refuseRevoked(context, checked!);
      if (remembered?.json !== undefined) return EncodedJson.ofJsonText(remembered.json);
      // The directory's statement checked the sign-in already, when it ran one.
      const stillToCheck = remembered ? undefined : checked;
      const { rows, page, revoked } = await plantListPage(db, org, query, stillToCheck);
      if (revoked) throw refuseRevoked(context, checked!);
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
