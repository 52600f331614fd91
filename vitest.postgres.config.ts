import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:postgres`: the integration suites that pass on PostgreSQL, each test server on a
 * database of its own in one throwaway cluster (test/support/postgresGlobalSetup.ts).
 */
/**
 * Every suite that starts its servers on the default in-memory database, hence on PostgreSQL
 * here. Left out, as they pin SQLite files or spawn the CLI: restart, serverFiles,
 * exitWithParent and desktop/*. Also left out: demoFleet, whose background history (12 plants,
 * 90 days) takes longer than its 30 s on PostgreSQL (8 s on SQLite): the simulator's ingestion
 * is not yet fast there.
 */
export const POSTGRES_SUITES = [
  'test/integration/postgresSchema.test.ts',
  'test/integration/plants.test.ts',
  'test/integration/sensors.test.ts',
  'test/integration/errors.test.ts',
  'test/integration/readings.test.ts',
  'test/integration/metrics.test.ts',
  'test/integration/coarseRollups.test.ts',
  'test/integration/permissionMatrix.test.ts',
  'test/integration/pvHealth.test.ts',
  'test/integration/forecasts.test.ts',
  'test/integration/fleet.test.ts',
  'test/integration/fleetQueries.test.ts',
  'test/integration/auth.test.ts',
  'test/integration/catalogScopes.test.ts',
  'test/integration/dataTypesCollects.test.ts',
  'test/integration/deviceTypes.test.ts',
  'test/integration/devices.test.ts',
  'test/integration/loadSignatures.test.ts',
  'test/integration/sensorTypes.test.ts',
  'test/integration/vendors.test.ts',
  'test/integration/metadataLimits.test.ts',
  'test/integration/openapi.test.ts',
  'test/integration/summaryCache.test.ts',
  'test/integration/simulator.test.ts',
  'test/integration/serverClock.test.ts',
  'test/integration/serverExposure.test.ts',
  'test/integration/logging.test.ts',
  'test/integration/monitor/monitor.test.ts',
];

// Spread rather than mergeConfig, which would add these suites to the base's include.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // PLANTDESK_POSTGRES_ALL=1: every integration suite, to see how far the rest are.
    include: process.env.PLANTDESK_POSTGRES_ALL
      ? ['test/integration/**/*.test.ts']
      : POSTGRES_SUITES,
    globalSetup: ['test/support/postgresGlobalSetup.ts'],
    env: { PLANTDESK_TEST_ENGINE: 'postgres' },
    outputFile: { json: 'test-artifacts/vitest-postgres-results.json' },
  },
});
