import type { ServerContext } from '../context.ts';
import type { RouteHandlers } from '../http/routing.ts';
import { authHandlers } from './auth/authHandlers.ts';
import { plantHandlers } from './plants/plantHandlers.ts';

/** Every route's handler, by operation id; the type makes a missing one a compile error. */
export function allHandlers(context: ServerContext): RouteHandlers {
  return {
    ...authHandlers(context),
    ...plantHandlers(context),
  } as RouteHandlers;
}
