import type { Routes } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { containsIgnoreCase, fetchPage, ignoringCase, type SortColumnsOf } from '../../db/lists.ts';
import type { RouteHandlers } from '../../http/routing.ts';
import { toSensors } from './sensorRelationships.ts';
import { testConnection } from './sensorRules.ts';
import { deleteSensor, findSensorOrThrow, insertSensor, updateSensor } from './sensorStore.ts';

type SensorHandlers = Pick<
  RouteHandlers,
  | 'createSensor'
  | 'listSensors'
  | 'getSensor'
  | 'updateSensor'
  | 'deleteSensor'
  | 'testSensorConnection'
>;

const SENSOR_COLUMNS: SortColumnsOf<Routes['listSensors']> = {
  sensorUuid: 'sensors.sensor_uuid',
  deviceUuid: 'sensors.device_uuid',
  name: ignoringCase('sensors.name'),
  sensorTypeUuid: 'sensors.sensor_type_uuid',
  flow: 'sensors.flow',
  samplingIntervalSeconds: 'sensors.sampling_interval_seconds',
  createdAt: 'sensors.created_at',
  updatedAt: 'sensors.updated_at',
};

export function sensorHandlers(context: ServerContext): SensorHandlers {
  const { db } = context;
  return {
    createSensor: async ({ plant, user, query, body }) =>
      insertSensor(context, plant, body, {
        skip: query.ignoreConnectionsTest === true,
        requester: { userUuid: user.userUuid },
      }),

    listSensors: async ({ plant, query }) => {
      let sensors = db.selectFrom('sensors').selectAll().where('plant_uuid', '=', plant.plant_uuid);
      if (query.deviceUuid) sensors = sensors.where('device_uuid', '=', query.deviceUuid);
      if (query.dataTypesCollectUuid && query.dataTypesCollectUuid.length > 0) {
        const dataTypeUuids = query.dataTypesCollectUuid;
        sensors = sensors.where((eb) =>
          eb.exists(
            eb
              .selectFrom('sensor_data_types as collected')
              .select('collected.sensor_uuid')
              .whereRef('collected.sensor_uuid', '=', 'sensors.sensor_uuid')
              .where('collected.data_types_collect_uuid', 'in', dataTypeUuids),
          ),
        );
      }
      if (query.search) {
        const term = query.search;
        sensors = sensors.where((eb) =>
          eb.or([
            containsIgnoreCase('sensors.name', term),
            containsIgnoreCase('sensors.connection_address', term),
          ]),
        );
      }
      const { rows, page } = await fetchPage(db, sensors, query, {
        sortColumns: SENSOR_COLUMNS,
        defaultSort: [{ property: 'name', direction: 'asc' }],
        tieBreaker: 'sensors.sensor_uuid',
      });
      return { content: await toSensors(db, rows, query.includeRelationships), page };
    },

    getSensor: async ({ plant, params, query }) => {
      const row = await findSensorOrThrow(db, plant.plant_uuid, params.sensorUuid);
      const [sensor] = await toSensors(db, [row], query.includeRelationships);
      return sensor!;
    },

    updateSensor: async ({ plant, user, params, query, body }) => {
      const current = await findSensorOrThrow(db, plant.plant_uuid, params.sensorUuid);
      return updateSensor(context, current, plant.organization_uuid, body, {
        skip: query.ignoreConnectionsTest === true,
        requester: { userUuid: user.userUuid },
      });
    },

    testSensorConnection: async ({ plant, user, params }) => {
      const sensor = await findSensorOrThrow(db, plant.plant_uuid, params.sensorUuid);
      const result =
        sensor.connection_vendor_uuid === null || sensor.connection_address === null
          ? { ok: false, message: 'The sensor has no connection to test' }
          : await testConnection(
              context,
              { vendorUuid: sensor.connection_vendor_uuid, address: sensor.connection_address },
              { userUuid: user.userUuid },
            );
      return {
        ...result,
        address: sensor.connection_address,
        testedAt: context.now().toISOString(),
      };
    },

    deleteSensor: async ({ plant, params }) => {
      await findSensorOrThrow(db, plant.plant_uuid, params.sensorUuid);
      await deleteSensor(db, params.sensorUuid);
      return undefined;
    },
  };
}
