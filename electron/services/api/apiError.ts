import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import { reasonPhrases } from '../../../api/statusPhrases.ts';
import { localeOf, type Translate } from '../../../i18n/translator.ts';
import { formatDuration } from '../../../i18n/format.ts';
import { zodIssueText } from '../../../i18n/zodIssueText.ts';
import type { FieldRefusal, SerializedError } from '../../ipc/contract.ts';
import { ENGLISH } from '../hostText.ts';
import { failureCode, failureDetail, PROXY_CODES, RedirectRefused } from './transport.ts';

export type ApiErrorKind = SerializedError['kind'];

/** Which request an error is about, for messages such as "GET /plants timed out after 30 s". */
export interface RequestLabel {
  method: string;
  /** The concrete path without query string (query values may be private). */
  path: string;
}

/** The answer of an HTTP exchange, independent of the transport's response type. */
export interface RawResponse {
  status: number;
  statusText?: string;
  /** The body as text (the client reads text so that no body is lost). */
  data: unknown;
  headers?: Record<string, unknown>;
}

export interface ApiErrorFields {
  status?: number;
  error?: string;
  path?: string;
  fieldErrors?: FieldRefusal[];
  cause?: unknown;
}

/**
 * Everything the API client throws. It carries the fields of the server's error body (`status`,
 * `error`, `message`, `path`) when there was one, and a `kind` saying what went wrong otherwise;
 * `toSerialized()` is how it crosses the IPC bridge unchanged.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly path: string | undefined;
  /** The fields the refusal is about, when the server's body lists them (`errors`). */
  readonly fieldErrors: FieldRefusal[] | undefined;

  constructor(kind: ApiErrorKind, message: string, fields: ApiErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.status = fields.status;
    this.error = fields.error;
    this.path = fields.path;
    this.fieldErrors = fields.fieldErrors;
  }

  toSerialized(): SerializedError {
    const serialized: SerializedError = { kind: this.kind, message: this.message };
    if (this.status !== undefined) serialized.status = this.status;
    if (this.error !== undefined) serialized.error = this.error;
    if (this.path !== undefined) serialized.path = this.path;
    if (this.fieldErrors !== undefined) serialized.fieldErrors = this.fieldErrors;
    return serialized;
  }

  /**
   * A non-2xx answer. The server's error body supplies status, error, message and path; an answer
   * that is not that shape (an HTML 502 from a proxy, say) falls back to the HTTP status.
   */
  static fromResponse(response: RawResponse, request: RequestLabel, t = ENGLISH): ApiError {
    const body = errorBodyOf(response.data);
    const phrase = reasonPhrase(response.status, response.statusText);
    if (body) {
      return new ApiError('api', body.message, {
        status: body.status ?? response.status,
        error: body.error ?? phrase,
        path: body.path ?? request.path,
        ...(body.fieldErrors && { fieldErrors: body.fieldErrors }),
      });
    }
    const location = headerValue(response.headers, 'location');
    const said = { ...request, status: response.status, phrase, location };
    const message =
      response.status >= 300 && response.status < 400
        ? t(location ? 'host.api.redirectTo' : 'host.api.redirect', said)
        : t('host.api.failed', said);
    return new ApiError('api', message, {
      status: response.status,
      error: phrase,
      path: request.path,
    });
  }

  /**
   * A transport's failure without a usable answer: cancelled, a refused redirect, an answer too
   * large, or the server could not be reached (the code is read from undici's and Chromium's
   * errors alike).
   */
  static fromTransportError(
    error: unknown,
    baseUrl: string,
    request: RequestLabel,
    t = ENGLISH,
  ): ApiError {
    if (isCanceled(error)) return ApiError.cancelled(t);
    if (error instanceof RedirectRefused) {
      return new ApiError('api', t('host.api.redirectRefused', { ...request }), {
        path: request.path,
        cause: error,
      });
    }
    const code = failureCode(error);
    if (code !== undefined && PROXY_CODES.has(code)) return ApiError.proxy(baseUrl, code, error, t);
    const detail =
      describeNetworkCode(code, t) ?? failureDetail(error) ?? t('host.api.unknownFailure');
    if (code === 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED') {
      return new ApiError('invalidResponse', t('host.api.unreadable', { detail }), {
        cause: error,
      });
    }
    return ApiError.network(baseUrl, detail, error, t);
  }

  static network(baseUrl: string, detail: string, cause?: unknown, t = ENGLISH): ApiError {
    return new ApiError('network', t('host.api.unreachable', { address: baseUrl, detail }), {
      cause,
    });
  }

  /**
   * The proxy between here and the server refused, or could not be reached: said as the proxy's
   * doing with what to check, so that nobody looks for a fault in the server.
   */
  static proxy(address: string, code: string, cause?: unknown, t = ENGLISH): ApiError {
    return new ApiError('proxy', proxyRefusal(address, code, t), { cause });
  }

  static timeout(request: RequestLabel, timeoutMs: number, t = ENGLISH): ApiError {
    return new ApiError(
      'timeout',
      t('host.api.timeout', {
        ...request,
        duration: formatDuration(localeOf(t), timeoutMs),
      }),
    );
  }

  static cancelled(t = ENGLISH): ApiError {
    return new ApiError('cancelled', t('host.api.cancelled'));
  }

  /** A 2xx answer that breaks the contract: wrong status, not JSON, or the wrong shape. */
  static invalidResponse(
    request: RequestLabel,
    detail: string,
    status?: number,
    t = ENGLISH,
  ): ApiError {
    return new ApiError('invalidResponse', t('host.api.notContract', { ...request, detail }), {
      status,
      path: request.path,
    });
  }

  static invalidArguments(message: string): ApiError {
    return new ApiError('invalidArguments', message);
  }
}

