import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorStatusesOf, routes, type RouteSpec } from '../../api/index.ts';
import { OPENAPI_FILE, openApiDocumentText } from '../../scripts/openApiDocument.ts';
import { TestServer } from '../support/testServer.ts';

let server: TestServer;

beforeAll(async () => {
  server = await TestServer.start();
});

afterAll(async () => {
  await server?.close();
});

const ROUTES = Object.values(routes as Record<string, RouteSpec>);
const generated = () => JSON.parse(openApiDocumentText()) as any;

describe('the OpenAPI document', () => {
  test('the committed api/openapi.json is up to date', () => {
    const committed = existsSync(OPENAPI_FILE) ? readFileSync(OPENAPI_FILE, 'utf8') : '(missing)';
    expect(
      committed === openApiDocumentText(),
      'api/openapi.json differs from the route table: run `npm run openapi` and commit the result',
    ).toBe(true);
  });

  test('GET /openapi.json serves the same document, without a token', async () => {
    const response = await server.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual(generated());
  });

  test('every route of the table appears with its operationId, once', () => {
    const document = generated();
    const operationIds: string[] = [];
    for (const route of ROUTES) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
      operationIds.push(operation.operationId);
    }
    expect(new Set(operationIds).size).toBe(ROUTES.length);
    const documented = Object.values(document.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item),
    );
    expect(documented).toHaveLength(ROUTES.length);
  });

  test('each operation lists its success status and its error statuses with the ErrorBody', () => {
    const document = generated();
    for (const route of ROUTES) {
      const { responses } = document.paths[route.path][route.method.toLowerCase()];
      expect(Object.keys(responses), route.operationId).toContain(String(route.status));
      for (const status of errorStatusesOf(route)) {
        expect(responses[status]?.content['application/json'].schema, route.operationId).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        });
      }
    }
    expect(document.components.schemas.ErrorBody.required.sort()).toEqual(
      ['error', 'message', 'path', 'status', 'timestamp'].sort(),
    );
  });

  test('protected operations name their bearer scheme; login names none', () => {
    const document = generated();
    for (const route of ROUTES) {
      const { security } = document.paths[route.path][route.method.toLowerCase()];
      if (route.auth === 'public') expect(security, route.operationId).toBeUndefined();
      else expect(security, route.operationId).toEqual([{ [`${route.auth}Token`]: [] }]);
    }
  });
});

describe('GET /docs', () => {
  test('answers the Swagger UI page', async () => {
    const response = await server.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.body).toMatch(/<html/i);
    expect(response.body).toMatch(/swagger-ui/i);
  });
});
