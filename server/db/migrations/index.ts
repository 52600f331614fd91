import type { Migration, MigrationProvider } from 'kysely/migration';
import * as initial from './0001_initial.ts';

/** Migrations in order; a new one is appended, never edited once released. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
