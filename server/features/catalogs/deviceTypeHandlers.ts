import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, nowIso, type SortColumnsOf } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { toDeviceType } from './catalogRecords.ts';
import { assertMayChange, findVisibleEntry, ownerOfNewEntry, visibleTo } from './catalogScope.ts';
import { catalogSortColumns, containsAnyIgnoreCase, SORT_BY_CODE } from './catalogSupport.ts';
import {
  DEVICE_TYPES,
  deleteDeviceType,
  findDeviceTypeOrThrow,
  insertDeviceType,
  updateDeviceType,
} from './deviceTypeStore.ts';

type DeviceTypeHandlers = Pick<
  RouteHandlers,
  'createDeviceType' | 'listDeviceTypes' | 'getDeviceType' | 'updateDeviceType' | 'deleteDeviceType'
>;

const DEVICE_TYPE_COLUMNS: SortColumnsOf<Routes['listDeviceTypes']> = {
  ...catalogSortColumns(DEVICE_TYPES),
  deviceTypeUuid: 'device_types.device_type_uuid',
  category: 'device_types.category',
};

export function deviceTypeHandlers({ db, now }: ServerContext): DeviceTypeHandlers {
  return {
    createDeviceType: async ({ body, user }) =>
      insertDeviceType(db, body, ownerOfNewEntry(DEVICE_TYPES, body, user), nowIso(now)),

    listDeviceTypes: async ({ query, user }) => {
      let deviceTypes = db
        .selectFrom('device_types')
        .selectAll()
        .where(visibleTo('device_types', user));
      if (query.search) {
        deviceTypes = deviceTypes.where(
          containsAnyIgnoreCase(['device_types.name', 'device_types.code'], query.search),
        );
      }
      const { rows, page } = await fetchPage(db, deviceTypes, query, {
        sortColumns: DEVICE_TYPE_COLUMNS,
        defaultSort: SORT_BY_CODE,
        tieBreaker: 'device_types.device_type_uuid',
      });
      return { content: rows.map(toDeviceType), page };
    },

    getDeviceType: async ({ params, user }) => {
      await findVisibleEntry(db, DEVICE_TYPES, params.deviceTypeUuid, user);
      return findDeviceTypeOrThrow(db, params.deviceTypeUuid);
    },

    updateDeviceType: async ({ params, body, user }) => {
      const current = await findVisibleEntry(db, DEVICE_TYPES, params.deviceTypeUuid, user);
      assertMayChange(DEVICE_TYPES, current, user, 'UPDATE');
      return updateDeviceType(db, params.deviceTypeUuid, current, body, nowIso(now));
    },

    deleteDeviceType: async ({ params, user }) => {
      const current = await findVisibleEntry(db, DEVICE_TYPES, params.deviceTypeUuid, user);
      assertMayChange(DEVICE_TYPES, current, user, 'DELETE');
      await deleteDeviceType(db, params.deviceTypeUuid, current, user.organizationUuid);
      return undefined;
    },
  };
}
