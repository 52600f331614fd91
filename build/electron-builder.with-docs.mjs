// electron-builder configuration for an installer WITH the interactive API reference (Swagger UI
// at the Local sandbox's /docs): electron-builder.yml without its docs exclusions.
// `npm run dist:with-docs`, or `npx electron-builder -c build/electron-builder.with-docs.mjs --win`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The patterns of electron-builder.yml's `files` that keep the API reference out. */
export const DOCS_EXCLUSIONS = [
  '!node_modules/@fastify/swagger-ui${/*}',
  '!node_modules/@fastify/static${/*}',
];

// electron-builder's own YAML reader, so the file is read exactly as it reads it.
const require = createRequire(import.meta.url);
const yaml = require(require.resolve('js-yaml', { paths: [require.resolve('app-builder-lib')] }));

export default function withDocs() {
  const base = yaml.load(readFileSync(new URL('../electron-builder.yml', import.meta.url), 'utf8'));
  const files = base.files.filter((pattern) => !DOCS_EXCLUSIONS.includes(pattern));
  if (files.length !== base.files.length - DOCS_EXCLUSIONS.length) {
    throw new Error('electron-builder.yml no longer has the docs exclusions this file removes');
  }
  return { ...base, files };
}
