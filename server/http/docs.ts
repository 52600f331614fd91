import { readFileSync } from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import type SwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { generateOpenApiDocument } from '../../api/index.ts';
import { appRoot } from '../appRoot.ts';
import { notFound } from './errors.ts';

const { version } = JSON.parse(
  readFileSync(path.join(appRoot(import.meta.dirname), 'package.json'), 'utf8'),
) as { version: string };

/**
 * The one `<style>` element Swagger UI's script inserts. Allowed by its hash, not by
 * 'unsafe-inline'; the end-to-end test of /docs fails with the new hash if an update changes it.
 */
const SWAGGER_UI_INSERTED_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * Swagger UI's own policy with everything it does not need taken out: no framing (clickjacking
 * of "Authorize"), no styles or fonts from any https host, no calls to the online validator, and
 * no upgrade of requests, which would break a server on plain http over loopback.
 */
export function strictDocsPolicy(swaggerUiPolicy: string): string {
  return swaggerUiPolicy
    .replace(/frame-ancestors [^;]*;/, "frame-ancestors 'none';")
    .replace(/ https:/g, '')
    .replace(/ validator\.swagger\.io/g, '')
    .replace(/\s*upgrade-insecure-requests;/, '')
    .replace(/style-src 'self'/, `style-src 'self' ${SWAGGER_UI_INSERTED_STYLE}`)
    .concat(" form-action 'none';")
    .trim();
}

/**
 * The OpenAPI document at `/openapi.json` and, unless turned off, an interactive reference
 * (Swagger UI) at `/docs`. The desktop installer leaves Swagger UI out (electron-builder.yml):
 * there `/docs` answers 404 with the error body, naming where the document still is.
 */
export async function installApiDocs(
  app: FastifyInstance,
  options: { interactive: boolean; extensions: boolean },
  loadSwaggerUi: () => Promise<SwaggerUiPlugin | null> = importSwaggerUi,
): Promise<void> {
  const document = generateOpenApiDocument({ version, extensions: options.extensions });
  await app.register(swagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  const swaggerUi = options.interactive ? await loadSwaggerUi() : null;
  if (swaggerUi) {
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { deepLinking: true, persistAuthorization: false, validatorUrl: null },
      staticCSP: true,
      transformStaticCSP: strictDocsPolicy,
    });
  } else if (options.interactive) {
    const missing = () => {
      throw notFound(
        'The interactive API reference is not installed with this build; the OpenAPI document is at /openapi.json',
      );
    };
    app.get('/docs', { schema: { hide: true } }, missing);
    app.get('/docs/*', { schema: { hide: true } }, missing);
  }
  app.get('/openapi.json', { schema: { hide: true } }, async () => document);
}

type SwaggerUiPlugin = typeof SwaggerUi;

/** Swagger UI when its package is installed, null when the installer left it out. */
export async function importSwaggerUi(): Promise<SwaggerUiPlugin | null> {
  try {
    return (await import('@fastify/swagger-ui')).default;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw error;
  }
}
