import type { Migration, MigrationProvider } from 'kysely/migration';
import * as initial from './0001_initial.ts';
import * as measurements from './0002_measurements.ts';
import * as externallyFedSensors from './0003_externally_fed_sensors.ts';
import * as catalogScopes from './0004_catalog_scopes.ts';

/** Migrations in order; a new one is appended, never edited once released. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_measurements': measurements,
  '0003_externally_fed_sensors': externallyFedSensors,
  '0004_catalog_scopes': catalogScopes,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
