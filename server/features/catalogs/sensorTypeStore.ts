import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { SensorType, SensorTypeCreateDto, SensorTypeUpdateDto } from '../../../api/index.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import { conflict, notFound, unprocessable } from '../../http/errors.ts';
import { sensorTypesByUuid } from './catalogRecords.ts';
import {
  assertCodeFree,
  assertUnreferenced,
  countOf,
  countReferences,
  guardCatalogDelete,
  guardCatalogWrite,
  type CodedCatalog,
} from './catalogSupport.ts';

/** Reads and writes sensor types with the data types each allows. */

export const SENSOR_TYPES: CodedCatalog = {
  label: 'Sensor type',
  table: 'sensor_types',
  idColumn: 'sensor_type_uuid',
};

export async function findSensorTypeOrThrow(db: Db, sensorTypeUuid: string): Promise<SensorType> {
  const sensorType = (await sensorTypesByUuid(db, [sensorTypeUuid])).get(sensorTypeUuid);
  if (!sensorType) throw notFound(`Sensor type ${sensorTypeUuid} not found`);
  return sensorType;
}

/** `owner`: the organization the entry belongs to, null for a shared one. */
export async function insertSensorType(
  db: Db,
  dto: SensorTypeCreateDto,
  owner: string | null,
  now: string,
): Promise<SensorType> {
  const sensorTypeUuid = randomUUID();
  const dataTypes = dto.dataTypesCollectUuids ?? [];
  await guardCatalogWrite(SENSOR_TYPES, dto.code, () =>
    inTransaction(db, async (trx) => {
      await requireDataTypes(trx, dataTypes);
      await assertCodeFree(trx, SENSOR_TYPES, dto.code, null, owner);
      await trx
        .insertInto('sensor_types')
        .values({
          sensor_type_uuid: sensorTypeUuid,
          code: dto.code,
          name: dto.name ?? dto.code,
          description: dto.description ?? null,
          organization_uuid: owner,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await replaceAllowedDataTypes(trx, sensorTypeUuid, dataTypes);
    }),
  );
  return findSensorTypeOrThrow(db, sensorTypeUuid);
}

/** PUT merges; a given `dataTypesCollectUuids` replaces the whole allowed set. */
export async function updateSensorType(
  db: Db,
  current: SensorType,
  owner: string | null,
  viewerOrganization: string,
  dto: SensorTypeUpdateDto,
  now: string,
): Promise<SensorType> {
  const uuid = current.sensorTypeUuid;
  const dataTypes = dto.dataTypesCollectUuids;
  await guardCatalogWrite(SENSOR_TYPES, dto.code, () =>
    inTransaction(db, async (trx) => {
      if (dataTypes) {
        await requireDataTypes(trx, dataTypes);
        await assertWithdrawnDataTypesUnused(trx, current, dataTypes, viewerOrganization);
      }
      if (dto.code !== undefined) await assertCodeFree(trx, SENSOR_TYPES, dto.code, uuid, owner);
      await trx
        .updateTable('sensor_types')
        .set({
          ...(dto.code !== undefined && { code: dto.code }),
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.description !== undefined && { description: dto.description }),
          updated_at: now,
        })
        .where('sensor_type_uuid', '=', uuid)
        .execute();
      if (dataTypes) await replaceAllowedDataTypes(trx, uuid, dataTypes);
    }),
  );
  return findSensorTypeOrThrow(db, uuid);
}

export async function deleteSensorType(
  db: Db,
  current: SensorType,
  viewerOrganization: string,
): Promise<void> {
  const uuid = current.sensorTypeUuid;
  await guardCatalogDelete(SENSOR_TYPES, () =>
    inTransaction(db, async (trx) => {
      const sensors = await countReferences(
        trx,
        { table: 'sensors', column: 'sensor_type_uuid' },
        uuid,
        viewerOrganization,
      );
      assertUnreferenced(SENSOR_TYPES, current.code, [{ count: sensors, noun: 'sensor' }]);
      // The allowed data types go by cascade.
      await trx.deleteFrom('sensor_types').where('sensor_type_uuid', '=', uuid).execute();
    }),
  );
}

/** 422 naming every identifier that is not a data types collect. */
async function requireDataTypes(db: Db, dataTypeUuids: readonly string[]): Promise<void> {
  if (dataTypeUuids.length === 0) return;
  const known = await db
    .selectFrom('data_types_collects')
    .select('data_types_collect_uuid')
    .where('data_types_collect_uuid', 'in', [...dataTypeUuids])
    .execute();
  const knownUuids = new Set(known.map((row) => row.data_types_collect_uuid));
  const unknown = dataTypeUuids.filter((uuid) => !knownUuids.has(uuid));
  if (unknown.length > 0) {
    throw unprocessable(
      `dataTypesCollectUuids: ${unknown.join(', ')} ${unknown.length === 1 ? 'does' : 'do'} not name a data types collect`,
      'dataTypesCollectUuids',
    );
  }
}

/**
 * A sensor may only collect data types its type allows, so a data type that sensors of this
 * type collect cannot be withdrawn from it: 409 naming the data type and how many sensors of
 * the caller's organization (other organizations' sensors are mentioned, never counted).
 */
async function assertWithdrawnDataTypesUnused(
  db: Db,
  current: SensorType,
  next: readonly string[],
  viewerOrganization: string,
): Promise<void> {
  const withdrawn = current.dataTypesCollectUuids.filter((uuid) => !next.includes(uuid));
  if (withdrawn.length === 0) return;
  const inUse = await db
    .selectFrom('sensor_data_types as collected')
    .innerJoin('sensors', 'sensors.sensor_uuid', 'collected.sensor_uuid')
    .innerJoin('plants', 'plants.plant_uuid', 'sensors.plant_uuid')
    .innerJoin(
      'data_types_collects as d',
      'd.data_types_collect_uuid',
      'collected.data_types_collect_uuid',
    )
    .select([
      'd.code',
      sql<
        number | string
      >`sum(case when plants.organization_uuid = ${viewerOrganization} then 1 else 0 end)`.as(
        'own',
      ),
      sql<
        number | string
      >`sum(case when plants.organization_uuid = ${viewerOrganization} then 0 else 1 end)`.as(
        'others',
      ),
    ])
    .where('sensors.sensor_type_uuid', '=', current.sensorTypeUuid)
    .where('collected.data_types_collect_uuid', 'in', withdrawn)
    .groupBy('d.code')
    .orderBy('d.code')
    .execute();
  if (inUse.length === 0) return;
  const uses = inUse
    .map((row) => {
      const own = Number(row.own) > 0 ? [countOf(Number(row.own), 'sensor')] : [];
      const others = Number(row.others) > 0 ? ['sensors of other organizations'] : [];
      return `${row.code} (collected by ${[...own, ...others].join(' and ')})`;
    })
    .join(', ');
  throw conflict(`dataTypesCollectUuids: sensor type '${current.code}' must keep allowing ${uses}`);
}

async function replaceAllowedDataTypes(
  db: Db,
  sensorTypeUuid: string,
  dataTypeUuids: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('sensor_type_data_types')
    .where('sensor_type_uuid', '=', sensorTypeUuid)
    .execute();
  if (dataTypeUuids.length === 0) return;
  await db
    .insertInto('sensor_type_data_types')
    .values(
      dataTypeUuids.map((uuid) => ({
        sensor_type_uuid: sensorTypeUuid,
        data_types_collect_uuid: uuid,
      })),
    )
    .execute();
}
