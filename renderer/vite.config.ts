import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig, type UserConfig } from 'vite';

/**
 * The renderer's build, shared by `npx vite build -c renderer/vite.config.ts` and the renderer
 * section of electron.vite.config.ts, so the browser mode and the desktop app ship the same bundle.
 * `base: './'` keeps asset URLs relative: the page is loaded from app://plantdesk/ by Electron and from
 * http://127.0.0.1:PORT/ by the web host.
 */
export const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
export const rendererOutDir = fileURLToPath(new URL('../out/renderer', import.meta.url));

export const rendererConfig: UserConfig = {
  root: rendererRoot,
  base: './',
  plugins: [vue()],
  // vue-i18n's bundler build: Composition API only (the legacy API is left out of the bundle),
  // no devtools hook in production.
  define: {
    __VUE_I18N_FULL_INSTALL__: 'true',
    __VUE_I18N_LEGACY_API__: 'false',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
  },
  build: {
    outDir: rendererOutDir,
    emptyOutDir: true,
    // Electron 45 ships Chromium 142; the web host is opened in a current browser.
    target: 'es2023',
    // Explicit: electron-vite leaves its renderer build unminified unless told.
    minify: true,
    // One local bundle (PrimeVue is most of it) loaded from disk or loopback: size is not latency.
    chunkSizeWarningLimit: 1500,
  },
};

export default defineConfig(rendererConfig);
