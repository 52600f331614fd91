import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig, type UserConfig } from 'vite';

/**
 * The chart benchmark's page (bench/chart/page), built like the renderer (production Vue,
 * es2023) into out/bench-chart. `npx vite build -c bench/chart/vite.config.ts`, or
 * bench/chart/chart.bench.ts builds it itself.
 */
export const chartBenchRoot = fileURLToPath(new URL('./page', import.meta.url));
export const chartBenchOutDir = fileURLToPath(new URL('../../out/bench-chart', import.meta.url));

export const chartBenchConfig: UserConfig = {
  root: chartBenchRoot,
  base: './',
  plugins: [vue()],
  logLevel: 'warn',
  build: {
    outDir: chartBenchOutDir,
    emptyOutDir: true,
    target: 'es2023',
    chunkSizeWarningLimit: 2000,
  },
};

export default defineConfig(chartBenchConfig);
