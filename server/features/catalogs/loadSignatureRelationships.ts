import type { DeviceRecord, LoadSignature } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import {
  deviceTypesByUuid,
  toLoadSignatureRecord,
  type LoadSignatureRow,
} from './catalogRecords.ts';
import { toDeviceRecord } from '../devices/deviceStore.ts';

/**
 * Load signatures as answered, with `relationships` when asked for. The catalog is global but
 * devices are not: only devices of the caller's organization appear, so one organization never
 * sees another's devices through a shared signature.
 */
export async function toLoadSignatures(
  db: Db,
  rows: readonly LoadSignatureRow[],
  includeRelationships: boolean | undefined,
  organizationUuid: string,
): Promise<LoadSignature[]> {
  if (!includeRelationships) return rows.map(toLoadSignatureRecord);
  const [deviceTypes, devices] = await Promise.all([
    deviceTypesByUuid(
      db,
      rows.map((row) => row.device_type_uuid),
    ),
    devicesBySignature(
      db,
      rows.map((row) => row.load_signature_uuid),
      organizationUuid,
    ),
  ]);
  return rows.map((row) => ({
    ...toLoadSignatureRecord(row),
    relationships: {
      deviceType: row.device_type_uuid ? (deviceTypes.get(row.device_type_uuid) ?? null) : null,
      devices: devices.get(row.load_signature_uuid) ?? [],
    },
  }));
}

async function devicesBySignature(
  db: Db,
  loadSignatureUuids: readonly string[],
  organizationUuid: string,
): Promise<Map<string, DeviceRecord[]>> {
  const bySignature = new Map<string, DeviceRecord[]>();
  if (loadSignatureUuids.length === 0) return bySignature;
  const rows = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.plant_uuid', 'devices.plant_uuid')
    .selectAll('devices')
    .where('plants.organization_uuid', '=', organizationUuid)
    .where('devices.load_signature_uuid', 'in', [...loadSignatureUuids])
    .orderBy('devices.name')
    .orderBy('devices.device_uuid')
    .execute();
  for (const row of rows) {
    if (row.load_signature_uuid === null) continue;
    const list = bySignature.get(row.load_signature_uuid) ?? [];
    list.push(toDeviceRecord(row));
    bySignature.set(row.load_signature_uuid, list);
  }
  return bySignature;
}
