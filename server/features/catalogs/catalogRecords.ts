import type { Selectable } from 'kysely';
import {
  DeviceCategory,
  VendorConfigSchema,
  VendorKind,
  type DataTypesCollect,
  type DeviceType,
  type LoadSignatureRecord,
  type SensorType,
  type Vendor,
} from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import type {
  DataTypesCollectsTable,
  DeviceTypesTable,
  LoadSignaturesTable,
  SensorTypesTable,
  VendorsTable,
} from '../../db/tables.ts';

/**
 * Batch loaders of the catalog entries that devices and sensors answer under `relationships`:
 * one `in (...)` query per catalog, whatever the number of records being answered.
 */

export type DeviceTypeRow = Selectable<DeviceTypesTable>;
export type LoadSignatureRow = Selectable<LoadSignaturesTable>;
export type VendorRow = Selectable<VendorsTable>;
export type SensorTypeRow = Selectable<SensorTypesTable>;
export type DataTypesCollectRow = Selectable<DataTypesCollectsTable>;

export function toDeviceType(row: DeviceTypeRow): DeviceType {
  return {
    deviceTypeUuid: row.device_type_uuid,
    code: row.code,
    name: row.name,
    category: DeviceCategory.parse(row.category),
    description: row.description,
    shared: row.organization_uuid === null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toLoadSignatureRecord(row: LoadSignatureRow): LoadSignatureRecord {
  const profile = JSON.parse(row.hourly_profile) as unknown;
  return {
    loadSignatureUuid: row.load_signature_uuid,
    code: row.code,
    name: row.name,
    description: row.description,
    deviceTypeUuid: row.device_type_uuid,
    hourlyProfile: Array.isArray(profile) ? profile.map(Number) : [],
    typicalDailyKwh: row.typical_daily_kwh,
    shared: row.organization_uuid === null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toVendor(row: VendorRow): Vendor {
  return {
    vendorUuid: row.vendor_uuid,
    code: row.code,
    name: row.name,
    kind: VendorKind.parse(row.kind),
    configSchema: VendorConfigSchema.parse(JSON.parse(row.config_schema)),
  };
}

export function toDataTypesCollect(row: DataTypesCollectRow): DataTypesCollect {
  return {
    dataTypesCollectUuid: row.data_types_collect_uuid,
    code: row.code,
    name: row.name,
    unit: row.unit,
  };
}

const distinct = (uuids: Iterable<string | null>): string[] => [
  ...new Set([...uuids].filter((uuid): uuid is string => uuid !== null)),
];

export async function deviceTypesByUuid(
  db: Db,
  uuids: Iterable<string | null>,
): Promise<Map<string, DeviceType>> {
  const wanted = distinct(uuids);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('device_types')
    .selectAll()
    .where('device_type_uuid', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.device_type_uuid, toDeviceType(row)]));
}

export async function loadSignaturesByUuid(
  db: Db,
  uuids: Iterable<string | null>,
): Promise<Map<string, LoadSignatureRecord>> {
  const wanted = distinct(uuids);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('load_signatures')
    .selectAll()
    .where('load_signature_uuid', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.load_signature_uuid, toLoadSignatureRecord(row)]));
}

export async function vendorsByUuid(
  db: Db,
  uuids: Iterable<string | null>,
): Promise<Map<string, Vendor>> {
  const wanted = distinct(uuids);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('vendors')
    .selectAll()
    .where('vendor_uuid', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.vendor_uuid, toVendor(row)]));
}

export async function dataTypesByUuid(
  db: Db,
  uuids: Iterable<string | null>,
): Promise<Map<string, DataTypesCollect>> {
  const wanted = distinct(uuids);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('data_types_collects')
    .selectAll()
    .where('data_types_collect_uuid', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.data_types_collect_uuid, toDataTypesCollect(row)]));
}

/** Sensor types with the data types each allows, in data type code order. */
export async function sensorTypesByUuid(
  db: Db,
  uuids: Iterable<string | null>,
): Promise<Map<string, SensorType>> {
  const wanted = distinct(uuids);
  if (wanted.length === 0) return new Map();
  const [rows, allowed] = await Promise.all([
    db.selectFrom('sensor_types').selectAll().where('sensor_type_uuid', 'in', wanted).execute(),
    allowedDataTypes(db, wanted),
  ]);
  return new Map(
    rows.map((row) => [
      row.sensor_type_uuid,
      {
        sensorTypeUuid: row.sensor_type_uuid,
        code: row.code,
        name: row.name,
        description: row.description,
        dataTypesCollectUuids: (allowed.get(row.sensor_type_uuid) ?? []).map(
          (dataType) => dataType.dataTypesCollectUuid,
        ),
        shared: row.organization_uuid === null,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      },
    ]),
  );
}

/** The data types each of the sensor types allows, in code order. */
export async function allowedDataTypes(
  db: Db,
  sensorTypeUuids: readonly string[],
): Promise<Map<string, DataTypesCollect[]>> {
  const bySensorType = new Map<string, DataTypesCollect[]>(
    sensorTypeUuids.map((uuid) => [uuid, []]),
  );
  if (sensorTypeUuids.length === 0) return bySensorType;
  const rows = await db
    .selectFrom('sensor_type_data_types as allowed')
    .innerJoin(
      'data_types_collects as d',
      'd.data_types_collect_uuid',
      'allowed.data_types_collect_uuid',
    )
    .select(['allowed.sensor_type_uuid', 'd.data_types_collect_uuid', 'd.code', 'd.name', 'd.unit'])
    .where('allowed.sensor_type_uuid', 'in', [...sensorTypeUuids])
    .orderBy('d.code')
    .execute();
  for (const row of rows) bySensorType.get(row.sensor_type_uuid)?.push(toDataTypesCollect(row));
  return bySensorType;
}
