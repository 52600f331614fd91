import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routes, type RouteSpec } from '../../api/index.ts';
import { ApiError, errorBody, pathOf } from './errors.ts';

/**
 * Every 4xx and 5xx leaves with the specification's error body: our own errors, Fastify's
 * (unparseable body, body too large, bad URL encoding), unknown routes and wrong methods.
 */
export function installErrorHandling(app: FastifyInstance, bodyLimitBytes: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return sendError(reply, request, error.status, error.message, error.headers);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, request, status, clientErrorMessage(error, bodyLimitBytes));
    }
    request.log.error({ err: error, path: pathOf(request.url) }, 'unhandled error');
    return sendError(reply, request, 500, 'Internal server error');
  });

  const patterns = Object.values(routes as Record<string, RouteSpec>).map((route) => ({
    method: route.method,
    pattern: pathPattern(route.path),
  }));

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const matching = patterns.filter((route) => route.pattern.test(path));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (matching.some((route) => route.method === method)) {
      // The router refused a parameter it would otherwise match (too long, say).
      return sendError(reply, request, 400, `Malformed path parameter in ${path}`);
    }
    if (matching.length > 0) {
      const allowed = [...new Set(matching.map((route) => route.method))].join(', ');
      return sendError(
        reply,
        request,
        405,
        `Method ${request.method} is not allowed on ${path}; allowed: ${allowed}`,
        {
          Allow: allowed,
        },
      );
    }
    return sendError(reply, request, 404, `No route for ${request.method} ${path}`);
  });
}

function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send(errorBody(status, message, request.url));
}

function clientErrorMessage(error: FastifyError, bodyLimitBytes: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `Request body exceeds the limit of ${bodyLimitBytes} bytes`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Request body length does not match its Content-Length';
    case 'FST_ERR_BAD_URL':
      return 'Malformed URL';
    default:
      return error.message;
  }
}

/** `/plants/{plantUuid}` → a regex matching one non-empty segment per parameter. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`);
}
