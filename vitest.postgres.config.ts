import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { sharedConfig } from './vitest.shared.config.ts';

/**
 * The integration suites that also run on PostgreSQL: in `npm test` as its `postgres` project
 * (vitest.config.ts) when a PostgreSQL is there, and alone with `npm run test:postgres`. Each
 * test server gets a database of its own in one throwaway cluster (test/support/postgresGlobalSetup.ts).
 */
/**
 * The suites whose answers come from the database: every one that starts its servers on the
 * default in-memory database, hence on PostgreSQL here, plus restart and reports, which take a
 * database URL there instead of a file, and the fuzz suite. demoFleet's background history (12 plants, 90
 * days) fits in its 30 s here since ingestion on PostgreSQL lost the per-row foreign-key check.
 * Left out: serverFiles and desktop/* (SQLite files and the desktop's sandbox by design; but
 * draftSend, whose server is an ordinary test server, is in), and, for CI's time budget, the
 * suites about the process rather than the data, which would run the same code twice:
 * serverClock (the defaults a clock gives), serverExposure (addresses and hosts), logging,
 * openapi (the document), exitWithParent and gracefulShutdown (signals).
 */
export const POSTGRES_SUITES = [
  'test/integration/postgresSchema.test.ts',
  'test/integration/plants.test.ts',
  'test/integration/sensors.test.ts',
  'test/integration/errors.test.ts',
  'test/integration/readings.test.ts',
  'test/integration/metrics.test.ts',
  'test/integration/coalescedMetrics.test.ts',
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
  'test/integration/summaryCache.test.ts',
  'test/integration/simulator.test.ts',
  'test/integration/monitor/monitor.test.ts',
  'test/integration/desktop/draftSend.test.ts',
  'test/integration/rawRetention.test.ts',
  'test/integration/instances.test.ts',
  'test/integration/restart.test.ts',
  'test/property/fuzz.test.ts',
  'test/integration/enginesAgree.test.ts',
  'test/integration/plantSearch.test.ts',
  'test/integration/plantListBytes.test.ts',
  'test/integration/plantDirectory.test.ts',
  'test/integration/cliPostgres.test.ts',
  'test/integration/ops.test.ts',
  'test/integration/signInversion.test.ts',
  'test/integration/hourDays.test.ts',
  'test/integration/demoFleet.test.ts',
  'test/integration/plantCounts.test.ts',
  'test/integration/dataHealth.test.ts',
  'test/integration/dataHealthDemoFleet.test.ts',
  'test/integration/reports.test.ts',
  'test/integration/dataHealthRetention.test.ts',
];

/** The `postgres` project: the suites above with PLANTDESK_TEST_ENGINE=postgres and a cluster. */
export const postgresProject = {
  extends: true,
  test: {
    name: 'postgres',
    // PLANTDESK_POSTGRES_ALL=1: every integration suite, to see how far the rest are.
    include: process.env.PLANTDESK_POSTGRES_ALL
      ? ['test/integration/**/*.test.ts']
      : POSTGRES_SUITES,
    globalSetup: ['test/support/postgresGlobalSetup.ts'],
    env: { PLANTDESK_TEST_ENGINE: 'postgres' },
  },
} satisfies TestProjectInlineConfiguration;

// `npm run test:postgres`: the PostgreSQL project alone, with a report of its own.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    projects: [postgresProject],
    outputFile: { json: 'test-artifacts/vitest-postgres-results.json' },
  },
});
