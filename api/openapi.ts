import { z } from 'zod';
import { errorStatusesOf, type RouteSpec } from './route.ts';
import { routes } from './routes.ts';
import { reasonPhrases } from './statusPhrases.ts';
import { queryParameterDocs } from './schemas/query.ts';

type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';
const SCHEMA_OPTIONS = { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' } as const;

export interface OpenApiInfo {
  version: string;
  /** Include our own extension routes (default true); see `RouteSpec.extension`. */
  extensions?: boolean;
}

/** The routes a server serves: without `extensions`, none of ours beyond the decisions file. */
export function servedRoutes(extensions = true): [string, RouteSpec][] {
  return (Object.entries(routes) as [string, RouteSpec][]).filter(
    ([, route]) => extensions || route.extension !== 'plantdesk',
  );
}

/**
 * The OpenAPI 3.1 document of the route table. Named schemas (`.meta({ id })`) become
 * components; parameters come from each route's path and query schemas.
 */
export function generateOpenApiDocument(info: OpenApiInfo): Record<string, unknown> {
  const schemas = componentSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  for (const [, route] of servedRoutes(info.extensions)) {
    if (!tags.includes(route.tag)) tags.push(route.tag);
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant Energy API (PlantDesk local sandbox)',
      version: info.version,
      description:
        'The Plant Energy API as implemented by PlantDesk. Errors always carry the ErrorBody. Checks run in this order: authentication (401), permission (403), validation (400), existence and ownership of the plant (404).',
    },
    servers: [{ url: '/' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from /auth/login',
        },
        refreshToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Refresh token from /auth/login or /auth/token',
        },
      },
    },
  };
}

function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    ...SCHEMA_OPTIONS,
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const sorted: Record<string, JsonSchema> = {};
  for (const name of Object.keys(schemas).sort()) {
    const { $schema: _schema, $id: _id, ...schema } = schemas[name]!;
    sorted[name] = schema;
  }
  return sorted;
}

function schemaOf(schema: z.ZodType): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `${COMPONENT_PREFIX}${id}` };
  const { $schema: _schema, ...inline } = z.toJSONSchema(schema, SCHEMA_OPTIONS) as JsonSchema;
  return inline;
}

function operation(route: RouteSpec): Record<string, unknown> {
  const notes = [
    route.description,
    route.permissions.length > 0
      ? `Requires ${route.permissions.map((name) => `\`${name}\``).join(' and ')}.`
      : undefined,
    route.ownership ? "The plant must belong to the caller's organization (else 404)." : undefined,
  ].filter(Boolean);
  const responses: Record<string, unknown> = {
    [route.status]: route.response
      ? {
          description: reasonPhrases[route.status],
          content: { 'application/json': { schema: schemaOf(route.response) } },
        }
      : { description: reasonPhrases[route.status] },
  };
  for (const status of errorStatusesOf(route)) {
    responses[status] = {
      description: reasonPhrases[status],
      content: { 'application/json': { schema: { $ref: `${COMPONENT_PREFIX}ErrorBody` } } },
    };
  }
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(notes.length > 0 && { description: notes.join('\n\n') }),
    ...(route.auth !== 'public' && { security: [{ [`${route.auth}Token`]: [] }] }),
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(route.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemaOf(route.body) } },
      },
    }),
    responses,
  };
}

function parameters(
  shape: RouteSpec['params'],
  location: 'path' | 'query',
): Record<string, unknown>[] {
  if (!shape) return [];
  return Object.entries(shape.shape).map(([name, field]) => {
    const schema = schemaOf(field as z.ZodType);
    const { description, ...converted } = schema;
    const rest = queryParameterDocs.get(field as z.ZodType)?.schema ?? converted;
    const optional = (field as z.ZodType).safeParse(undefined).success;
    return {
      name,
      in: location,
      required: location === 'path' || !optional,
      ...(typeof description === 'string' && { description }),
      schema: rest,
      ...(location === 'query' && isListParameter(rest) && { style: 'form', explode: true }),
    };
  });
}

function isListParameter(schema: JsonSchema): boolean {
  return schema.type === 'array';
}
