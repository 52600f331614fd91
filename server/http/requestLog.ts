import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pathOf } from './errors.ts';

export interface RequestLogLine {
  method: string;
  /** The request URL; only its path is logged. */
  url: string;
  status: number;
  durationMs: number;
}

/**
 * One structured line per request: method, path, status, duration. The query string is left out
 * (it is not needed to follow a request and keeps search terms out of the logs), and headers are
 * never logged, so neither tokens nor passwords can reach a log line.
 */
export function logRequest(log: FastifyBaseLogger, line: RequestLogLine): void {
  log.info(
    {
      method: line.method,
      path: pathOf(line.url),
      status: line.status,
      durationMs: Math.round(line.durationMs * 100) / 100,
    },
    'request',
  );
}

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    logRequest(request.log, {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    });
  });
}
