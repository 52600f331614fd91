import type { DataTypeCode, SensorFlow } from '../../api/index.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/fastQuery.ts';
import { primaryDataType, readingKindOf, type ReadingKind } from './readingKinds.ts';

/** A sensor as the readings store sees it: what its readings are and how often they come. */
export interface ReadingSensor {
  sensorUuid: string;
  plantUuid: string;
  deviceUuid: string | null;
  flow: SensorFlow;
  /** The primary data type: the one its readings are of. */
  dataType: DataTypeCode;
  kind: ReadingKind;
  samplingIntervalSeconds: number;
}

/** Sensors with each data type they collect (one row per pair); sensors not chosen. */
const readingSensorQuery = (db: Db) =>
  db
    .selectFrom('sensors as s')
    .innerJoin('sensor_data_types as collected', 'collected.sensor_uuid', 's.sensor_uuid')
    .innerJoin(
      'data_types_collects as d',
      'd.data_types_collect_uuid',
      'collected.data_types_collect_uuid',
    )
    .select([
      's.sensor_uuid',
      's.plant_uuid',
      's.device_uuid',
      's.flow',
      's.sampling_interval_seconds',
      'd.code',
    ]);

type ReadingSensorRow = Awaited<
  ReturnType<ReturnType<typeof readingSensorQuery>['execute']>
>[number];

/**
 * The reading sensors among `sensorUuids`, by uuid, in one query. A sensor that does not exist,
 * or collects no data type, is absent.
 */
export async function readingSensorsOf(
  db: Db,
  sensorUuids: readonly string[],
): Promise<Map<string, ReadingSensor>> {
  if (sensorUuids.length === 0) return new Map();
  return readingSensorsFrom(
    await rowsOf(
      db,
      readingSensorQuery(db)
        .where('s.sensor_uuid', 'in', [...sensorUuids])
        .compile(),
    ),
  );
}

/** Every reading sensor of the plants, by uuid, in one query. */
export async function readingSensorsOfPlants(
  db: Db,
  plantUuids: readonly string[],
): Promise<Map<string, ReadingSensor>> {
  if (plantUuids.length === 0) return new Map();
  return readingSensorsFrom(
    await rowsOf(
      db,
      readingSensorQuery(db)
        .where('s.plant_uuid', 'in', [...plantUuids])
        .compile(),
    ),
  );
}

function readingSensorsFrom(rows: readonly ReadingSensorRow[]): Map<string, ReadingSensor> {
  const found = new Map<string, ReadingSensor>();
  const codes = new Map<string, DataTypeCode[]>();
  for (const row of rows) {
    const list = codes.get(row.sensor_uuid) ?? [];
    list.push(row.code as DataTypeCode);
    codes.set(row.sensor_uuid, list);
  }
  for (const row of rows) {
    if (found.has(row.sensor_uuid)) continue;
    const dataType = primaryDataType(codes.get(row.sensor_uuid) ?? []);
    if (!dataType) continue;
    found.set(row.sensor_uuid, {
      sensorUuid: row.sensor_uuid,
      plantUuid: row.plant_uuid,
      deviceUuid: row.device_uuid,
      flow: row.flow as SensorFlow,
      dataType,
      kind: readingKindOf(dataType),
      samplingIntervalSeconds: row.sampling_interval_seconds,
    });
  }
  return found;
}

export async function readingSensorOf(
  db: Db,
  sensorUuid: string,
): Promise<ReadingSensor | undefined> {
  return (await readingSensorsOf(db, [sensorUuid])).get(sensorUuid);
}
