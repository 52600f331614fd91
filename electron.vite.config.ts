import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { defineConfig, mergeConfig } from 'electron-vite';
import { rendererConfig } from './renderer/vite.config.ts';

/**
 * `npm run build` → out/:
 * - main/index.js (ESM, package.json "main") and main/localServer.js, the Local sandbox server
 *   that main runs in a utility process. package.json dependencies stay external (they ship in
 *   node_modules); our own code, including server/ and api/, is bundled.
 * - preload/index.cjs: one CommonJS file with everything inlined, since a sandboxed preload can
 *   require nothing but 'electron'. It needs only the channel and event names (ipc/names.ts), so
 *   it stays a few kB: the contract's schemas never reach it.
 * - renderer/: the same build as the browser mode (renderer/vite.config.ts).
 */

const fromRoot = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// Node builtins, spelled both ways. `node:sqlite` and friends exist only with the prefix and are
// missing from some Node versions' builtinModules, so they are listed explicitly: bundling would
// turn them into empty browser stubs.
const nodeBuiltins = [
  ...builtinModules.flatMap((name) => (name.startsWith('node:') ? [name] : [name, `node:${name}`])),
  'node:sqlite',
  'node:sea',
  'node:test',
];

export default defineConfig({
  main: {
    build: {
      outDir: fromRoot('out/main'),
      externalizeDeps: true,
      rolldownOptions: {
        input: {
          index: fromRoot('electron/main/index.ts'),
          localServer: fromRoot('electron/main/localServerEntry.ts'),
        },
        external: ['electron', /^electron\/.+/, ...nodeBuiltins],
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: fromRoot('out/preload'),
      externalizeDeps: false,
      isolatedEntries: true,
      rolldownOptions: {
        input: { index: fromRoot('electron/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: mergeConfig(rendererConfig, {
    build: {
      outDir: fromRoot('out/renderer'),
      rolldownOptions: { input: fromRoot('renderer/index.html') },
    },
  }),
});
