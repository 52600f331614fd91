import { randomUUID } from 'node:crypto';
import type { DataTypeCode } from '../../../api/index.ts';
import type { ServerContext } from '../../../server/context.ts';
import { openDatabase, type Db, type OpenedDatabase } from '../../../server/db/database.ts';
import { readCatalogUuids } from '../../../server/demo/catalogUuids.ts';
import { seedReferenceCatalogs } from '../../../server/demo/seedCatalogs.ts';
import { createOrganization } from '../../../server/features/auth/userStore.ts';
import { insertPlant } from '../../../server/features/plants/plantStore.ts';
import {
  readingSensorOf,
  type ReadingSensor,
} from '../../../server/measurements/readingSensors.ts';

/**
 * An in-memory database (or the one `location` names, a PostgreSQL URL included) with the
 * reference catalogs and one plant to hang sensors on.
 */
export interface MeasurementsFixture {
  opened: OpenedDatabase;
  db: Db;
  plantUuid: string;
  addSensor(dataTypes: DataTypeCode[], samplingIntervalSeconds?: number): Promise<ReadingSensor>;
}

export async function openMeasurementsFixture(location = ':memory:'): Promise<MeasurementsFixture> {
  const opened = await openDatabase(location);
  const db = opened.db;
  const now = () => new Date('2026-11-01T00:00:00Z');
  await seedReferenceCatalogs({ db, now } as ServerContext);
  const at = now().toISOString();
  const organizationUuid = await createOrganization(db, 'Measurements Co', at);
  const plant = await insertPlant(
    db,
    organizationUuid,
    {
      name: 'Measurements plant',
      externalIds: [],
      location: { latitude: 45, longitude: 7, timezone: 'Europe/Rome' },
      metadata: {},
    },
    at,
  );
  const catalogs = await readCatalogUuids(db);
  const sensorType = Object.values(catalogs.sensorTypes)[0]!;

  async function addSensor(
    dataTypes: DataTypeCode[],
    samplingIntervalSeconds = 60,
  ): Promise<ReadingSensor> {
    const sensorUuid = randomUUID();
    await db
      .insertInto('sensors')
      .values({
        sensor_uuid: sensorUuid,
        plant_uuid: plant.plantUuid,
        device_uuid: null,
        name: `Sensor ${dataTypes.join('+')}`,
        sensor_type_uuid: sensorType,
        flow: 'CONSUMPTION',
        sampling_interval_seconds: samplingIntervalSeconds,
        connection_vendor_uuid: null,
        connection_address: null,
        metadata: '{}',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto('sensor_data_types')
      .values(
        dataTypes.map((code) => ({
          sensor_uuid: sensorUuid,
          data_types_collect_uuid: catalogs.dataTypes[code]!,
        })),
      )
      .execute();
    return (await readingSensorOf(db, sensorUuid))!;
  }

  return { opened, db, plantUuid: plant.plantUuid, addSensor };
}
