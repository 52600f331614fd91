import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresBinDir } from './test/support/postgresCluster.ts';
import { postgresPlan } from './test/support/postgresAvailability.ts';
import { POSTGRES_SUITES, postgresProject } from './vitest.postgres.config.ts';
import { sharedConfig } from './vitest.shared.config.ts';

/**
 * `npm test`'s vitest run: every test on SQLite (the `sqlite` project) and, in the same run, the
 * integration suites of vitest.postgres.config.ts on PostgreSQL (the `postgres` project), so
 * that the PostgreSQL suites, which mostly wait on the database, overlap the CPU-bound rest.
 * Without a PostgreSQL the `postgres` project is skipped with one line saying so, except in CI.
 */
const sqliteProject = {
  extends: true,
  test: {
    name: 'sqlite',
    include: ['test/**/*.test.ts'],
    // Playwright runs test/e2e (npm run test:e2e); enginesAgree needs both engines, hence the
    // postgres project; component tests are the renderer project's.
    exclude: [
      'test/e2e/**',
      'node_modules/**',
      'test/integration/enginesAgree.test.ts',
      'test/renderer/**',
    ],
  },
} satisfies TestProjectInlineConfiguration;

/** Component tests: each mounts with the app's vue-i18n (a setup file only these pay for). */
const rendererProject = {
  extends: true,
  test: {
    name: 'renderer',
    include: ['test/renderer/**/*.test.ts'],
    setupFiles: [
      'test/renderer/support/i18nForComponents.ts',
      'test/renderer/support/queryClientForComponents.ts',
    ],
  },
} satisfies TestProjectInlineConfiguration;

const plan = postgresPlan({ env: process.env, binDir: postgresBinDir() }, POSTGRES_SUITES);
if ('error' in plan) throw new Error(plan.error);
if ('notice' in plan) console.warn(plan.notice);

export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    projects: plan.run
      ? [sqliteProject, rendererProject, postgresProject]
      : [sqliteProject, rendererProject],
    // Both engines' suites side by side: vitest's default, a worker per core but one, is a
    // single worker on two cores, where the PostgreSQL suites would then run after the rest.
    ...(plan.run ? { maxWorkers: Math.max(2, availableParallelism() - 1) } : {}),
    // .ci/run counts passed and failed tests (both projects') from this report.
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});
