import { randomUUID } from 'node:crypto';
import {
  type DataTypeCode,
  DEFAULT_SAMPLING_INTERVAL_SECONDS,
  type SensorCreateDto,
  type SensorRecord,
  type SensorUpdateDto,
} from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import { isForeignKeyViolation } from '../../db/constraints.ts';
import type { SensorRow } from '../../db/tables.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import { followReadingMeaning } from '../../measurements/readingMeaning.ts';
import { primaryDataType } from '../../measurements/readingKinds.ts';
import { readingSensorOf } from '../../measurements/readingSensors.ts';
import {
  lockedSignInversion,
  negateStoredReadings,
  signInversionRefusal,
} from '../../measurements/signInversion.ts';
import { collectedDataTypes, toSensorRecord } from './sensorRecords.ts';
import {
  assertStillAllowed,
  checkConnection,
  type ConnectionTestChoice,
  chooseDataTypes,
  defaultFlow,
  requireDeviceOfPlant,
  requireSensorType,
} from './sensorRules.ts';

/**
 * Writes the sensors of a plant with the data types they collect. Every check, the slow
 * connection test included, runs before the write transaction opens, so no transaction waits
 * on the network.
 */

/** A sensor of another plant is as unknown as one that does not exist. */
export async function findSensorOrThrow(
  db: Db,
  plantUuid: string,
  sensorUuid: string,
): Promise<SensorRow> {
  const row = await db
    .selectFrom('sensors')
    .selectAll()
    .where('plant_uuid', '=', plantUuid)
    .where('sensor_uuid', '=', sensorUuid)
    .executeTakeFirst();
  if (!row) throw notFound(`Sensor ${sensorUuid} not found in plant ${plantUuid}`);
  return row;
}

export async function insertSensor(
  context: ServerContext,
  plant: { plant_uuid: string; organization_uuid: string },
  dto: SensorCreateDto,
  connectionTest: ConnectionTestChoice,
): Promise<SensorRecord> {
  const { db } = context;
  const plantUuid = plant.plant_uuid;
  const sensorType = await requireSensorType(db, dto.sensorTypeUuid, plant.organization_uuid);
  const dataTypes = await chooseDataTypes(db, sensorType, dto.dataTypesCollectUuids);
  if (dto.deviceUuid) await requireDeviceOfPlant(db, plantUuid, dto.deviceUuid);
  if (dto.signInverted) {
    assertSignInvertible(primaryDataType(dataTypes.map((d) => d.code as DataTypeCode)));
  }
  if (dto.connection) await checkConnection(context, dto.connection, connectionTest);

  const now = context.now().toISOString();
  const row: SensorRow = {
    sensor_uuid: randomUUID(),
    plant_uuid: plantUuid,
    device_uuid: dto.deviceUuid ?? null,
    name: dto.name ?? sensorType.name,
    sensor_type_uuid: sensorType.sensorTypeUuid,
    flow: dto.flow ?? defaultFlow(dataTypes),
    sampling_interval_seconds: dto.samplingIntervalSeconds ?? DEFAULT_SAMPLING_INTERVAL_SECONDS,
    sign_inverted: dto.signInverted ? 1 : 0,
    connection_vendor_uuid: dto.connection?.vendorUuid ?? null,
    connection_address: dto.connection?.address ?? null,
    metadata: JSON.stringify(dto.metadata ?? {}),
    created_at: now,
    updated_at: now,
  };
  const dataTypeUuids = dataTypes.map((dataType) => dataType.dataTypesCollectUuid);
  await guardReferences(() =>
    inTransaction(db, async (trx) => {
      await trx.insertInto('sensors').values(row).execute();
      await replaceDataTypes(trx, row.sensor_uuid, dataTypeUuids);
    }),
  );
  return toSensorRecord(row, dataTypeUuids);
}

/**
 * PUT merges: a field left out keeps its value; `deviceUuid: null` unlinks the device and
 * `connection: null` removes the connection. Only a changed connection is tested again.
 */
