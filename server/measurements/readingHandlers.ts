import type { ServerContext } from '../context.ts';
import { inTransaction } from '../db/database.ts';
import { ensureReadingPartitions } from '../db/readingPartitions.ts';
import { unprocessable } from '../http/errors.ts';
import type { RouteHandlers } from '../http/routing.ts';
import { findSensorOrThrow } from '../features/sensors/sensorStore.ts';
import { markFedExternally } from '../simulator/externalFeeds.ts';
import { parseReadingsBatch } from './readingBatch.ts';
import { readingSensorOf } from './readingSensors.ts';
import { ingestMany } from './readingsStore.ts';

type ReadingHandlers = Pick<RouteHandlers, 'ingestReadings'>;

export function readingHandlers(context: ServerContext): ReadingHandlers {
  const { db, now, ingestion } = context;
  return {
    ingestReadings: async ({ plant, params, body }) => {
      await findSensorOrThrow(db, plant.plant_uuid, params.sensorUuid);
      const sensor = await readingSensorOf(db, params.sensorUuid);
      // Every sensor collects at least one data type; this guards a damaged database only.
      if (!sensor) throw unprocessable(`Sensor ${params.sensorUuid} collects no data type`);
      // Read per request: the server sets it up once the app is built.
      const retention = context.rawRetention;
      const keptFrom = retention && { ms: retention.horizonMs(), days: retention.days };
      const columns = parseReadingsBatch(body.readings, sensor.dataType, keptFrom);
      // A new month's partition (PostgreSQL) is made before the transaction, not inside it.
      if (columns.takenAt.length > 0) {
        await ensureReadingPartitions(db, columns.takenAt[0]!, columns.takenAt.at(-1)!);
      }
      await inTransaction(db, async (trx) => {
        // First: it locks the sensor, or answers 404 if a delete got there first (the insert
        // below would fail on its foreign key instead, a 500).
        await ingestMany(trx, [{ sensor, ...columns }]);
        // A sensor fed through the API is its owner's from now on: the simulator leaves it alone.
        await markFedExternally(trx, sensor.sensorUuid, now());
      });
      ingestion?.readingsAccepted(body.readings.length);
      return { accepted: body.readings.length };
    },
  };
}
