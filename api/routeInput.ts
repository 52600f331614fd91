import type { z } from 'zod';
import type { RouteSpec } from './route.ts';
import type { Routes, RouteId } from './routes.ts';

/**
 * What a client passes to call one route: path parameters, query parameters and body, keyed by
 * the contract's own names. Query values are what goes on the wire (strings, numbers, booleans,
 * lists); the server's schemas parse them, so a client never duplicates those rules.
 */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

type ParamsPart<R extends RouteSpec> = R['params'] extends z.ZodType
  ? { params: z.input<R['params']> }
  : { params?: undefined };
type QueryPart<R extends RouteSpec> = R['query'] extends z.ZodType
  ? { query?: { [K in keyof z.output<R['query']>]?: QueryValue } }
  : { query?: undefined };
type BodyPart<R extends RouteSpec> = R['body'] extends z.ZodType
  ? { body: z.input<R['body']> }
  : { body?: undefined };

export type RouteInputOf<R extends RouteSpec> = ParamsPart<R> & QueryPart<R> & BodyPart<R>;
export type RouteInput<Id extends RouteId> = RouteInputOf<Routes[Id]>;

/** What a call answers: the route's response as the contract parses it (undefined for 204). */
export type RouteResultOf<R extends RouteSpec> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : undefined;
export type RouteResult<Id extends RouteId> = RouteResultOf<Routes[Id]>;
