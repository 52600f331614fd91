import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { checkReadiness } from './readiness.ts';
import type { ServerMetrics } from './serverMetrics.ts';

/**
 * Operational routes for probes and scrapers, outside the Plant Energy API: not in its route
 * table nor in `/openapi.json`, no token needed. `/metrics` only when metrics are on.
 */
export function installOpsRoutes(app: FastifyInstance, db: Db, metrics?: ServerMetrics): void {
  const hidden = { schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ status: 'ok' }));
  app.get('/readyz', hidden, async (_request, reply) => {
    const readiness = await checkReadiness(db);
    return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
  });
  if (metrics) {
    app.get('/metrics', hidden, async (_request, reply) =>
      reply.type(metrics.contentType).send(await metrics.text()),
    );
  }
}

/** `/plants/:plantUuid` → `/plants/{plantUuid}`, the spelling of the route table. */
export function routeTemplate(fastifyUrl: string | undefined): string {
  if (fastifyUrl === undefined) return 'unmatched';
  return fastifyUrl.replace(/:(\w+)/g, '{$1}');
}

/** Counts and times every answer by its route template (an unknown path is `unmatched`). */
export function installRequestMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(
      request.method,
      routeTemplate(request.routeOptions.url),
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
}
