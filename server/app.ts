import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { routes } from '../api/index.ts';
import type { ServerContext } from './context.ts';
import { allHandlers } from './features/index.ts';
import { installApiDocs } from './http/docs.ts';
import { earlyErrorOptions, installErrorHandling } from './http/errorHandling.ts';
import { installJsonBodyParser } from './http/jsonBody.ts';
import { installRequestLog } from './http/requestLog.ts';
import { registerRoutes } from './http/routing.ts';

export interface AppOptions {
  logger: FastifyServerOptions['logger'];
  bodyLimitBytes: number;
  trustProxy: boolean | number | string;
}

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
    // A hop count trusts that many proxies nearest to us (as proxy-addr reads a number).
    trustProxy:
      typeof options.trustProxy === 'number'
        ? trustNearestHops(options.trustProxy)
        : options.trustProxy,
    ...earlyErrorOptions(context.now),
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
  installRequestLog(app);
  installJsonBodyParser(app, options.bodyLimitBytes);
  installErrorHandling(app, options.bodyLimitBytes, context.now);
  await installApiDocs(app);
  registerRoutes(app, context, routes, allHandlers(context));
  await app.ready();
  return app;
}
