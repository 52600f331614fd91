import type { DataTypesCollect, Sensor } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type { DeviceRow, SensorRow } from '../../db/tables.ts';
import { dataTypesByUuid, sensorTypesByUuid } from '../catalogs/catalogRecords.ts';
import { toDeviceRecord } from '../devices/deviceStore.ts';
import { collectedDataTypes, toSensorRecord } from './sensorRecords.ts';

/**
 * Sensors as answered, with `relationships` when asked for. Related entities are loaded for the
 * whole page at once: a fixed number of queries, not a few per sensor.
 */
export async function toSensors(
  db: Db,
  rows: readonly SensorRow[],
  includeRelationships: boolean | undefined,
): Promise<Sensor[]> {
  const collected = await collectedDataTypes(
    db,
    rows.map((row) => row.sensor_uuid),
  );
  const records = rows.map((row) => toSensorRecord(row, collected.get(row.sensor_uuid) ?? []));
  if (!includeRelationships) return records;

  const [devices, sensorTypes, dataTypes] = await Promise.all([
    devicesByUuid(
      db,
      rows.map((row) => row.device_uuid),
    ),
    sensorTypesByUuid(
      db,
      rows.map((row) => row.sensor_type_uuid),
    ),
    dataTypesByUuid(
      db,
      records.flatMap((record) => record.dataTypesCollectUuids),
    ),
  ]);
  return records.map((record) => {
    const sensorType = sensorTypes.get(record.sensorTypeUuid);
    // The foreign key makes this impossible; the message is for whoever breaks it.
    if (!sensorType) throw new Error(`Sensor type ${record.sensorTypeUuid} is missing`);
    const device = record.deviceUuid ? devices.get(record.deviceUuid) : undefined;
    return {
      ...record,
      relationships: {
        device: device ? toDeviceRecord(device) : null,
        sensorType,
        dataTypesCollects: record.dataTypesCollectUuids
          .map((uuid) => dataTypes.get(uuid))
          .filter((dataType): dataType is DataTypesCollect => dataType !== undefined),
      },
    };
  });
}

async function devicesByUuid(
  db: Db,
  uuids: readonly (string | null)[],
): Promise<Map<string, DeviceRow>> {
  const wanted = [...new Set(uuids.filter((uuid): uuid is string => uuid !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('devices')
    .selectAll()
    .where('device_uuid', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.device_uuid, row]));
}
