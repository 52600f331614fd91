import type { Db } from '../db/database.ts';

export interface CatalogUuids {
  deviceTypes: Record<string, string>;
  sensorTypes: Record<string, string>;
  loadSignatures: Record<string, string>;
  dataTypes: Record<string, string>;
  vendors: Record<string, string>;
}

/** Code → uuid of every entry of the catalogs, for wiring seeded plants to them. */
export async function readCatalogUuids(db: Db): Promise<CatalogUuids> {
  const [deviceTypes, sensorTypes, loadSignatures, dataTypes, vendors] = await Promise.all([
    db
      .selectFrom('device_types')
      .select(['code', 'device_type_uuid as uuid'])
      .where('organization_uuid', 'is', null)
      .execute(),
    db
      .selectFrom('sensor_types')
      .select(['code', 'sensor_type_uuid as uuid'])
      .where('organization_uuid', 'is', null)
      .execute(),
    db
      .selectFrom('load_signatures')
      .select(['code', 'load_signature_uuid as uuid'])
      .where('organization_uuid', 'is', null)
      .execute(),
    db
      .selectFrom('data_types_collects')
      .select(['code', 'data_types_collect_uuid as uuid'])
      .execute(),
    db.selectFrom('vendors').select(['code', 'vendor_uuid as uuid']).execute(),
  ]);
  const byCode = (rows: { code: string; uuid: string }[]) =>
    Object.fromEntries(rows.map((row) => [row.code, row.uuid]));
  return {
    deviceTypes: byCode(deviceTypes),
    sensorTypes: byCode(sensorTypes),
    loadSignatures: byCode(loadSignatures),
    dataTypes: byCode(dataTypes),
    vendors: byCode(vendors),
  };
}
