import type { FastifyInstance } from 'fastify';
import { pathOf } from './errors.ts';

/**
 * One structured line per request: method, path, status, duration. The query string is left out
 * (it is not needed to follow a request and keeps search terms out of the logs), and headers are
 * never logged, so neither tokens nor passwords can reach a log line.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: pathOf(request.url),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });
}
