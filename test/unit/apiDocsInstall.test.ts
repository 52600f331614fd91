import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { importSwaggerUi, installApiDocs } from '../../server/http/docs.ts';
import { installErrorHandling } from '../../server/http/errorHandling.ts';

/**
 * The desktop installer leaves Swagger UI out (electron-builder.yml, issue 18): the server must
 * then answer /docs with the error body and keep the OpenAPI document. The packed app proves the
 * same on the real archive (test/build/packedApp.test.ts); this covers the branch in isolation.
 */

const AT = new Date('2026-06-21T10:00:00Z');

async function appWithDocs(loadSwaggerUi: Parameters<typeof installApiDocs>[2]) {
  const app = Fastify();
  installErrorHandling(app, 1_000_000, () => AT, true);
  await installApiDocs(app, { interactive: true, extensions: true }, loadSwaggerUi);
  await app.ready();
  return app;
}

describe('installApiDocs without the Swagger UI package', () => {
  test('/docs and its files are a 404 with the error body naming /openapi.json', async () => {
    const app = await appWithDocs(async () => null);
    for (const url of ['/docs', '/docs/', '/docs/static/index.html']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({
        timestamp: AT.toISOString(),
        status: 404,
        error: 'Not Found',
        message: expect.stringContaining('/openapi.json'),
        path: url,
      });
    }
    const document = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(document.statusCode).toBe(200);
    expect(document.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
    await app.close();
  });

  test('with the package installed, /docs is Swagger UI', async () => {
    const app = await appWithDocs(importSwaggerUi);
    const response = await app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger-ui');
    await app.close();
  });
});
