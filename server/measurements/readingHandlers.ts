import type { ServerContext } from '../context.ts';
import { inTransaction } from '../db/database.ts';
import { unprocessable } from '../http/errors.ts';
import type { RouteHandlers } from '../http/routing.ts';
import { findSensorOrThrow } from '../features/sensors/sensorStore.ts';
import { markFedExternally } from '../simulator/externalFeeds.ts';
import { parseReadingsBatch } from './readingBatch.ts';
import { readingSensorOf } from './readingSensors.ts';
import { ingestMany } from './readingsStore.ts';

type ReadingHandlers = Pick<RouteHandlers, 'ingestReadings'>;

export function readingHandlers({ db, now, ingestion }: ServerContext): ReadingHandlers {
  return {
    ingestReadings: async ({ plant, params, body }) => {
      await findSensorOrThrow(db, plant.plant_uuid, params.sensorUuid);
      const sensor = await readingSensorOf(db, params.sensorUuid);
      // Every sensor collects at least one data type; this guards a damaged database only.
      if (!sensor) throw unprocessable(`Sensor ${params.sensorUuid} collects no data type`);
      const columns = parseReadingsBatch(body.readings, sensor.dataType);
      // A sensor fed through the API is its owner's from now on: the simulator leaves it alone.
      await inTransaction(db, async (trx) => {
        await markFedExternally(trx, sensor.sensorUuid, now());
        await ingestMany(trx, [{ sensor, ...columns }]);
      });
      ingestion?.readingsAccepted(body.readings.length);
      return { accepted: body.readings.length };
    },
  };
}
