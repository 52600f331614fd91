import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Component tests (test/renderer) mount .vue files.
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts'],
    // Playwright runs these (npm run test:e2e).
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // .ci/run counts passed and failed tests from the JSON report.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});
