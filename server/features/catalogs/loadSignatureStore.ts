import { randomUUID } from 'node:crypto';
import {
  HOURLY_PROFILE_SUM_TOLERANCE,
  hourlyProfileSumsToOne,
  type LoadSignatureCreateDto,
  type LoadSignatureUpdateDto,
} from '../../../api/index.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import { unprocessable } from '../../http/errors.ts';
import type { LoadSignatureRow } from './catalogRecords.ts';
import { assertUsableReference, findVisibleEntry, type CatalogViewer } from './catalogScope.ts';
import { DEVICE_TYPES } from './deviceTypeStore.ts';
import {
  assertCodeFree,
  assertUnreferenced,
  countReferences,
  guardCatalogDelete,
  guardCatalogWrite,
  type CodedCatalog,
} from './catalogSupport.ts';

/** Reads and writes load signatures. */

export const LOAD_SIGNATURES: CodedCatalog = {
  label: 'Load signature',
  table: 'load_signatures',
  idColumn: 'load_signature_uuid',
};

const HOURS_PER_DAY = 24;
/** Without a profile, the day's energy spreads evenly over its hours. */
const FLAT_PROFILE: readonly number[] = Array.from(
  { length: HOURS_PER_DAY },
  () => 1 / HOURS_PER_DAY,
);

/** The signature if the viewer may see it (404 otherwise, as for a missing one). */
export async function findLoadSignatureOrThrow(
  db: Db,
  loadSignatureUuid: string,
  viewer: Pick<CatalogViewer, 'organizationUuid'>,
): Promise<LoadSignatureRow> {
  await findVisibleEntry(db, LOAD_SIGNATURES, loadSignatureUuid, viewer);
  return db
    .selectFrom('load_signatures')
    .selectAll()
    .where('load_signature_uuid', '=', loadSignatureUuid)
    .executeTakeFirstOrThrow();
}

/** `owner`: the organization the entry belongs to, null for a shared one. */
export async function insertLoadSignature(
  db: Db,
  dto: LoadSignatureCreateDto,
  owner: string | null,
  now: string,
): Promise<LoadSignatureRow> {
  const hourlyProfile = dto.hourlyProfile ?? FLAT_PROFILE;
  assertSumsToOne(hourlyProfile);
  const row: LoadSignatureRow = {
    load_signature_uuid: randomUUID(),
    code: dto.code,
    name: dto.name ?? dto.code,
    description: dto.description ?? null,
    device_type_uuid: dto.deviceTypeUuid ?? null,
    hourly_profile: JSON.stringify(hourlyProfile),
    typical_daily_kwh: dto.typicalDailyKwh ?? null,
    organization_uuid: owner,
    created_at: now,
    updated_at: now,
  };
  await guardCatalogWrite(LOAD_SIGNATURES, dto.code, () =>
    inTransaction(db, async (trx) => {
      if (row.device_type_uuid !== null) {
        await assertUsableReference(
          trx,
          DEVICE_TYPES,
          row.device_type_uuid,
          owner,
          'deviceTypeUuid',
        );
      }
      await assertCodeFree(trx, LOAD_SIGNATURES, dto.code, null, owner);
      await trx.insertInto('load_signatures').values(row).execute();
    }),
  );
  return row;
}

/** PUT merges: a field left out keeps its value; `null` clears a nullable one. */
export async function updateLoadSignature(
  db: Db,
  current: LoadSignatureRow,
  dto: LoadSignatureUpdateDto,
  now: string,
): Promise<LoadSignatureRow> {
  if (dto.hourlyProfile) assertSumsToOne(dto.hourlyProfile);
  const changes: Partial<LoadSignatureRow> = {
    ...(dto.code !== undefined && { code: dto.code }),
    ...(dto.name !== undefined && { name: dto.name }),
    ...(dto.description !== undefined && { description: dto.description }),
    ...(dto.deviceTypeUuid !== undefined && { device_type_uuid: dto.deviceTypeUuid }),
    ...(dto.hourlyProfile !== undefined && { hourly_profile: JSON.stringify(dto.hourlyProfile) }),
    ...(dto.typicalDailyKwh !== undefined && { typical_daily_kwh: dto.typicalDailyKwh }),
    updated_at: now,
  };
  const uuid = current.load_signature_uuid;
  await guardCatalogWrite(LOAD_SIGNATURES, dto.code, () =>
    inTransaction(db, async (trx) => {
      const owner = current.organization_uuid;
      if (dto.deviceTypeUuid) {
        await assertUsableReference(trx, DEVICE_TYPES, dto.deviceTypeUuid, owner, 'deviceTypeUuid');
      }
      if (dto.code !== undefined) {
        await assertCodeFree(trx, LOAD_SIGNATURES, dto.code, uuid, owner);
      }
      await trx
        .updateTable('load_signatures')
        .set(changes)
        .where('load_signature_uuid', '=', uuid)
        .execute();
    }),
  );
  return { ...current, ...changes };
}

/** Devices using the signature block the delete. */
export async function deleteLoadSignature(
  db: Db,
  current: LoadSignatureRow,
  viewerOrganization: string,
): Promise<void> {
  const uuid = current.load_signature_uuid;
  await guardCatalogDelete(LOAD_SIGNATURES, () =>
    inTransaction(db, async (trx) => {
      const devices = await countReferences(
        trx,
        { table: 'devices', column: 'load_signature_uuid' },
        uuid,
        viewerOrganization,
      );
      assertUnreferenced(LOAD_SIGNATURES, current.code, [{ count: devices, noun: 'device' }]);
      await trx.deleteFrom('load_signatures').where('load_signature_uuid', '=', uuid).execute();
    }),
  );
}

/** The schema bounds each share to 0..1; the sum needs the whole array. */
function assertSumsToOne(profile: readonly number[]): void {
  if (hourlyProfileSumsToOne(profile)) return;
  const sum = profile.reduce((total, share) => total + share, 0);
  throw unprocessable(
    `hourlyProfile must sum to 1 (within ${HOURLY_PROFILE_SUM_TOLERANCE}); it sums to ${Number(sum.toPrecision(12))}`,
    'hourlyProfile',
  );
}
