import { openSqliteDatabase, type Db } from '../../server/db/database.ts';
import { ingestMany, type SensorReadings } from '../../server/measurements/readingsStore.ts';
import { readingSensorsOf, type ReadingSensor } from '../../server/measurements/readingSensors.ts';
import type { YearPlant } from './yearPlant.ts';
import { readingCount, simulateYear, type YearReadings } from './yearReadings.ts';

/**
 * The year of readings written through the readings store's bulk path, `ingestMany`, a UTC day
 * of all 8 sensors per call (one transaction each, readings and their rollups together), as a
 * backfill would write it: bounded transactions, every day's rollups complete when it commits.
 */

export interface IngestRun {
  readings: number;
  rollups: number;
  seconds: number;
}

/** Opens the plant's database as the server does, ingests `year` and closes it, timed. */
export async function ingestYear(plant: YearPlant, year: YearReadings): Promise<IngestRun> {
  const { db, close } = await openSqliteDatabase(plant.dbFile);
  try {
    const found = await readingSensorsOf(
      db,
      plant.sensors.map((sensor) => sensor.sensorUuid),
    );
    const sensors = plant.sensors.map((sensor) => {
      const readingSensor = found.get(sensor.sensorUuid);
      if (!readingSensor) throw new Error(`Sensor ${sensor.key} is missing from the database`);
      return readingSensor;
    });
    const run = await ingestDays(db, sensors, year);
    plant.ingested = true;
    return run;
  } finally {
    await close();
  }
}

/** Writes `days` through `ingestMany`, a day of all sensors per call, timed (either engine). */
export async function ingestDays(
  db: Db,
  sensors: readonly ReadingSensor[],
  days: YearReadings,
): Promise<IngestRun> {
  let readings = 0;
  let rollups = 0;
  const started = performance.now();
  for (const day of days) {
    const batches: SensorReadings[] = sensors.map((sensor, index) => ({
      sensor,
      takenAt: day[index]!.takenAt,
      values: day[index]!.values,
    }));
    const stats = await ingestMany(db, batches);
    readings += stats.readings;
    rollups += stats.rollups;
  }
  return { readings, rollups, seconds: (performance.now() - started) / 1000 };
}

/** Makes sure the plant has its year of readings (untimed, for a benchmark that needs them). */
export async function ensureYearIngested(plant: YearPlant): Promise<void> {
  if (plant.ingested) return;
  const year = simulateYear(plant.sensors);
  const run = await ingestYear(plant, year);
  if (run.readings !== readingCount(year)) throw new Error('The year was not fully ingested');
}
