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

/** Pino's logs can say whether a level is written; Fastify's without a logger cannot. */
type LevelledLog = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

export function installRequestLog(app: FastifyInstance): void {
  // Without a logger (`logger: false`) Fastify's log has no levels and writes nothing: no hook.
  if (typeof (app.log as LevelledLog).isLevelEnabled !== 'function') return;
  // Callback style: an async hook cost every answer a promise and its ticks.
  app.addHook('onResponse', (request, reply, done) => {
    if ((request.log as LevelledLog).isLevelEnabled?.('info') !== false) {
      logRequest(request.log, {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        durationMs: reply.elapsedTime,
      });
    }
    done();
  });
}
