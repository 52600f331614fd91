import { randomUUID } from 'node:crypto';
import type { DeviceType, DeviceTypeCreateDto, DeviceTypeUpdateDto } from '../../../api/index.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { toDeviceType, type DeviceTypeRow } from './catalogRecords.ts';
import type { VisibleEntry } from './catalogScope.ts';
import {
  assertCodeFree,
  assertUnreferenced,
  countReferences,
  guardCatalogDelete,
  guardCatalogWrite,
  type CodedCatalog,
} from './catalogSupport.ts';

/** Reads and writes device types. */

export const DEVICE_TYPES: CodedCatalog = {
  label: 'Device type',
  table: 'device_types',
  idColumn: 'device_type_uuid',
};

export async function findDeviceTypeOrThrow(db: Db, deviceTypeUuid: string): Promise<DeviceType> {
  const row = await db
    .selectFrom('device_types')
    .selectAll()
    .where('device_type_uuid', '=', deviceTypeUuid)
    .executeTakeFirst();
  if (!row) throw notFound(`Device type ${deviceTypeUuid} not found`);
  return toDeviceType(row);
}

/** `owner`: the organization the entry belongs to, null for a shared one. */
export async function insertDeviceType(
  db: Db,
  dto: DeviceTypeCreateDto,
  owner: string | null,
  now: string,
): Promise<DeviceType> {
  const row: DeviceTypeRow = {
    device_type_uuid: randomUUID(),
    code: dto.code,
    name: dto.name ?? dto.code,
    category: dto.category,
    description: dto.description ?? null,
    organization_uuid: owner,
    created_at: now,
    updated_at: now,
  };
  await guardCatalogWrite(DEVICE_TYPES, dto.code, () =>
    inTransaction(db, async (trx) => {
      await assertCodeFree(trx, DEVICE_TYPES, dto.code, null, owner);
      await trx.insertInto('device_types').values(row).execute();
    }),
  );
  return toDeviceType(row);
}

/** PUT merges: a field left out keeps its value. */
export async function updateDeviceType(
  db: Db,
  uuid: string,
  current: VisibleEntry,
  dto: DeviceTypeUpdateDto,
  now: string,
): Promise<DeviceType> {
  await guardCatalogWrite(DEVICE_TYPES, dto.code, () =>
    inTransaction(db, async (trx) => {
      if (dto.code !== undefined) {
        await assertCodeFree(trx, DEVICE_TYPES, dto.code, uuid, current.organizationUuid);
      }
      await trx
        .updateTable('device_types')
        .set({
          ...(dto.code !== undefined && { code: dto.code }),
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.category !== undefined && { category: dto.category }),
          ...(dto.description !== undefined && { description: dto.description }),
          updated_at: now,
        })
        .where('device_type_uuid', '=', uuid)
        .execute();
    }),
  );
  return findDeviceTypeOrThrow(db, uuid);
}

/** Devices and load signatures of this type block the delete. */
export async function deleteDeviceType(
  db: Db,
  uuid: string,
  current: VisibleEntry,
  viewerOrganization: string,
): Promise<void> {
  await guardCatalogDelete(DEVICE_TYPES, () =>
    inTransaction(db, async (trx) => {
      const devices = await countReferences(
        trx,
        { table: 'devices', column: 'device_type_uuid' },
        uuid,
        viewerOrganization,
      );
      const loadSignatures = await countReferences(
        trx,
        { table: 'load_signatures', column: 'device_type_uuid' },
        uuid,
        viewerOrganization,
      );
      assertUnreferenced(DEVICE_TYPES, current.code, [
        { count: devices, noun: 'device' },
        { count: loadSignatures, noun: 'load signature' },
      ]);
      await trx.deleteFrom('device_types').where('device_type_uuid', '=', uuid).execute();
    }),
  );
}
