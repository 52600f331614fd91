import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  permissionRequiredMessage,
  type RouteBody,
  type RouteId,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  type Routes,
  type RouteSpec,
} from '../../api/index.ts';
import type { AccessClaims, RefreshClaims } from '../auth/tokens.ts';
import type { ServerContext } from '../context.ts';
import type { PlantRow } from '../db/tables.ts';
import { EncodedJson } from './encodedJson.ts';
import { forbidden, notFound, revokedSession, unauthorized } from './errors.ts';
import { directPoolOf } from '../db/fastQuery.ts';
import { sharedWritesOf } from '../db/sharedWrites.ts';
import { AnswersAsOfArrival, readsSnapshotItself, type Arrival } from './answersAsOfArrival.ts';
import { checksSessionItself, revokedFirst } from './sessionInStatement.ts';
import { parseInput } from './validation.ts';

export interface RequestContext<R extends RouteSpec> {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  /** The caller, for routes with an access token. */
  user: R['auth'] extends 'access' ? AccessClaims : null;
  /** The verified refresh token and its claims, for routes authenticated by one. */
  refresh: R['auth'] extends 'refresh' ? { token: string; claims: RefreshClaims } : null;
  /** The plant named by the path, already checked to belong to the caller's organization. */
  plant: R['ownership'] extends true ? Readonly<PlantRow> : null;
  /** The client's address, for rate limiting. */
  ip: string;
  /**
   * The caller's sign-in (refresh-token family), when this request skipped the catch-up with
   * other instances' writes: the handler's statement must check it is not revoked
   * (sessionInStatement.ts). Null otherwise.
   */
  sessionToCheck: string | null;
}

/** A handler answers the response, or the response already encoded (see `EncodedJson`). */
export type RouteHandler<R extends RouteSpec> = (
  request: RequestContext<R>,
) => Promise<RouteResponse<R> | EncodedJson<RouteResponse<R>>>;

/** One handler per route of the table: a route cannot be added without one. */
export type RouteHandlers = { [K in RouteId]: RouteHandler<Routes[K]> };

interface AuthState {
  user: AccessClaims | null;
  refresh: { token: string; claims: RefreshClaims } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    plantdeskAuth: AuthState | null;
    /** For a route that reads the snapshot itself: when it arrived (answersAsOfArrival.ts). */
    plantdeskArrival: Arrival | null;
  }
  interface FastifyContextConfig {
    /** The route checks the caller's sign-in in its own statement (sessionInStatement.ts). */
    catchesUpItself?: boolean;
  }
}

/** `/plants/{plantUuid}` → `/plants/:plantUuid`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Registers every route of the table. Checks run in the order of the decisions file:
 * authentication (401) and permission (403) before the body is even read, then validation of
 * path, query and body (400), then existence and ownership of the plant (404).
 */
