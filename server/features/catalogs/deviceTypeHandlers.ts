import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { fetchPage, nowIso, type SortColumnsOf } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { toDeviceType } from './catalogRecords.ts';
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
    createDeviceType: async ({ body }) => insertDeviceType(db, body, nowIso(now)),

    listDeviceTypes: async ({ query }) => {
      let deviceTypes = db.selectFrom('device_types').selectAll();
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

    getDeviceType: async ({ params }) => findDeviceTypeOrThrow(db, params.deviceTypeUuid),

    updateDeviceType: async ({ params, body }) => {
      const current = await findDeviceTypeOrThrow(db, params.deviceTypeUuid);
      return updateDeviceType(db, current, body, nowIso(now));
    },

    deleteDeviceType: async ({ params }) => {
      const current = await findDeviceTypeOrThrow(db, params.deviceTypeUuid);
      await deleteDeviceType(db, current);
      return undefined;
    },
  };
}
