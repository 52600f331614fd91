import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, nowIso, type SortColumnsOf } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { sensorTypesByUuid } from './catalogRecords.ts';
import { catalogSortColumns, containsAnyIgnoreCase, SORT_BY_CODE } from './catalogSupport.ts';
import { assertMayChange, findVisibleEntry, ownerOfNewEntry, visibleTo } from './catalogScope.ts';
import {
  SENSOR_TYPES,
  deleteSensorType,
  findSensorTypeOrThrow,
  insertSensorType,
  updateSensorType,
} from './sensorTypeStore.ts';

type SensorTypeHandlers = Pick<
  RouteHandlers,
  'createSensorType' | 'listSensorTypes' | 'getSensorType' | 'updateSensorType' | 'deleteSensorType'
>;

const SENSOR_TYPE_COLUMNS: SortColumnsOf<Routes['listSensorTypes']> = {
  ...catalogSortColumns(SENSOR_TYPES),
  sensorTypeUuid: 'sensor_types.sensor_type_uuid',
};

export function sensorTypeHandlers({ db, now }: ServerContext): SensorTypeHandlers {
  return {
    createSensorType: async ({ body, user }) =>
      insertSensorType(db, body, ownerOfNewEntry(SENSOR_TYPES, body, user), nowIso(now)),

    listSensorTypes: async ({ query, user }) => {
      let sensorTypes = db
        .selectFrom('sensor_types')
        .select('sensor_types.sensor_type_uuid')
        .where(visibleTo('sensor_types', user));
      if (query.search) {
        sensorTypes = sensorTypes.where(
          containsAnyIgnoreCase(['sensor_types.name', 'sensor_types.code'], query.search),
        );
      }
      const { rows, page } = await fetchPage(db, sensorTypes, query, {
        sortColumns: SENSOR_TYPE_COLUMNS,
        defaultSort: SORT_BY_CODE,
        tieBreaker: 'sensor_types.sensor_type_uuid',
      });
      // The page fixes the order; the records (with their data types) load in one batch.
      const uuids = rows.map((row) => row.sensor_type_uuid);
      const records = await sensorTypesByUuid(db, uuids);
      return {
        content: uuids.flatMap((uuid) => records.get(uuid) ?? []),
        page,
      };
    },

    getSensorType: async ({ params, user }) => {
      await findVisibleEntry(db, SENSOR_TYPES, params.sensorTypeUuid, user);
      return findSensorTypeOrThrow(db, params.sensorTypeUuid);
    },

    updateSensorType: async ({ params, body, user }) => {
      const entry = await findVisibleEntry(db, SENSOR_TYPES, params.sensorTypeUuid, user);
      assertMayChange(SENSOR_TYPES, entry, user, 'UPDATE');
      const current = await findSensorTypeOrThrow(db, params.sensorTypeUuid);
      return updateSensorType(
        db,
        current,
        entry.organizationUuid,
        user.organizationUuid,
        body,
        nowIso(now),
      );
    },

    deleteSensorType: async ({ params, user }) => {
      const entry = await findVisibleEntry(db, SENSOR_TYPES, params.sensorTypeUuid, user);
      assertMayChange(SENSOR_TYPES, entry, user, 'DELETE');
      const current = await findSensorTypeOrThrow(db, params.sensorTypeUuid);
      await deleteSensorType(db, current, user.organizationUuid);
      return undefined;
    },
  };
}
