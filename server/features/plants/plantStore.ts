import { randomUUID } from 'node:crypto';
import type { Plant, PlantCreateDto, PlantUpdateDto, PvSettings } from '../../../api/index.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import type { PlantRow } from '../../db/tables.ts';
import { isUniqueViolation } from '../../db/constraints.ts';
import { storedMetadata } from '../../db/lists.ts';
import { conflict } from '../../http/errors.ts';
import { rebuildDailyRollupsOfPlant } from '../../measurements/coarseRollupStore.ts';

/** Reads and writes plants with their external ids. */

export function toPlant(row: PlantRow): Plant {
  return {
    plantUuid: row.plant_uuid,
    name: row.name,
    externalIds: JSON.parse(row.external_ids) as string[],
    location: {
      latitude: row.latitude,
      longitude: row.longitude,
      timezone: row.timezone,
      altitudeM: row.altitude_m,
    },
    pv: pvOf(row),
    metadata: storedMetadata(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function pvOf(row: PlantRow): PvSettings | null {
  if (row.pv_peak_power_kw === null) return null;
  return {
    peakPowerKw: row.pv_peak_power_kw,
    tiltDeg: row.pv_tilt_deg ?? 0,
    azimuthDeg: row.pv_azimuth_deg ?? 180,
    lossesPercent: row.pv_losses_percent ?? 0,
  };
}

function pvColumns(pv: PvSettings | null) {
  return {
    pv_peak_power_kw: pv?.peakPowerKw ?? null,
    pv_tilt_deg: pv?.tiltDeg ?? null,
    pv_azimuth_deg: pv?.azimuthDeg ?? null,
    pv_losses_percent: pv?.lossesPercent ?? null,
  };
}

/** 409 when one of `externalIds` already belongs to another plant of the organization. */
async function assertExternalIdsFree(
  db: Db,
  organizationUuid: string,
  externalIds: readonly string[],
  exceptPlantUuid: string | null,
): Promise<void> {
  if (externalIds.length === 0) return;
  let query = db
    .selectFrom('plant_external_ids')
    .select('external_id')
    .where('organization_uuid', '=', organizationUuid)
    .where('external_id', 'in', [...externalIds]);
  if (exceptPlantUuid) query = query.where('plant_uuid', '!=', exceptPlantUuid);
  const taken = await query.executeTakeFirst();
  if (taken) throw externalIdConflict(taken.external_id);
}

const externalIdConflict = (externalId: string) =>
  conflict(`External id '${externalId}' is already used by another plant of the organization`);

async function replaceExternalIds(
  db: Db,
  plantUuid: string,
  organizationUuid: string,
  externalIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('plant_external_ids').where('plant_uuid', '=', plantUuid).execute();
  if (externalIds.length === 0) return;
  await db
    .insertInto('plant_external_ids')
    .values(
      externalIds.map((externalId, position) => ({
        plant_uuid: plantUuid,
        organization_uuid: organizationUuid,
        external_id: externalId,
        position,
      })),
    )
    .execute();
}

export async function insertPlant(
  db: Db,
  organizationUuid: string,
  dto: PlantCreateDto,
  now: string,
): Promise<Plant> {
  const externalIds = dto.externalIds ?? [];
  const row: PlantRow = {
    plant_uuid: randomUUID(),
    organization_uuid: organizationUuid,
    name: dto.name,
    latitude: dto.location.latitude,
    longitude: dto.location.longitude,
    timezone: dto.location.timezone,
    altitude_m: dto.location.altitudeM ?? null,
    ...pvColumns(dto.pv ?? null),
    external_ids: JSON.stringify(externalIds),
    metadata: JSON.stringify(dto.metadata ?? {}),
    created_at: now,
    updated_at: now,
  };
  await withUniqueAsConflict(() =>
    inTransaction(db, async (trx) => {
      await assertExternalIdsFree(trx, organizationUuid, externalIds, null);
      await trx.insertInto('plants').values(row).execute();
      await replaceExternalIds(trx, row.plant_uuid, organizationUuid, externalIds);
    }),
  );
  return toPlant(row);
}

export async function updatePlant(
  db: Db,
  current: PlantRow,
  dto: PlantUpdateDto,
  now: string,
): Promise<Plant> {
  const location = dto.location;
  const changes: Partial<PlantRow> = {
    ...(dto.name !== undefined && { name: dto.name }),
    ...(location && {
      latitude: location.latitude,
      longitude: location.longitude,
      timezone: location.timezone,
      altitude_m: location.altitudeM ?? null,
    }),
    ...(dto.pv !== undefined && pvColumns(dto.pv)),
    ...(dto.metadata !== undefined && { metadata: JSON.stringify(dto.metadata) }),
    ...(dto.externalIds !== undefined && { external_ids: JSON.stringify(dto.externalIds) }),
    updated_at: now,
  };
  const org = current.organization_uuid;
  await withUniqueAsConflict(() =>
    inTransaction(db, async (trx) => {
      await trx
        .updateTable('plants')
        .set(changes)
        .where('plant_uuid', '=', current.plant_uuid)
        .execute();
      // The daily rollups are the days of the plant's zone, and the hourly points its times.
      if (location && location.timezone !== current.timezone) {
        await rebuildDailyRollupsOfPlant(trx, current.plant_uuid, location.timezone);
      }
      if (dto.externalIds) {
        await assertExternalIdsFree(trx, org, dto.externalIds, current.plant_uuid);
        await replaceExternalIds(trx, current.plant_uuid, org, dto.externalIds);
      }
    }),
  );
  const updated = await db
    .selectFrom('plants')
    .selectAll()
    .where('plant_uuid', '=', current.plant_uuid)
    .executeTakeFirstOrThrow();
  return toPlant(updated);
}

/** Dependent rows (devices, sensors, vendor configurations, readings) go by cascade. */
export async function deletePlant(db: Db, plantUuid: string): Promise<void> {
  await db.deleteFrom('plants').where('plant_uuid', '=', plantUuid).execute();
}

async function withUniqueAsConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict('An external id is already used in the organization');
    throw error;
  }
}
