import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The out/ folder `electron-vite build` wrote, for the tests that check the built app. They do
 * not build it themselves: `npm test` builds before vitest (next to lint and typecheck), and a
 * build inside one test file would rewrite out/ under another file reading it.
 */

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const OUT = path.join(ROOT, 'out');

/** The source folders bundled into out/main and out/preload. */
const SOURCES = ['api', 'electron', 'i18n', 'server', 'package.json', 'electron.vite.config.ts'];

function newestChange(target: string): { file: string; mtimeMs: number } {
  const stat = statSync(target);
  if (!stat.isDirectory()) return { file: target, mtimeMs: stat.mtimeMs };
  let newest = { file: target, mtimeMs: 0 };
  for (const name of readdirSync(target, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(target, name);
    const mtimeMs = statSync(file).mtimeMs;
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/**
 * Throws, saying what to run, when out/ is missing or older than a source it is built from:
 * checks of a stale build would pass or fail for code that is no longer there.
 */
export function requireFreshBuild(): void {
  const index = path.join(OUT, 'main', 'index.js');
  if (!existsSync(index)) throw new Error('out/ is not built: run `npm run build` first');
  const built = statSync(index).mtimeMs;
  const newest = SOURCES.map((source) => newestChange(path.join(ROOT, source))).reduce((a, b) =>
    b.mtimeMs > a.mtimeMs ? b : a,
  );
  if (newest.mtimeMs > built)
    throw new Error(
      `out/ is older than ${path.relative(ROOT, newest.file)}: run \`npm run build\` first`,
    );
}

/** The package.json `dependencies`: what electron-builder ships in node_modules. */
export function productionDependencies(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(manifest.dependencies ?? {});
}
