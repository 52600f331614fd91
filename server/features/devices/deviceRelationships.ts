import type { Device, SensorRecord } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type { DeviceRow } from '../../db/tables.ts';
import { toSensorRecords } from '../sensors/sensorRecords.ts';
import {
  deviceTypesByUuid,
  loadSignaturesByUuid,
  vendorsByUuid,
} from '../catalogs/catalogRecords.ts';
import { toDeviceRecord } from './deviceStore.ts';

/**
 * Devices as answered, with `relationships` when asked for. Related entities are loaded for the
 * whole page at once: a fixed number of queries, not a few per device.
 */
export async function toDevices(
  db: Db,
  rows: readonly DeviceRow[],
  includeRelationships: boolean | undefined,
): Promise<Device[]> {
  if (!includeRelationships) return rows.map(toDeviceRecord);
  const [deviceTypes, loadSignatures, vendors, sensors] = await Promise.all([
    deviceTypesByUuid(
      db,
      rows.map((row) => row.device_type_uuid),
    ),
    loadSignaturesByUuid(
      db,
      rows.map((row) => row.load_signature_uuid),
    ),
    vendorsByUuid(
      db,
      rows.map((row) => row.vendor_uuid),
    ),
    sensorsByDevice(
      db,
      rows.map((row) => row.device_uuid),
    ),
  ]);
  return rows.map((row) => {
    const deviceType = deviceTypes.get(row.device_type_uuid);
    // The foreign key makes this impossible; the message is for whoever breaks it.
    if (!deviceType) throw new Error(`Device type ${row.device_type_uuid} is missing`);
    return {
      ...toDeviceRecord(row),
      relationships: {
        deviceType,
        sensors: sensors.get(row.device_uuid) ?? [],
        loadSignature: row.load_signature_uuid
          ? (loadSignatures.get(row.load_signature_uuid) ?? null)
          : null,
        vendor: row.vendor_uuid ? (vendors.get(row.vendor_uuid) ?? null) : null,
      },
    };
  });
}

async function sensorsByDevice(
  db: Db,
  deviceUuids: readonly string[],
): Promise<Map<string, SensorRecord[]>> {
  const byDevice = new Map<string, SensorRecord[]>();
  if (deviceUuids.length === 0) return byDevice;
  const rows = await db
    .selectFrom('sensors')
    .selectAll()
    .where('device_uuid', 'in', [...deviceUuids])
    .orderBy('name')
    .orderBy('sensor_uuid')
    .execute();
  for (const sensor of await toSensorRecords(db, rows)) {
    if (sensor.deviceUuid === null) continue;
    const list = byDevice.get(sensor.deviceUuid) ?? [];
    list.push(sensor);
    byDevice.set(sensor.deviceUuid, list);
  }
  return byDevice;
}
