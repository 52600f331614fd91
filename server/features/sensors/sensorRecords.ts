import type { SensorRecord, SensorFlow } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { storedMetadata } from '../../db/lists.ts';
import type { SensorRow } from '../../db/tables.ts';

/** Sensor rows as answered, with the data types they collect. */

export function toSensorRecord(row: SensorRow, dataTypesCollectUuids: string[]): SensorRecord {
  return {
    sensorUuid: row.sensor_uuid,
    plantUuid: row.plant_uuid,
    deviceUuid: row.device_uuid,
    name: row.name,
    sensorTypeUuid: row.sensor_type_uuid,
    dataTypesCollectUuids,
    flow: row.flow as SensorFlow,
    signInverted: row.sign_inverted === 1,
    samplingIntervalSeconds: row.sampling_interval_seconds,
    connection:
      row.connection_vendor_uuid !== null && row.connection_address !== null
        ? { vendorUuid: row.connection_vendor_uuid, address: row.connection_address }
        : null,
    metadata: storedMetadata(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The data types each sensor collects, in data type code order, in one query. */
export async function collectedDataTypes(
  db: Db,
  sensorUuids: readonly string[],
): Promise<Map<string, string[]>> {
  const bySensor = new Map<string, string[]>(sensorUuids.map((uuid) => [uuid, []]));
  if (sensorUuids.length === 0) return bySensor;
  const rows = await db
    .selectFrom('sensor_data_types as collected')
    .innerJoin(
      'data_types_collects as d',
      'd.data_types_collect_uuid',
      'collected.data_types_collect_uuid',
    )
    .select(['collected.sensor_uuid', 'collected.data_types_collect_uuid'])
    .where('collected.sensor_uuid', 'in', [...sensorUuids])
    .orderBy('d.code')
    .execute();
  for (const row of rows) bySensor.get(row.sensor_uuid)?.push(row.data_types_collect_uuid);
  return bySensor;
}

export async function toSensorRecords(db: Db, rows: readonly SensorRow[]): Promise<SensorRecord[]> {
  const dataTypes = await collectedDataTypes(
    db,
    rows.map((row) => row.sensor_uuid),
  );
  return rows.map((row) => toSensorRecord(row, dataTypes.get(row.sensor_uuid) ?? []));
}
