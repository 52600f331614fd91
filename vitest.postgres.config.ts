import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:postgres`: the integration suites that pass on PostgreSQL, each test server on a
 * database of its own in one throwaway cluster (test/support/postgresGlobalSetup.ts).
 */
export const POSTGRES_SUITES = [
  'test/integration/postgresSchema.test.ts',
  'test/integration/plants.test.ts',
  'test/integration/sensors.test.ts',
  'test/integration/errors.test.ts',
  'test/integration/readings.test.ts',
  'test/integration/metrics.test.ts',
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
