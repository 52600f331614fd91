import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { servedRoutes, type FieldError } from '../../api/index.ts';
import { ApiError, errorBody, pathOf, reasonPhrase } from './errors.ts';
import { drainRequestBody } from './drainBody.ts';
import { logRequest } from './requestLog.ts';

/**
 * Every 4xx and 5xx leaves with the specification's error body: our own errors, Fastify's
 * (unparseable body, body too large, bad URL encoding), unknown routes and wrong methods.
 */
export function installErrorHandling(
  app: FastifyInstance,
  bodyLimitBytes: number,
  now: () => Date,
  /** Whether our extension routes are served: a left-out one is unknown, 404. */
  extensions = true,
): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') await drainRequestBody(request.raw);
    if (error instanceof ApiError) {
      return sendError(
        reply,
        request,
        now,
        error.status,
        error.message,
        error.headers,
        error.fieldErrors,
      );
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // Fastify's 415 for a Content-Type it cannot parse: bodies are read as JSON whatever
      // their declared type, so only the header itself is at fault, a malformed request.
      return sendError(reply, request, now, 400, 'Malformed Content-Type header');
    }
    if (isStackOverflow(error)) {
      // JSON nested deeper than the parser, the schemas or the serializer can follow.
      return sendError(reply, request, now, 400, 'Request body is nested too deeply');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, request, now, status, clientErrorMessage(error, bodyLimitBytes));
    }
    request.log.error({ err: error, path: pathOf(request.url) }, 'unhandled error');
    return sendError(reply, request, now, 500, 'Internal server error');
  });

  const patterns = servedRoutes(extensions).map(([, route]) => ({
    method: route.method,
    pattern: pathPattern(route.path),
  }));

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const matching = patterns.filter((route) => route.pattern.test(path));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (matching.some((route) => route.method === method)) {
      // The router refused a parameter it would otherwise match (too long, say).
      return sendError(reply, request, now, 400, `Malformed path parameter in ${path}`);
    }
    if (matching.length > 0) {
      const allowed = [...new Set(matching.map((route) => route.method))].join(', ');
      return sendError(
        reply,
        request,
        now,
        405,
        `Method ${request.method} is not allowed on ${path}; allowed: ${allowed}`,
        {
          Allow: allowed,
        },
      );
    }
    return sendError(reply, request, now, 404, `No route for ${request.method} ${path}`);
  });
}

function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  now: () => Date,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  fieldErrors: readonly FieldError[] = [],
): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send(errorBody(status, message, request.url, now(), fieldErrors));
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
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

/**
 * Fastify answers some errors before any route, hook or error handler runs: a URL that does not
 * decode and a path parameter longer than the router accepts (`frameworkErrors`), and requests
 * Node's HTTP parser refuses, such as headers over the size limit (`clientErrorHandler`). These
 * constructor options give them the error body too.
 */
export function earlyErrorOptions(
  now: () => Date,
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors: (error, request, reply) => {
      const path = pathOf(request.url);
      // No route means no onResponse hook: the request line is written here.
      const started = performance.now();
      reply.raw.once('finish', () =>
        logRequest(request.log, {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          durationMs: performance.now() - started,
        }),
      );
      switch (error.code) {
        case 'FST_ERR_BAD_URL':
          return sendError(reply, request, now, 400, `Malformed URL: ${path}`);
        case 'FST_ERR_MAX_PARAM_LENGTH':
          // A path parameter too long to be an identifier, as malformed as any other.
          return sendError(reply, request, now, 400, `Malformed path parameter in ${path}`);
        default:
          request.log.error({ err: error, path }, 'framework error');
          return sendError(reply, request, now, 500, 'Internal server error');
      }
    },
    clientErrorHandler: function (this: FastifyInstance, error, socket) {
      answerClientError(this, error, socket, now());
    },
  };
}

type ClientError = Parameters<NonNullable<FastifyServerOptions['clientErrorHandler']>>[0];

/**
 * Node's `clientError`: no request object exists, so the answer is written to the socket (and
 * logged like any request).
 */
function answerClientError(
  app: FastifyInstance,
  error: ClientError,
  socket: Socket,
  at: Date,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers exceed the size limit']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed HTTP request'];
  const { method, target } = requestLine(error.rawPacket);
  logRequest(app.log, { method, url: target, status, durationMs: 0 });
  if (socket.writable) {
    const body = JSON.stringify(errorBody(status, message, target, at));
    socket.write(
      `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/** Method and target of the request line of a refused request, as far as it arrived. */
function requestLine(rawPacket: unknown): { method: string; target: string } {
  // Typed loosely by Fastify; Node hands over the bytes received so far as a Buffer.
  const text = Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 2048).toString('latin1') : '';
  const match = /^([A-Z]+) (\/[^\s]*)/.exec(text);
  return { method: match?.[1] ?? 'UNKNOWN', target: match?.[2] ?? '/' };
}
