import type { DataTypesCollect, SensorConnection, SensorFlow } from '../../../api/index.ts';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { tooManyRequests, unprocessable } from '../../http/errors.ts';
import {
  type ConnectionTestResult,
  ConnectionTestsThrottled,
  type Requester,
  type VendorIdentity,
} from '../../integrations/connectionTester.ts';
import { allowedDataTypes } from '../catalogs/catalogRecords.ts';
import { visibleTo } from '../catalogs/catalogScope.ts';

/**
 * The checks and defaults of a sensor body: what its references must name (422 otherwise) and
 * what an omitted field becomes.
 */

export interface SensorTypeFacts {
  sensorTypeUuid: string;
  code: string;
  name: string;
  /** The data types a sensor of this type may collect, in code order. */
  allowed: DataTypesCollect[];
}

/** `organizationUuid`: the plant's; its own sensor types and the shared ones are usable. */
export async function requireSensorType(
  db: Db,
  sensorTypeUuid: string,
  organizationUuid: string,
): Promise<SensorTypeFacts> {
  const row = await db
    .selectFrom('sensor_types')
    .select(['sensor_type_uuid', 'code', 'name'])
    .where('sensor_type_uuid', '=', sensorTypeUuid)
    .where(visibleTo('sensor_types', { organizationUuid }))
    .executeTakeFirst();
  if (!row)
    throw unprocessable(
      `sensorTypeUuid ${sensorTypeUuid} does not name a sensor type`,
      'sensorTypeUuid',
    );
  const allowed = await allowedDataTypes(db, [sensorTypeUuid]);
  return {
    sensorTypeUuid,
    code: row.code,
    name: row.name,
    allowed: allowed.get(sensorTypeUuid) ?? [],
  };
}

/**
 * The data types a sensor will collect: every one its type allows when none are requested;
 * otherwise the requested ones, each of which must exist and be allowed by the type.
 */
export async function chooseDataTypes(
  db: Db,
  sensorType: SensorTypeFacts,
  requested: readonly string[] | undefined,
): Promise<DataTypesCollect[]> {
  if (requested === undefined) {
    if (sensorType.allowed.length === 0) {
      throw unprocessable(
        `Sensor type ${sensorType.code} allows no data type; it cannot be used for a sensor`,
      );
    }
    return sensorType.allowed;
  }
  if (requested.length === 0)
    throw unprocessable('dataTypesCollectUuids must not be empty', 'dataTypesCollectUuids');
  const wanted = [...new Set(requested)];
  const known = await db
    .selectFrom('data_types_collects')
    .select('data_types_collect_uuid')
    .where('data_types_collect_uuid', 'in', wanted)
    .execute();
  const knownUuids = new Set(known.map((row) => row.data_types_collect_uuid));
  const allowedByUuid = new Map(
    sensorType.allowed.map((dataType) => [dataType.dataTypesCollectUuid, dataType]),
  );
  for (const uuid of wanted) {
    if (!knownUuids.has(uuid)) {
      throw unprocessable(
        `dataTypesCollectUuids: ${uuid} does not name a data type`,
        'dataTypesCollectUuids',
      );
    }
    if (!allowedByUuid.has(uuid)) throw notAllowed(uuid, sensorType);
  }
  return sensorType.allowed.filter((dataType) => wanted.includes(dataType.dataTypesCollectUuid));
}

/** When the type of a sensor changes, the data types it already collects must suit the new type. */
export function assertStillAllowed(
  sensorType: SensorTypeFacts,
  collected: readonly string[],
): void {
  const allowed = new Set(sensorType.allowed.map((dataType) => dataType.dataTypesCollectUuid));
  const refused = collected.find((uuid) => !allowed.has(uuid));
  if (refused) {
    throw unprocessable(
      `dataTypesCollectUuids: the sensor collects ${refused}, which sensor type ${sensorType.code} does not allow; send dataTypesCollectUuids along with sensorTypeUuid`,
      'dataTypesCollectUuids',
    );
  }
}

function notAllowed(uuid: string, sensorType: SensorTypeFacts) {
  const allowedCodes = sensorType.allowed.map((dataType) => dataType.code).join(', ') || 'none';
  return unprocessable(
    `dataTypesCollectUuids: ${uuid} is not allowed by sensor type ${sensorType.code} (allowed: ${allowedCodes})`,
    'dataTypesCollectUuids',
  );
}

const ENERGY_DATA_TYPE_CODES: ReadonlySet<string> = new Set(['POWER', 'ENERGY']);

/** Power and energy sensors meter consumption unless told otherwise; the rest measure ambient values. */
export function defaultFlow(dataTypes: readonly DataTypesCollect[]): SensorFlow {
  return dataTypes.some((dataType) => ENERGY_DATA_TYPE_CODES.has(dataType.code))
    ? 'CONSUMPTION'
    : 'AMBIENT';
}

export async function requireDeviceOfPlant(
  db: Db,
  plantUuid: string,
  deviceUuid: string,
): Promise<void> {
  const device = await db
    .selectFrom('devices')
    .select('device_uuid')
    .where('plant_uuid', '=', plantUuid)
    .where('device_uuid', '=', deviceUuid)
    .executeTakeFirst();
  if (!device)
    throw unprocessable(`deviceUuid ${deviceUuid} is not a device of this plant`, 'deviceUuid');
}

async function connectionVendor({ db }: ServerContext, connection: SensorConnection) {
  return db
    .selectFrom('vendors')
    .select(['code', 'kind', 'name'])
    .where('vendor_uuid', '=', connection.vendorUuid)
    .executeTakeFirst();
}

/** The vendor integration's test of a stored connection, as a result (testSensorConnection). */
export async function testConnection(
  context: ServerContext,
  connection: SensorConnection,
  requester: Requester,
): Promise<ConnectionTestResult> {
  const vendor = await connectionVendor(context, connection);
  if (!vendor) return { ok: false, message: 'The connection names a vendor that no longer exists' };
  return runTest(context, vendor, connection.address, requester);
}

/** Whether a create or update tests its connection, and for whom (tests are limited per user). */
export interface ConnectionTestChoice {
  skip: boolean;
  requester: Requester;
}

async function runTest(
  context: ServerContext,
  vendor: VendorIdentity,
  address: string,
  requester: Requester,
): Promise<ConnectionTestResult> {
  try {
    return await context.connections.test(vendor, address, requester);
  } catch (error) {
    if (error instanceof ConnectionTestsThrottled) {
      throw tooManyRequests(error.message, error.retryAfterSeconds);
    }
    throw error;
  }
}

/**
 * The connection's vendor must exist; then, unless the caller skips it, the vendor integration
 * must reach the address.
 */
export async function checkConnection(
  context: ServerContext,
  connection: SensorConnection,
  choice: ConnectionTestChoice,
): Promise<void> {
  const vendor = await connectionVendor(context, connection);
  if (!vendor) {
    throw unprocessable(
      `connection.vendorUuid ${connection.vendorUuid} does not name a vendor`,
      'connection.vendorUuid',
    );
  }
  if (choice.skip) return;
  const result = await runTest(context, vendor, connection.address, choice.requester);
  if (!result.ok) {
    throw unprocessable(
      `Connection test of '${connection.address}' failed: ${result.message} (add ignoreConnectionsTest=true to save it anyway)`,
      'connection.address',
    );
  }
}
