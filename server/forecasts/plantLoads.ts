import type { DeviceCategory } from '../../api/index.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import type { LoadProfile } from './signatureModel.ts';

/**
 * A plant's devices as forecasts see them: type, category, rating and load signature. A device
 * without a signature of its own takes its device type's (the first by code), as a new heat
 * pump behaves like heat pumps in general until it has a history.
 */

export interface PlantDevice {
  deviceUuid: string;
  name: string;
  deviceTypeCode: string;
  category: DeviceCategory;
  ratedPowerW: number | null;
  signature: LoadProfile | null;
}

/** The signature of a household's lighting, cooking and appliances (reference catalog). */
export const HOUSEHOLD_BASE_CODE = 'HOUSEHOLD_BASE';

interface SignatureRow {
  code: string | null;
  hourly_profile: string | null;
  typical_daily_kwh: number | null;
}

/** A usable profile: 24 finite shares and a typical daily energy. */
function profileOf(row: SignatureRow): LoadProfile | null {
  if (row.code === null || row.hourly_profile === null || row.typical_daily_kwh === null) {
    return null;
  }
  const shares = JSON.parse(row.hourly_profile) as unknown;
  if (!Array.isArray(shares) || shares.length !== 24) return null;
  if (!shares.every((share) => typeof share === 'number' && Number.isFinite(share))) return null;
  return {
    code: row.code,
    hourlyProfile: shares as number[],
    typicalDailyKwh: row.typical_daily_kwh,
  };
}

export async function plantDevicesOf(db: Db, plantUuid: string): Promise<PlantDevice[]> {
  const rows = await rowsOf(
    db,
    db
      .selectFrom('devices as d')
      .innerJoin('device_types as t', 't.device_type_uuid', 'd.device_type_uuid')
      .leftJoin('load_signatures as own', 'own.load_signature_uuid', 'd.load_signature_uuid')
      .select([
        'd.device_uuid',
        'd.name',
        'd.rated_power_w',
        't.device_type_uuid',
        't.code as type_code',
        't.category',
        'own.code',
        'own.hourly_profile',
        'own.typical_daily_kwh',
      ])
      .where('d.plant_uuid', '=', plantUuid)
      .orderBy('d.name')
      .orderBy('d.device_uuid')
      .compile(),
  );
  const typeSignatures = await signaturesOfTypes(db, [
    ...new Set(rows.map((row) => row.device_type_uuid)),
  ]);
  return rows.map((row) => ({
    deviceUuid: row.device_uuid,
    name: row.name,
    deviceTypeCode: row.type_code,
    category: row.category as DeviceCategory,
    ratedPowerW: row.rated_power_w,
    signature: profileOf(row) ?? typeSignatures.get(row.device_type_uuid) ?? null,
  }));
}

/** The first usable signature (by code) of each device type. */
async function signaturesOfTypes(
  db: Db,
  deviceTypeUuids: readonly string[],
): Promise<Map<string, LoadProfile>> {
  const found = new Map<string, LoadProfile>();
  if (deviceTypeUuids.length === 0) return found;
  const rows = await rowsOf(
    db,
    db
      .selectFrom('load_signatures')
      .select(['device_type_uuid', 'code', 'hourly_profile', 'typical_daily_kwh'])
      .where('device_type_uuid', 'in', [...deviceTypeUuids])
      .orderBy('code')
      .compile(),
  );
  for (const row of rows) {
    const profile = profileOf(row);
    if (profile && row.device_type_uuid !== null && !found.has(row.device_type_uuid)) {
      found.set(row.device_type_uuid, profile);
    }
  }
  return found;
}

export async function householdBaseProfile(db: Db): Promise<LoadProfile | null> {
  const [row] = await rowsOf(
    db,
    db
      .selectFrom('load_signatures')
      .select(['code', 'hourly_profile', 'typical_daily_kwh'])
      .where('code', '=', HOUSEHOLD_BASE_CODE)
      .compile(),
  );
  return row ? profileOf(row) : null;
}
