import type { z } from 'zod';
import type { Permission } from './permissions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * - `public`: no token (login).
 * - `access`: `Authorization: Bearer <access token>`.
 * - `refresh`: `Authorization: Bearer <refresh token>` (token refresh and logout).
 */
export type RouteAuth = 'public' | 'access' | 'refresh';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{param}` placeholders. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** All of them are required, checked in order; the first missing one names the 403. */
  permissions: readonly Permission[];
  /** The `plantUuid` path parameter must name a plant of the caller's organization (else 404). */
  ownership: boolean;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  status: 200 | 201 | 202 | 204;
  /** Absent for 204. */
  response?: z.ZodType;
  /** Error statuses beyond those implied by auth, permissions, validation and ownership. */
  extraErrors?: readonly (401 | 404 | 409 | 413 | 422 | 429)[];
  /** The parameters are defined in `params`, `query` and `body`; this is for listing only. */
  sortable?: readonly string[];
  /**
   * Absent for the specification's routes. `decisions`: an extension the decisions file defines
   * (clients must tolerate its absence); `plantdesk`: one of ours beyond both, which a server
   * started with `extensions: false` leaves out.
   */
  extension?: RouteExtension;
}

export type RouteExtension = 'decisions' | 'plantdesk';

/** Keeps each route's literal type so that clients get a typed method per route. */
export function defineRoute<const R extends RouteSpec>(route: R): R {
  return route;
}

export type RouteParams<R extends RouteSpec> = R['params'] extends z.ZodType
  ? z.output<R['params']>
  : Record<string, never>;
export type RouteQuery<R extends RouteSpec> = R['query'] extends z.ZodType
  ? z.output<R['query']>
  : Record<string, never>;
export type RouteBody<R extends RouteSpec> = R['body'] extends z.ZodType
  ? z.output<R['body']>
  : undefined;
export type RouteResponse<R extends RouteSpec> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : undefined;
/** What a client sends: the schemas' input side. */
export type RouteQueryInput<R extends RouteSpec> = R['query'] extends z.ZodType
  ? z.input<R['query']>
  : Record<string, never>;
export type RouteBodyInput<R extends RouteSpec> = R['body'] extends z.ZodType
  ? z.input<R['body']>
  : undefined;

/** Every error status a route can answer, derived from its definition. */
export function errorStatusesOf(route: RouteSpec): number[] {
  const statuses = new Set<number>();
  if (route.params || route.query || route.body) statuses.add(400);
  if (route.auth !== 'public') statuses.add(401);
  if (route.permissions.length > 0) statuses.add(403);
  if (route.ownership) statuses.add(404);
  if (route.body) statuses.add(413);
  for (const status of route.extraErrors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}
