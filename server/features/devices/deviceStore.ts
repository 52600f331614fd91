import { randomUUID } from 'node:crypto';
import type { DeviceRecord, DevicesCreateDto, DevicesUpdateDto } from '../../../api/index.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/constraints.ts';
import { storedMetadata } from '../../db/lists.ts';
import type { DeviceRow } from '../../db/tables.ts';
import { conflict, notFound, unprocessable } from '../../http/errors.ts';
import { visibleTo } from '../catalogs/catalogScope.ts';

/** Reads and writes the devices of a plant. */

export function toDeviceRecord(row: DeviceRow): DeviceRecord {
  return {
    deviceUuid: row.device_uuid,
    plantUuid: row.plant_uuid,
    name: row.name,
    deviceTypeUuid: row.device_type_uuid,
    vendorUuid: row.vendor_uuid,
    model: row.model,
    serialNumber: row.serial_number,
    ratedPowerW: row.rated_power_w,
    loadSignatureUuid: row.load_signature_uuid,
    metadata: storedMetadata(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A device of another plant is as unknown as one that does not exist. */
export async function findDeviceOrThrow(
  db: Db,
  plantUuid: string,
  deviceUuid: string,
): Promise<DeviceRow> {
  const row = await db
    .selectFrom('devices')
    .selectAll()
    .where('plant_uuid', '=', plantUuid)
    .where('device_uuid', '=', deviceUuid)
    .executeTakeFirst();
  if (!row) throw notFound(`Device ${deviceUuid} not found in plant ${plantUuid}`);
  return row;
}

/** `organizationUuid`: the plant's, whose catalog entries (and the shared ones) it may use. */
export async function insertDevice(
  db: Db,
  plantUuid: string,
  organizationUuid: string,
  dto: DevicesCreateDto,
  now: string,
): Promise<DeviceRow> {
  return guardConstraints(dto.serialNumber, () =>
    inTransaction(db, async (trx) => {
      const deviceType = await requireDeviceType(trx, dto.deviceTypeUuid, organizationUuid);
      await requireCatalogReferences(trx, dto, organizationUuid);
      const row: DeviceRow = {
        device_uuid: randomUUID(),
        plant_uuid: plantUuid,
        name: dto.name ?? deviceType.name,
        device_type_uuid: dto.deviceTypeUuid,
        vendor_uuid: dto.vendorUuid ?? null,
        model: dto.model ?? null,
        serial_number: dto.serialNumber ?? null,
        rated_power_w: dto.ratedPowerW ?? null,
        load_signature_uuid: dto.loadSignatureUuid ?? null,
        metadata: JSON.stringify(dto.metadata ?? {}),
        created_at: now,
        updated_at: now,
      };
      await assertSerialNumberFree(trx, plantUuid, row.serial_number, null);
      await trx.insertInto('devices').values(row).execute();
      return row;
    }),
  );
}

/** PUT merges: a field left out keeps its value; `null` clears an optional one. */
export async function updateDevice(
  db: Db,
  current: DeviceRow,
  organizationUuid: string,
  dto: DevicesUpdateDto,
  now: string,
): Promise<DeviceRow> {
  const changes: Partial<DeviceRow> = {
    ...(dto.name !== undefined && { name: dto.name }),
    ...(dto.deviceTypeUuid !== undefined && { device_type_uuid: dto.deviceTypeUuid }),
    ...(dto.vendorUuid !== undefined && { vendor_uuid: dto.vendorUuid }),
    ...(dto.model !== undefined && { model: dto.model }),
    ...(dto.serialNumber !== undefined && { serial_number: dto.serialNumber }),
    ...(dto.ratedPowerW !== undefined && { rated_power_w: dto.ratedPowerW }),
    ...(dto.loadSignatureUuid !== undefined && { load_signature_uuid: dto.loadSignatureUuid }),
    ...(dto.metadata !== undefined && { metadata: JSON.stringify(dto.metadata) }),
    updated_at: now,
  };
  return guardConstraints(dto.serialNumber, () =>
    inTransaction(db, async (trx) => {
      if (dto.deviceTypeUuid !== undefined) {
        await requireDeviceType(trx, dto.deviceTypeUuid, organizationUuid);
      }
      await requireCatalogReferences(trx, dto, organizationUuid);
      if (dto.serialNumber != null && dto.serialNumber !== current.serial_number) {
        await assertSerialNumberFree(
          trx,
          current.plant_uuid,
          dto.serialNumber,
          current.device_uuid,
        );
      }
      const { numUpdatedRows } = await trx
        .updateTable('devices')
        .set(changes)
        .where('device_uuid', '=', current.device_uuid)
        .executeTakeFirstOrThrow();
      // Deleted by another request since it was read.
      if (numUpdatedRows === 0n) throw notFound(`Device ${current.device_uuid} not found`);
      return { ...current, ...changes };
    }),
  );
}

/** The device's sensors stay in the plant: the foreign key sets their `device_uuid` to null. */
export async function deleteDevice(db: Db, deviceUuid: string): Promise<void> {
  await db.deleteFrom('devices').where('device_uuid', '=', deviceUuid).execute();
}

async function requireDeviceType(
  db: Db,
  deviceTypeUuid: string,
  organizationUuid: string,
): Promise<{ name: string }> {
  const deviceType = await db
    .selectFrom('device_types')
    .select('name')
    .where('device_type_uuid', '=', deviceTypeUuid)
    .where(visibleTo('device_types', { organizationUuid }))
    .executeTakeFirst();
  if (!deviceType) {
    throw unprocessable(
      `deviceTypeUuid ${deviceTypeUuid} does not name a device type`,
      'deviceTypeUuid',
    );
  }
  return deviceType;
}

/** 422 for a vendor or load signature given but unknown; `null` and absent need no check. */
async function requireCatalogReferences(
  db: Db,
  dto: DevicesUpdateDto,
  organizationUuid: string,
): Promise<void> {
  if (dto.vendorUuid) {
    const vendor = await db
      .selectFrom('vendors')
      .select('vendor_uuid')
      .where('vendor_uuid', '=', dto.vendorUuid)
      .executeTakeFirst();
    if (!vendor) {
      throw unprocessable(`vendorUuid ${dto.vendorUuid} does not name a vendor`, 'vendorUuid');
    }
  }
  if (dto.loadSignatureUuid) {
    const signature = await db
      .selectFrom('load_signatures')
      .select('load_signature_uuid')
      .where('load_signature_uuid', '=', dto.loadSignatureUuid)
      .where(visibleTo('load_signatures', { organizationUuid }))
      .executeTakeFirst();
    if (!signature) {
      throw unprocessable(
        `loadSignatureUuid ${dto.loadSignatureUuid} does not name a load signature`,
      );
    }
  }
}

async function assertSerialNumberFree(
  db: Db,
  plantUuid: string,
  serialNumber: string | null,
  exceptDeviceUuid: string | null,
): Promise<void> {
  if (serialNumber === null) return;
  let query = db
    .selectFrom('devices')
    .select('device_uuid')
    .where('plant_uuid', '=', plantUuid)
    .where('serial_number', '=', serialNumber);
  if (exceptDeviceUuid) query = query.where('device_uuid', '!=', exceptDeviceUuid);
  const taken = await query.executeTakeFirst();
  if (taken) throw serialNumberConflict(serialNumber, taken.device_uuid);
}

const serialNumberConflict = (serialNumber: string, deviceUuid?: string) =>
  conflict(
    `serialNumber '${serialNumber}' is already used by ${
      deviceUuid ? `device ${deviceUuid}` : 'another device'
    } of this plant`,
  );

/**
 * Turns what the checks above could not see, because another request changed the tables
 * between them and the write, into the answers the checks would have given.
 */
async function guardConstraints<T>(
  serialNumber: string | null | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw serialNumberConflict(serialNumber ?? '');
    if (isForeignKeyViolation(error)) {
      throw unprocessable('A referenced device type, vendor or load signature no longer exists');
    }
    throw error;
  }
}
