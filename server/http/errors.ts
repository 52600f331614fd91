import { STATUS_CODES } from 'node:http';
import { reasonPhrases } from '../../api/statusPhrases.ts';
import type { ErrorBody } from '../../api/index.ts';

/** An error meant for the client: its status and message become the error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = 'Authentication required') =>
  new ApiError(401, message, { 'WWW-Authenticate': 'Bearer' });
/** An access token whose sign-in (refresh-token family) was signed out or found reused. */
export const revokedSession = () =>
  unauthorized('Access token revoked: its session was signed out');
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const unprocessable = (message: string) => new ApiError(422, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, message, { 'Retry-After': String(retryAfterSeconds) });

export function reasonPhrase(status: number): string {
  return reasonPhrases[status] ?? STATUS_CODES[status] ?? 'Error';
}

/** The specification's error body; `path` carries no query string; `at` is the server's clock. */
export function errorBody(status: number, message: string, url: string, at: Date): ErrorBody {
  return {
    timestamp: at.toISOString(),
    status,
    error: reasonPhrase(status),
    message,
    path: pathOf(url),
  };
}

export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}
