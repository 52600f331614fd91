import type { HttpMethod, RouteSpec } from '../../../api/route.ts';
import { ApiError } from './apiError.ts';

/**
 * Turns a route of the contract and what a caller passes (`RouteInput`) into the pieces of an
 * HTTP request. Pure: no I/O, no transport, so that its rules are tested on their own.
 */

/** `RouteInput<Id>` seen without its per-route types (the IPC bridge passes plain JSON). */
export interface LooseRouteInput {
  params?: Readonly<Record<string, unknown>> | undefined;
  query?: Readonly<Record<string, unknown>> | undefined;
  body?: unknown;
}

export interface BuiltRequest {
  method: HttpMethod;
  /** The route's path with its parameters filled in, e.g. `/plants/3f…`; no query string. */
  path: string;
  /** `''` or `?name=value&…`. */
  search: string;
  /** The JSON text of the body, or undefined when the route takes none. */
  body: string | undefined;
}

export function buildRequest(route: RouteSpec, input: LooseRouteInput | undefined): BuiltRequest {
  return {
    method: route.method,
    path: buildPath(route.path, input?.params),
    search: buildSearch(input?.query),
    body: route.body === undefined ? undefined : encodeBody(input?.body),
  };
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

/** Fills each `{param}` with its percent-encoded value, so that every value stays one segment. */
export function buildPath(
  template: string,
  params: Readonly<Record<string, unknown>> | undefined,
): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) {
      throw ApiError.invalidArguments(`Path parameter '${name}' is missing`);
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw ApiError.invalidArguments(`Path parameter '${name}' must be a string`);
    }
    return encodePathSegment(name, String(value));
  });
}

/**
 * One path segment. `.` and `..` are refused rather than encoded: URL parsers (WHATWG, and so
 * fetch) treat `%2E%2E` as `..` too and would climb out of the route. An empty value would
 * change the route's shape.
 */
export function encodePathSegment(name: string, value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw ApiError.invalidArguments(
      `Path parameter '${name}' cannot be ${value === '' ? 'empty' : `'${value}'`}`,
    );
  }
  // A lone surrogate cannot be UTF-8 encoded; browsers send U+FFFD for it, and so do we.
  return encodeURIComponent(value.toWellFormed());
}

/**
 * The query string. Lists are sent as repeated parameters (`sort=name,desc&sort=createdAt`):
 * the server accepts both repeated and comma-separated lists, but a `sort` entry holds commas
 * itself, so joining with commas would change its meaning. `undefined` and `null` are left out;
 * booleans are `true`/`false`.
 */
export function buildSearch(query: Readonly<Record<string, unknown>> | undefined): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = queryValueText(name, item);
      if (text !== undefined) pairs.push(`${encodeQueryPart(name)}=${encodeQueryPart(text)}`);
    }
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

function queryValueText(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw ApiError.invalidArguments(`Query parameter '${name}' must be a finite number`);
    }
    return String(value);
  }
  throw ApiError.invalidArguments(
    `Query parameter '${name}' must be a string, number, boolean or a list of them`,
  );
}

/** `%20` rather than `+` for spaces: every query parser reads it the same way. */
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text.toWellFormed());
}

function encodeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw ApiError.invalidArguments(
      `The request body cannot be sent as JSON: ${(error as Error).message}`,
    );
  }
}

/**
 * The base URL (which may carry a path prefix, `https://host/api`) joined with a path and query.
 * Refuses anything but http and https.
 */
export function joinUrl(baseUrl: string, pathAndSearch: string): string {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw ApiError.invalidArguments(`'${baseUrl}' is not a valid server address`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw ApiError.invalidArguments(`'${baseUrl}' is not an http or https address`);
  }
  const prefix = `${base.origin}${base.pathname}`.replace(/\/+$/, '');
  return `${prefix}${pathAndSearch}`;
}

/** The base URL as shown in messages: origin plus path prefix, never credentials or query. */
export function displayBaseUrl(baseUrl: string): string {
  try {
    const base = new URL(baseUrl);
    return `${base.origin}${base.pathname}`.replace(/\/+$/, '');
  } catch {
    return baseUrl;
  }
}

/** Loopback hosts: the Local sandbox and development servers. */
export { isLoopbackUrl } from '../../ipc/addresses.ts';
