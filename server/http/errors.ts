import { STATUS_CODES } from 'node:http';
import { reasonPhrases } from '../../api/statusPhrases.ts';
import type { ErrorBody, FieldError } from '../../api/index.ts';

/**
 * An error meant for the client: its status and message become the error body, and its field
 * errors (which request field each refusal is about) the body's `errors` extension.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly fieldErrors: readonly FieldError[];

  constructor(
    status: number,
    message: string,
    headers: Record<string, string> = {},
    fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = headers;
    this.fieldErrors = fieldErrors;
  }
}

export const badRequest = (message: string, fieldErrors: readonly FieldError[] = []) =>
  new ApiError(400, message, {}, fieldErrors);
export const unauthorized = (message = 'Authentication required') =>
  new ApiError(401, message, { 'WWW-Authenticate': 'Bearer' });
/** An access token whose sign-in (refresh-token family) was signed out or found reused. */
export const revokedSession = () =>
  unauthorized('Access token revoked: its session was signed out');
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
/** A request that is well formed but refused; `field` names the request field at fault. */
export const unprocessable = (message: string, field?: string) =>
  new ApiError(422, message, {}, field === undefined ? [] : [{ field, message }]);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, message, { 'Retry-After': String(retryAfterSeconds) });

export function reasonPhrase(status: number): string {
  return reasonPhrases[status] ?? STATUS_CODES[status] ?? 'Error';
}

/**
 * The specification's error body; `path` carries no query string; `at` is the server's clock.
 * Field errors, when there are any, go in `errors` (our extension, as Spring's validation errors).
 */
export function errorBody(
  status: number,
  message: string,
  url: string,
  at: Date,
  fieldErrors: readonly FieldError[] = [],
): ErrorBody {
  return {
    timestamp: at.toISOString(),
    status,
    error: reasonPhrase(status),
    message,
    path: pathOf(url),
    ...(fieldErrors.length > 0 && { errors: [...fieldErrors] }),
  };
}

export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}
