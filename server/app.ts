import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { routes } from '../api/index.ts';
import type { ServerContext } from './context.ts';
import { allHandlers } from './features/index.ts';
import { installApiDocs } from './http/docs.ts';
import { earlyErrorOptions, installErrorHandling } from './http/errorHandling.ts';
import { pathOf } from './http/errors.ts';
import { type HostPolicy, installHostPolicy } from './http/hostPolicy.ts';
import { installJsonBodyParser } from './http/jsonBody.ts';
import { installRequestLog } from './http/requestLog.ts';
import { registerRoutes } from './http/routing.ts';
import { installOpsRoutes, installRequestMetrics } from './ops/opsRoutes.ts';
import type { ServerMetrics } from './ops/serverMetrics.ts';

export interface AppOptions {
  logger: FastifyServerOptions['logger'];
  bodyLimitBytes: number;
  trustProxy: boolean | number | string;
  /** Serve the interactive reference at `/docs`. */
  docs: boolean;
  /** Which `Host` headers are answered (DNS rebinding); default any. */
  hosts: HostPolicy;
  timeouts: ServerTimeouts;
  /** Serve our own extension routes (`RouteSpec.extension === 'plantdesk'`). */
  extensions: boolean;
  /** Count requests and serve `/metrics`; absent, `/metrics` is an unknown route. */
  metrics?: ServerMetrics;
  /**
   * Awaited before each API request (not the ops routes): on PostgreSQL, catching up with other
   * instances' writes, so that caches answer nothing older than the request.
   */
  beforeRequest?: () => Promise<void>;
}

/**
 * How long a client may take: a request (headers and body) must arrive within `requestMs`, and a
 * connection idle between requests is closed after `keepAliveMs`, so a body sent one byte at a
 * time cannot hold a connection (and its memory) forever.
 */
export interface ServerTimeouts {
  requestMs: number;
  headersMs: number;
  keepAliveMs: number;
  /** An idle socket (nothing sent either way) is closed after this long. */
  idleMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 5_000,
  idleMs: 60_000,
};

/** Probes and scrapes: answered without waiting for the database. */
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function trustNearestHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** The Fastify application: hooks, error model, documentation and every route of the table. */
export async function buildApp(
  context: ServerContext,
  options: AppOptions,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger,
    // Our own onResponse hook writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    requestTimeout: options.timeouts.requestMs,
    connectionTimeout: options.timeouts.idleMs,
    keepAliveTimeout: options.timeouts.keepAliveMs,
    http: {
      headersTimeout: options.timeouts.headersMs,
      // How often Node looks for requests past their time: a fraction of the shortest limit.
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(options.timeouts.requestMs, options.timeouts.headersMs) / 4,
      ),
    },
    // A hop count trusts that many proxies nearest to us (as proxy-addr reads a number).
    trustProxy:
      typeof options.trustProxy === 'number'
        ? trustNearestHops(options.trustProxy)
        : options.trustProxy,
    ...earlyErrorOptions(context.now),
  });
  installHostPolicy(app, options.hosts);
  // Callback style: an async hook cost every answer a promise and its ticks.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // Nothing we serve is meant to be framed; the docs page sets a policy of its own after this.
    reply.header('X-Frame-Options', 'DENY');
    if (!reply.hasHeader('Content-Security-Policy')) {
      reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    }
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });
  const beforeRequest = options.beforeRequest;
  if (beforeRequest) {
    // Callback style: a route that catches up itself (the plant list) passes without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config.catchesUpItself || OPS_PATHS.has(pathOf(request.url))) {
        done();
        return;
      }
      beforeRequest().then(() => done(), done);
    });
  }
  installRequestLog(app);
  if (options.metrics) installRequestMetrics(app, options.metrics);
  installJsonBodyParser(app, options.bodyLimitBytes);
  installErrorHandling(app, options.bodyLimitBytes, context.now, options.extensions);
  await installApiDocs(app, { interactive: options.docs, extensions: options.extensions });
  registerRoutes(
    app,
    context,
    routes,
    allHandlers(context),
    options.extensions,
    options.beforeRequest,
  );
  installOpsRoutes(app, context.db, options.metrics);
  await app.ready();
  return app;
}
