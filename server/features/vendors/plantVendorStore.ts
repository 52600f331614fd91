import type { Selectable } from 'kysely';
import type { PlantVendor, Vendor } from '../../../api/index.ts';
import type { Db } from '../../db/database.ts';
import { parseJsonObject } from '../../db/lists.ts';
import type { PlantVendorsTable } from '../../db/tables.ts';
import { notFound } from '../../http/errors.ts';
import { toVendor } from '../catalogs/catalogRecords.ts';
import type { SettingsCipher } from './settingsCipher.ts';
import {
  sealSecrets,
  secretFieldsSet,
  storedSettingsOf,
  visibleSettings,
  type StoredSettings,
} from './vendorSettings.ts';

/** Reads and writes the vendor catalog and the configuration of vendors per plant. */

type Configuration = Pick<Selectable<PlantVendorsTable>, 'settings' | 'configured_at'>;

/** A vendor as a plant sees it; `configuration` is null when the plant has not configured it. */
export function toPlantVendor(vendor: Vendor, configuration: Configuration | null): PlantVendor {
  if (!configuration) {
    return {
      ...vendor,
      configured: false,
      settings: null,
      secretFieldsSet: [],
      configuredAt: null,
    };
  }
  const stored = storedSettingsOf(parseJsonObject(configuration.settings));
  return {
    ...vendor,
    configured: true,
    settings: visibleSettings(vendor, stored),
    secretFieldsSet: secretFieldsSet(vendor, stored),
    configuredAt: configuration.configured_at,
  };
}

export async function findVendorOrThrow(db: Db, vendorUuid: string): Promise<Vendor> {
  const row = await db
    .selectFrom('vendors')
    .selectAll()
    .where('vendor_uuid', '=', vendorUuid)
    .executeTakeFirst();
  if (!row) throw notFound(`Vendor ${vendorUuid} not found`);
  return toVendor(row);
}

export async function findConfiguration(
  db: Db,
  plantUuid: string,
  vendorUuid: string,
): Promise<Configuration | undefined> {
  return db
    .selectFrom('plant_vendors')
    .select(['settings', 'configured_at'])
    .where('plant_uuid', '=', plantUuid)
    .where('vendor_uuid', '=', vendorUuid)
    .executeTakeFirst();
}

/**
 * Stores a plant's settings for a vendor, creating or replacing its configuration. An upsert,
 * so two first configurations racing cannot fail; `configured_at` keeps the first one's time.
 */
export async function saveConfiguration(
  db: Db,
  plantUuid: string,
  vendorUuid: string,
  settings: StoredSettings,
  now: string,
): Promise<Configuration> {
  const json = JSON.stringify(settings);
  await db
    .insertInto('plant_vendors')
    .values({
      plant_uuid: plantUuid,
      vendor_uuid: vendorUuid,
      settings: json,
      configured_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['plant_uuid', 'vendor_uuid'])
        .doUpdateSet({ settings: json, updated_at: now }),
    )
    .execute();
  const saved = await findConfiguration(db, plantUuid, vendorUuid);
  if (!saved) throw new Error(`The configuration of vendor ${vendorUuid} vanished`);
  return saved;
}

/** False when the plant had no configuration for the vendor. */
export async function removeConfiguration(
  db: Db,
  plantUuid: string,
  vendorUuid: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('plant_vendors')
    .where('plant_uuid', '=', plantUuid)
    .where('vendor_uuid', '=', vendorUuid)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Seals the secret settings that earlier versions stored in clear. Run at start-up, before any
 * request; a handful of rows per plant at most.
 */
export async function sealPlaintextSecrets(db: Db, cipher: SettingsCipher): Promise<number> {
  const rows = await db
    .selectFrom('plant_vendors')
    .innerJoin('vendors', 'vendors.vendor_uuid', 'plant_vendors.vendor_uuid')
    .selectAll('vendors')
    .select(['plant_vendors.plant_uuid', 'plant_vendors.settings'])
    .execute();
  let sealed = 0;
  for (const { plant_uuid, settings, ...vendorRow } of rows) {
    const vendor = toVendor(vendorRow);
    const stored = storedSettingsOf(parseJsonObject(settings));
    const next = sealSecrets(vendor, plant_uuid, stored, cipher);
    if (JSON.stringify(next) === JSON.stringify(stored)) continue;
    await db
      .updateTable('plant_vendors')
      .set({ settings: JSON.stringify(next) })
      .where('plant_uuid', '=', plant_uuid)
      .where('vendor_uuid', '=', vendor.vendorUuid)
      .execute();
    sealed += 1;
  }
  return sealed;
}