export async function updateSensor(
  context: ServerContext,
  current: SensorRow,
  organizationUuid: string,
  dto: SensorUpdateDto,
  connectionTest: ConnectionTestChoice,
): Promise<SensorRecord> {
  const { db } = context;
  const collected =
    (await collectedDataTypes(db, [current.sensor_uuid])).get(current.sensor_uuid) ?? [];
  const typeChanged =
    dto.sensorTypeUuid !== undefined && dto.sensorTypeUuid !== current.sensor_type_uuid;
  let dataTypeUuids = collected;
  if (typeChanged || dto.dataTypesCollectUuids !== undefined) {
    const sensorType = await requireSensorType(
      db,
      dto.sensorTypeUuid ?? current.sensor_type_uuid,
      organizationUuid,
    );
    if (dto.dataTypesCollectUuids !== undefined) {
      const chosen = await chooseDataTypes(db, sensorType, dto.dataTypesCollectUuids);
      dataTypeUuids = chosen.map((dataType) => dataType.dataTypesCollectUuid);
    } else {
      assertStillAllowed(sensorType, collected);
    }
  }
  if (dto.deviceUuid) await requireDeviceOfPlant(db, current.plant_uuid, dto.deviceUuid);
  if (dto.connection && connectionChanged(current, dto.connection)) {
    await checkConnection(context, dto.connection, connectionTest);
  }

  const changes: Partial<SensorRow> = {
    ...(dto.name !== undefined && { name: dto.name }),
    ...(dto.sensorTypeUuid !== undefined && { sensor_type_uuid: dto.sensorTypeUuid }),
    ...(dto.deviceUuid !== undefined && { device_uuid: dto.deviceUuid }),
    ...(dto.flow !== undefined && { flow: dto.flow }),
    ...(dto.samplingIntervalSeconds !== undefined && {
      sampling_interval_seconds: dto.samplingIntervalSeconds,
    }),
    ...(dto.connection !== undefined && {
      connection_vendor_uuid: dto.connection?.vendorUuid ?? null,
      connection_address: dto.connection?.address ?? null,
    }),
    ...(dto.metadata !== undefined && { metadata: JSON.stringify(dto.metadata) }),
    ...(dto.signInverted !== undefined && { sign_inverted: dto.signInverted ? 1 : 0 }),
    updated_at: context.now().toISOString(),
  };
  // A new sampling interval or primary data type changes what the stored readings mean.
  const meaningMayChange =
    dto.samplingIntervalSeconds !== undefined || dto.dataTypesCollectUuids !== undefined;
  await guardReferences(() =>
    inTransaction(db, async (trx) => {
      const meaning = meaningMayChange
        ? await readingSensorOf(trx, current.sensor_uuid)
        : undefined;
      const wasInverted = await lockedSignInversion(trx, current.sensor_uuid);
      const { numUpdatedRows } = await trx
        .updateTable('sensors')
        .set(changes)
        .where('sensor_uuid', '=', current.sensor_uuid)
        .executeTakeFirstOrThrow();
      // Deleted by another request since it was read.
      if (numUpdatedRows === 0n) throw notFound(`Sensor ${current.sensor_uuid} not found`);
      if (dto.dataTypesCollectUuids !== undefined) {
        await replaceDataTypes(trx, current.sensor_uuid, dataTypeUuids);
      }
      // Turned first: a new meaning is then recomputed from readings of the right sign.
      await followSignInversion(trx, current.sensor_uuid, wasInverted, dto);
      if (meaningMayChange) await followReadingMeaning(trx, current.sensor_uuid, meaning);
    }),
  );
  return toSensorRecord({ ...current, ...changes }, dataTypeUuids);
}

/**
 * After the update, in its transaction (the sensor row is locked, so no ingestion interleaves):
 * a sensor left sign-inverted must still have signed readings, whatever changed its data types;
 * and a changed setting turns what is already stored.
 */
async function followSignInversion(
  trx: Db,
  sensorUuid: string,
  wasInverted: boolean,
  dto: SensorUpdateDto,
): Promise<void> {
  const inverted = dto.signInverted ?? wasInverted;
  if (inverted && (dto.signInverted !== undefined || dto.dataTypesCollectUuids !== undefined)) {
    assertSignInvertible((await readingSensorOf(trx, sensorUuid))?.dataType);
  }
  if (inverted !== wasInverted) await negateStoredReadings(trx, sensorUuid);
}

function assertSignInvertible(dataType: DataTypeCode | undefined): void {
  const refusal = signInversionRefusal(dataType);
  if (refusal) throw unprocessable(refusal);
}

/** Its data types go by cascade (and its readings, once they are stored). */
export async function deleteSensor(db: Db, sensorUuid: string): Promise<void> {
  await db.deleteFrom('sensors').where('sensor_uuid', '=', sensorUuid).execute();
}

function connectionChanged(
  current: SensorRow,
  next: { vendorUuid: string; address: string },
): boolean {
  return (
    current.connection_vendor_uuid !== next.vendorUuid ||
    current.connection_address !== next.address
  );
}

async function replaceDataTypes(db: Db, sensorUuid: string, dataTypeUuids: readonly string[]) {
  await db.deleteFrom('sensor_data_types').where('sensor_uuid', '=', sensorUuid).execute();
  if (dataTypeUuids.length === 0) return;
  await db
    .insertInto('sensor_data_types')
    .values(
      dataTypeUuids.map((uuid) => ({ sensor_uuid: sensorUuid, data_types_collect_uuid: uuid })),
    )
    .execute();
}

/**
 * The checks ran before the transaction; a referenced entry deleted in between (a device, a
 * catalog entry) surfaces as a foreign key violation, answered like the check would have.
 */
async function guardReferences<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw unprocessable(
        'A referenced device, sensor type, data type or vendor no longer exists; reload and retry',
      );
    }
    throw error;
  }
}