export function registerRoutes(
  app: FastifyInstance,
  context: ServerContext,
  routes: Routes,
  handlers: RouteHandlers,
  extensions = true,
  catchUp?: () => Promise<void>,
): void {
  app.decorateRequest('plantdeskAuth', null);
  app.decorateRequest('plantdeskArrival', null);
  const pool = catchUp && directPoolOf(context.db);
  const shared = pool ? sharedWritesOf(pool) : undefined;
  const asOfArrival = shared && catchUp && new AnswersAsOfArrival(shared, context, catchUp);
  for (const id of Object.keys(routes) as RouteId[]) {
    const route: RouteSpec = routes[id];
    // Left out, such a route is an unknown one: 404 with the error body.
    if (!extensions && route.extension === 'plantdesk') continue;
    const handler = handlers[id] as unknown as RouteHandler<RouteSpec>;
    const readsSnapshot = readsSnapshotItself(id) ? asOfArrival : undefined;
    const lateCatchUp = checksSessionItself(id) || readsSnapshot ? catchUp : undefined;
    // Before the route's own statement, an error is answered as after a catch-up.
    const failed = (request: FastifyRequest, error: unknown) =>
      lateCatchUp
        ? revokedFirst(error, callerOf(request, context)?.familyId, context, lateCatchUp)
        : Promise.reject(error as Error);
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      config: { catchesUpItself: lateCatchUp !== undefined },
      // Callback style: a token verified before is checked without a promise per request.
      onRequest: (request, _reply, done) => {
        if (readsSnapshot) request.plantdeskArrival = readsSnapshot.arrival();
        try {
          const auth = authenticate(request, route, context);
          if (auth instanceof Promise) {
            auth.then(
              (state) => {
                request.plantdeskAuth = state;
                done();
              },
              (error: unknown) => failed(request, error).catch(done),
            );
          } else {
            request.plantdeskAuth = auth;
            done();
          }
        } catch (error) {
          if (lateCatchUp) failed(request, error).catch(done);
          else done(error as Error);
        }
      },
      handler: async (request, reply) => {
        let params, query, body;
        try {
          params = route.params ? parseInput(route.params, request.params, 'path') : {};
          query = route.query ? parseInput(route.query, request.query, 'query') : {};
          body = route.body ? parseInput(route.body, request.body, 'body') : undefined;
        } catch (error) {
          return failed(request, error);
        }
        const auth = request.plantdeskAuth ?? { user: null, refresh: null };
        const answer = async () => {
          const plant = route.ownership
            ? await loadOwnedPlant(context, (params as { plantUuid: string }).plantUuid, auth.user)
            : null;
          return handler({
            params,
            query,
            body,
            user: auth.user,
            refresh: auth.refresh,
            plant,
            ip: request.ip,
            sessionToCheck: lateCatchUp && !readsSnapshot ? (auth.user?.familyId ?? null) : null,
          } as RequestContext<RouteSpec>);
        };
        const arrival = request.plantdeskArrival;
        const result =
          readsSnapshot && arrival
            ? await readsSnapshot.answer(answer, arrival, auth.user?.familyId)
            : await answer();
        reply.code(route.status);
        if (route.status === 204) return reply.send();
        if (result instanceof EncodedJson) {
          result.releaseAfter(reply.raw);
          return reply.type('application/json; charset=utf-8').send(result.body);
        }
        return reply.send(result);
      },
    });
  }
}

/** The caller's verified access claims, if the request carried a token verified before. */
function callerOf(request: FastifyRequest, context: ServerContext): AccessClaims | undefined {
  let token: string;
  try {
    token = bearerToken(request.headers.authorization);
  } catch {
    return undefined;
  }
  return context.tokens.recentlyVerifiedAccess(token);
}

/** Synchronous when the access token was verified before; throws the 401 or 403. */
function authenticate(
  request: FastifyRequest,
  route: RouteSpec,
  context: ServerContext,
): AuthState | null | Promise<AuthState | null> {
  if (route.auth === 'public') return null;
  const token = bearerToken(request.headers.authorization);
  if (route.auth === 'refresh') {
    return context.tokens
      .verifyRefresh(token)
      .then((claims) => ({ user: null, refresh: { token, claims } }));
  }
  const recent = context.tokens.recentlyVerifiedAccess(token);
  if (recent) {
    const revoked = context.revocations.knownRevoked(recent.familyId);
    if (revoked === false) return authorize(recent, route);
    if (revoked) throw revokedSession();
  }
  return context.tokens.verifyAccess(token).then(async (user) => {
    if (await context.revocations.isRevoked(user.familyId)) throw revokedSession();
    return authorize(user, route);
  });
}

function authorize(user: AccessClaims, route: RouteSpec): AuthState {
  for (const required of route.permissions) {
    if (!user.permissions.includes(required)) throw forbidden(permissionRequiredMessage(required));
  }
  return { user, refresh: null };
}

const TOKEN_CHARACTERS = /^[A-Za-z0-9._~+/=-]+$/;

function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('Authentication required: send Authorization: Bearer <token>');
  const scheme = header.slice(0, 7);
  const token = header.slice(7).trim();
  if (scheme.toLowerCase() !== 'bearer ' || !TOKEN_CHARACTERS.test(token)) {
    throw unauthorized('Authorization header must be: Bearer <token>');
  }
  return token;
}

/** A plant of another organization is as invisible as one that does not exist. */
async function loadOwnedPlant(
  context: ServerContext,
  plantUuid: string,
  user: AccessClaims | null,
): Promise<Readonly<PlantRow>> {
  const plant = await context.plants.find(plantUuid);
  if (!plant || plant.organization_uuid !== user?.organizationUuid) {
    throw notFound(`Plant ${plantUuid} not found`);
  }
  return plant;
}