/** What a proxy's refusal (one of PROXY_CODES) means and what to check, in the words of `t`. */
export function proxyRefusal(address: string, code: string, t = ENGLISH): string {
  const known = PROXY_CODES.has(code) ? code : 'PROXY_REFUSED';
  return t(`host.api.proxy.${known}`, { address });
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * "content.0.name: Required" (the first three issues) in the language of `t`: the schemas speak
 * English, and i18n/zodIssueText.ts says what each issue code means, as the forms do.
 */
export function describeZodIssues(error: z.ZodError, t = ENGLISH): string {
  const shown = error.issues
    .slice(0, 3)
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
      return `${where}${zodIssueText(issue, t, localeOf(t))}`;
    })
    .join('; ');
  const more = error.issues.length - 3;
  return more > 0 ? t('host.api.moreIssues', { detail: shown, n: more }, more) : shown;
}

interface LooseErrorBody {
  message: string;
  status?: number;
  error?: string;
  path?: string;
  fieldErrors?: FieldRefusal[];
}

/** At most this many field errors are kept: a form has a few dozen fields at most. */
const MAX_FIELD_ERRORS = 50;

/** The body's `errors` (our server's extension), keeping only well-formed entries. */
function fieldErrorsOf(errors: unknown): FieldRefusal[] | undefined {
  if (!Array.isArray(errors)) return undefined;
  const kept: FieldRefusal[] = [];
  for (const entry of errors.slice(0, MAX_FIELD_ERRORS) as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { field, message } = entry as Record<string, unknown>;
    if (typeof field === 'string' && field !== '' && typeof message === 'string') {
      kept.push({ field, message });
    }
  }
  return kept.length > 0 ? kept : undefined;
}

/** The specification's error body, read leniently: only `message` is required to trust it. */
function errorBodyOf(data: unknown): LooseErrorBody | undefined {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const body = value as Record<string, unknown>;
  if (typeof body.message !== 'string' || body.message.trim() === '') return undefined;
  return {
    message: body.message,
    status: Number.isInteger(body.status) ? (body.status as number) : undefined,
    error: typeof body.error === 'string' ? body.error : undefined,
    path: typeof body.path === 'string' ? body.path : undefined,
    fieldErrors: fieldErrorsOf(body.errors),
  };
}

function reasonPhrase(status: number, statusText: string | undefined): string {
  return reasonPhrases[status] ?? STATUS_CODES[status] ?? (statusText || 'Error');
}

function headerValue(headers: Record<string, unknown> | undefined, name: string) {
  const value = headers?.[name];
  return typeof value === 'string' ? value : undefined;
}

function isCanceled(error: unknown): boolean {
  return (error as { name?: unknown } | undefined)?.name === 'AbortError';
}

/** Node's socket error codes a user can act on: their words are under host.api.network. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_FR_MAX_BODY_LENGTH_EXCEEDED',
  'UNSAFE_PORT',
]);

function describeNetworkCode(code: string | undefined, t: Translate): string | undefined {
  return code !== undefined && NETWORK_CODES.has(code) ? t(`host.api.network.${code}`) : undefined;
}
