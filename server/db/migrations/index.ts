import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { Engine } from '../engine.ts';
import * as initial from './0001_initial.ts';
import * as measurements from './0002_measurements.ts';
import * as externallyFedSensors from './0003_externally_fed_sensors.ts';
import * as catalogScopes from './0004_catalog_scopes.ts';
import * as coarseRollups from './0005_coarse_rollups.ts';
import * as throttleEvents from './0006_throttle_events.ts';
import * as plantSearch from './0007_plant_search.ts';
import * as partitionedReadings from './0008_partitioned_readings.ts';
import * as readingsIntegrity from './0009_readings_integrity.ts';
import * as searchIndexUpkeep from './0010_search_index_upkeep.ts';
import * as sensorSignInversion from './0013_sensor_sign_inversion.ts';
import * as sensorHourDays from './0014_sensor_hour_days.ts';
import * as plantListOrder from './0015_plant_list_order.ts';
import * as hourDayPoints from './0016_hour_day_points.ts';
import * as plantTextSuffixes from './0017_plant_text_suffixes.ts';
import * as plantCounts from './0020_plant_counts.ts';
import * as plantListVersions from './0021_plant_list_versions.ts';

/**
 * A migration is told the engine it runs on: the same migrations make both schemas, and what
 * must differ between them is written out in the migration, not guessed from the connection.
 */
interface EngineMigration {
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
}

/** Migrations in order; a new one is appended, never edited once released. */
const MIGRATIONS: Record<string, EngineMigration> = {
  '0001_initial': initial,
  '0002_measurements': measurements,
  '0003_externally_fed_sensors': externallyFedSensors,
  '0004_catalog_scopes': catalogScopes,
  '0005_coarse_rollups': coarseRollups,
  '0006_throttle_events': throttleEvents,
  '0007_plant_search': plantSearch,
  '0008_partitioned_readings': partitionedReadings,
  '0009_readings_integrity': readingsIntegrity,
  '0010_search_index_upkeep': searchIndexUpkeep,
  '0013_sensor_sign_inversion': sensorSignInversion,
  '0014_sensor_hour_days': sensorHourDays,
  '0015_plant_list_order': plantListOrder,
  '0016_hour_day_points': hourDayPoints,
  '0017_plant_text_suffixes': plantTextSuffixes,
  '0020_plant_counts': plantCounts,
  '0021_plant_list_versions': plantListVersions,
};

export function migrationProvider(engine: Engine): MigrationProvider {
  const migrations = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, migration]): [string, Migration] => [
      name,
      { up: (db) => migration.up(db, engine) },
    ]),
  );
  return { getMigrations: async () => migrations };
}
