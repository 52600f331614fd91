import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import {
  containsIgnoreCase,
  fetchPage,
  ignoringCase,
  nowIso,
  type SortColumnsOf,
} from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { toDevices } from './deviceRelationships.ts';
import {
  deleteDevice,
  findDeviceOrThrow,
  insertDevice,
  toDeviceRecord,
  updateDevice,
} from './deviceStore.ts';

type DeviceHandlers = Pick<
  RouteHandlers,
  'createDevice' | 'listDevices' | 'getDevice' | 'updateDevice' | 'deleteDevice'
>;

const DEVICE_COLUMNS: SortColumnsOf<Routes['listDevices']> = {
  deviceUuid: 'devices.device_uuid',
  name: ignoringCase('devices.name'),
  deviceTypeUuid: 'devices.device_type_uuid',
  vendorUuid: 'devices.vendor_uuid',
  model: ignoringCase('devices.model'),
  serialNumber: ignoringCase('devices.serial_number'),
  ratedPowerW: 'devices.rated_power_w',
  loadSignatureUuid: 'devices.load_signature_uuid',
  createdAt: 'devices.created_at',
  updatedAt: 'devices.updated_at',
};

export function deviceHandlers({ db, now }: ServerContext): DeviceHandlers {
  return {
    createDevice: async ({ plant, body }) =>
      toDeviceRecord(
        await insertDevice(db, plant.plant_uuid, plant.organization_uuid, body, nowIso(now)),
      ),

    listDevices: async ({ plant, query }) => {
      let devices = db.selectFrom('devices').selectAll().where('plant_uuid', '=', plant.plant_uuid);
      if (query.deviceTypeUuid) {
        devices = devices.where('device_type_uuid', '=', query.deviceTypeUuid);
      }
      if (query.search) {
        const term = query.search;
        devices = devices.where((eb) =>
          eb.or([
            containsIgnoreCase('devices.name', term),
            containsIgnoreCase('devices.model', term),
            containsIgnoreCase('devices.serial_number', term),
          ]),
        );
      }
      const { rows, page } = await fetchPage(db, devices, query, {
        sortColumns: DEVICE_COLUMNS,
        defaultSort: [{ property: 'name', direction: 'asc' }],
        tieBreaker: 'devices.device_uuid',
      });
      return { content: await toDevices(db, rows, query.includeRelationships), page };
    },

    getDevice: async ({ plant, params, query }) => {
      const row = await findDeviceOrThrow(db, plant.plant_uuid, params.deviceUuid);
      const [device] = await toDevices(db, [row], query.includeRelationships);
      return device!;
    },

    updateDevice: async ({ plant, params, body }) => {
      const current = await findDeviceOrThrow(db, plant.plant_uuid, params.deviceUuid);
      return toDeviceRecord(
        await updateDevice(db, current, plant.organization_uuid, body, nowIso(now)),
      );
    },

    deleteDevice: async ({ plant, params }) => {
      await findDeviceOrThrow(db, plant.plant_uuid, params.deviceUuid);
      await deleteDevice(db, params.deviceUuid);
      return undefined;
    },
  };
}
