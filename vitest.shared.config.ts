import vue from '@vitejs/plugin-vue';
import type { ViteUserConfig } from 'vitest/config';

/**
 * What `npm test`'s run (vitest.config.ts) and the PostgreSQL-only run (vitest.postgres.config.ts)
 * share; each adds its projects and its JSON report.
 */
export const sharedConfig = {
  // Component tests (test/renderer) mount .vue files.
  plugins: [vue()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // .ci/run counts passed and failed tests from the JSON report.
    reporters: ['default', 'json'],
  },
} satisfies ViteUserConfig;
