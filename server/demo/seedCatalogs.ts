import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../context.ts';
import { DATA_TYPES, DEVICE_TYPES, LOAD_SIGNATURES, SENSOR_TYPES, VENDORS } from './catalogData.ts';

/**
 * Seeds the reference catalogs on a new database. Data types and vendors have no API to create
 * them, so every server needs them; the standard sensor types, device types and load signatures
 * come along so a fresh server is usable at once. Runs once: a marker in `settings` says so.
 */
export async function seedReferenceCatalogs({ db, now }: ServerContext): Promise<void> {
  const marker = 'reference_catalogs_seeded';
  const done = await db
    .selectFrom('settings')
    .select('key')
    .where('key', '=', marker)
    .executeTakeFirst();
  if (done) return;
  const at = now().toISOString();
  await db.transaction().execute(async (trx) => {
    const dataTypeUuids = new Map<string, string>();
    for (const dataType of DATA_TYPES) {
      const uuid = randomUUID();
      dataTypeUuids.set(dataType.code, uuid);
      await trx
        .insertInto('data_types_collects')
        .values({ data_types_collect_uuid: uuid, ...dataType })
        .execute();
    }
    for (const sensorType of SENSOR_TYPES) {
      const uuid = randomUUID();
      await trx
        .insertInto('sensor_types')
        .values({
          sensor_type_uuid: uuid,
          code: sensorType.code,
          name: sensorType.name,
          description: sensorType.description,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await trx
        .insertInto('sensor_type_data_types')
        .values(
          sensorType.dataTypes.map((code) => ({
            sensor_type_uuid: uuid,
            data_types_collect_uuid: dataTypeUuids.get(code)!,
          })),
        )
        .execute();
    }
    const deviceTypeUuids = new Map<string, string>();
    for (const deviceType of DEVICE_TYPES) {
      const uuid = randomUUID();
      deviceTypeUuids.set(deviceType.code, uuid);
      await trx
        .insertInto('device_types')
        .values({ device_type_uuid: uuid, ...deviceType, created_at: at, updated_at: at })
        .execute();
    }
    for (const signature of LOAD_SIGNATURES) {
      const total = signature.weights.reduce((sum, weight) => sum + weight, 0);
      await trx
        .insertInto('load_signatures')
        .values({
          load_signature_uuid: randomUUID(),
          code: signature.code,
          name: signature.name,
          description: signature.description,
          device_type_uuid: signature.deviceTypeCode
            ? (deviceTypeUuids.get(signature.deviceTypeCode) ?? null)
            : null,
          hourly_profile: JSON.stringify(signature.weights.map((weight) => weight / total)),
          typical_daily_kwh: signature.typicalDailyKwh,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    for (const vendor of VENDORS) {
      await trx
        .insertInto('vendors')
        .values({
          vendor_uuid: randomUUID(),
          code: vendor.code,
          name: vendor.name,
          kind: vendor.kind,
          config_schema: JSON.stringify({ fields: vendor.fields }),
          created_at: at,
        })
        .execute();
    }
    await trx.insertInto('settings').values({ key: marker, value: at }).execute();
  });
}
