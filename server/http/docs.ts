import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { generateOpenApiDocument } from '../../api/index.ts';

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** The OpenAPI document at `/openapi.json` and an interactive reference (Swagger UI) at `/docs`. */
export async function installApiDocs(app: FastifyInstance): Promise<void> {
  const document = generateOpenApiDocument({ version });
  await app.register(swagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, persistAuthorization: false },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => document);
}
