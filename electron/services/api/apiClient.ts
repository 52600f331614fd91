import { routes, type RouteId } from '../../../api/routes.ts';
import type { HttpMethod, RouteSpec } from '../../../api/route.ts';
import type { RouteInput, RouteResult } from '../../../api/routeInput.ts';
import type { Translate } from '../../../i18n/translator.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { mayReceiveCredential } from '../../ipc/addresses.ts';
import { sayIn } from '../hostText.ts';
import { ApiError, describeZodIssues, type RequestLabel } from './apiError.ts';
import { buildRequest, displayBaseUrl, joinUrl, type LooseRouteInput } from './requestBuilder.ts';
import {
  createNodeTransport,
  readText,
  RedirectRefused,
  type FetchTransport,
  type TransportResponse,
} from './transport.ts';

export interface Credentials {
  /**
   * The bearer token for a route's auth kind ('access' | 'refresh') to send to `targetUrl`;
   * undefined when signed out, or when the token belongs to another server than the target's.
   */
  token(auth: 'access' | 'refresh', targetUrl: string): Promise<string | undefined>;
  /** After a 401 on an 'access' route sent with `rejected`: renew (refresh) and answer true to retry once. */
  renewAfter401(rejected: string): Promise<boolean>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Bounds the whole call, retries and their waits included. */
  timeoutMs?: number;
  /** Overrides credentials (and disables the renew-after-401 retry). */
  token?: string;
  /**
   * The server `token` was issued by (credentialOrigin): it is sent to no other. The address
   * is read at each call, so an edit between two calls must not carry a token to a new host.
   */
  tokenOrigin?: string;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` honoured; a longer one is shortened to this. Default 10 s. */
  maxRetryAfterMs?: number;
}

export interface ApiClientOptions {
  /** A function when the address can change between calls (the active environment). */
  baseUrl: string | (() => string);
  credentials?: Credentials;
  /** Default 30 s. */
  timeoutMs?: number;
  /** Default: 3 retries, 250 ms doubling up to 4 s, jittered. */
  retry?: RetryPolicy;
  /** Gets route, method, path (no query), status, ms and attempt; never tokens or bodies. */
  log?: Logger;
  /**
   * How requests travel (transport.ts): Electron's net.fetch in the desktop app; default Node's
   * fetch with the environment's proxy (browser mode).
   */
  fetch?: FetchTransport;
  /** The largest answer read; default 64 MiB. */
  maxResponseBytes?: number;
  /** The user's language when an error is made; default English. */
  t?: () => Translate;
}

export type RouteMethod<R extends RouteId> = (
  input: RouteInput<R>,
  options?: CallOptions,
) => Promise<RouteResult<R>>;

export type ApiClient = { [R in RouteId]: RouteMethod<R> } & {
  call<R extends RouteId>(
    route: R,
    input: RouteInput<R>,
    options?: CallOptions,
  ): Promise<RouteResult<R>>;
};

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRY: Required<RetryPolicy> = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
};
/** Far above any answer of this API; stops a broken server from filling the memory. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Safe to send twice: a retry cannot create a second plant. */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
/** What a gateway answers while the server restarts or is overloaded. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * The Plant Energy API client of the desktop host: one method per entry of the contract's route
 * table (generated from it), answers checked against the contract, errors as `ApiError`.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = options.fetch ?? createNodeTransport();
  const policy: Required<RetryPolicy> = { ...DEFAULT_RETRY, ...options.retry };
  const log = options.log ?? silentLogger;
  const resolveBaseUrl =
    typeof options.baseUrl === 'function' ? options.baseUrl : () => options.baseUrl as string;
  const say = sayIn(options.t);

  async function call(
    routeId: RouteId,
    input: LooseRouteInput | undefined,
    callOptions: CallOptions = {},
  ): Promise<unknown> {
    if (!Object.hasOwn(routes, routeId)) {
      throw ApiError.invalidArguments(`Unknown route '${String(routeId)}'`);
    }
    const route: RouteSpec = routes[routeId];
    const request = buildRequest(route, input);
    const label: RequestLabel = { method: request.method, path: request.path };
    const baseUrl = resolveBaseUrl();
    if (!baseUrl) {
      throw new ApiError('network', say('host.api.noAddress'));
    }
    const url = joinUrl(baseUrl, request.path + request.search);
    const deadline = new Deadline(
      say,
      callOptions.signal,
      callOptions.timeoutMs ?? options.timeoutMs,
    );
    try {
      deadline.throwIfOver(label);
      const sent = await bearerFor(route, callOptions, label, url);
      let response = await sendWithRetries(sent);
      const mayRenew =
        response.status === 401 &&
        route.auth === 'access' &&
        callOptions.token === undefined &&
        sent !== undefined &&
        options.credentials !== undefined;
      if (mayRenew) {
        if (!(await options.credentials!.renewAfter401(sent))) {
          // The session could not be renewed: the server's "Invalid access token" is jargon to
          // the user, who is being asked to sign in again and then to retry.
          throw new ApiError('signedOut', say('host.api.sessionEnded'), {
            status: 401,
            path: label.path,
          });
        }
        deadline.throwIfOver(label);
        const renewed = await options.credentials!.token('access', url);
        if (renewed === undefined) {
          throw new ApiError('signedOut', say('host.api.signInToCall', { ...label }));
        }
        response = await sendWithRetries(renewed);
      }
      return interpret(route, response, label, say, displayBaseUrl(baseUrl));
    } finally {
      deadline.dispose();
    }

    async function sendWithRetries(token: string | undefined): Promise<Answer> {
      // A refresh is a GET, but it spends its token: if only the answer was lost, a retry would
      // present a spent token and the server would revoke the whole session family.
      const retryable = IDEMPOTENT.has(request.method) && route.auth !== 'refresh';
      for (let attempt = 0; ; attempt += 1) {
        const started = performance.now();
        const logged = { route: routeId, ...label, attempt: attempt + 1 };
        let response: Answer;
        try {
          response = await send(url, request.method, request.body, token, deadline.signal);
        } catch (error) {
          const ms = Math.round(performance.now() - started);
          if (deadline.signal.aborted) {
            const over = deadline.error(label);
            // A cancellation was asked for (a page left, the app quitting): traffic, not a problem.
            const level = over.kind === 'cancelled' ? 'info' : 'warn';
            log[level](`${label.method} ${label.path} ${over.kind}`, { ...logged, ms });
            throw over;
          }
          const failure = ApiError.fromTransportError(error, displayBaseUrl(baseUrl), label, say);
          log.warn(`${label.method} ${label.path} failed`, {
            ...logged,
            ms,
            kind: failure.kind,
            code: (error as { code?: unknown }).code,
          });
          if (failure.kind !== 'network' || !retryable || attempt >= policy.attempts) throw failure;
          await deadline.sleep(backoffDelay(attempt, policy), label);
          continue;
        }
        const ms = Math.round(performance.now() - started);
        const { status } = response;
        const fields = { ...logged, status, ms };
        if (status >= 400) log.warn(`${label.method} ${label.path} ${status}`, fields);
        else log.info(`${label.method} ${label.path} ${status}`, fields);
        if (!RETRYABLE_STATUSES.has(status) || !retryable || attempt >= policy.attempts) {
          return response;
        }
        const asked = retryAfterMs(response.headers.get('retry-after') ?? undefined);
        const delay =
          asked === undefined
            ? backoffDelay(attempt, policy)
            : Math.min(asked, policy.maxRetryAfterMs);
        await deadline.sleep(delay, label);
      }
    }
  }

  async function bearerFor(
    route: RouteSpec,
    callOptions: CallOptions,
    label: RequestLabel,
    url: string,
  ): Promise<string | undefined> {
    if (route.auth === 'public') return undefined;
    if (callOptions.token !== undefined) {
      if (
        callOptions.tokenOrigin !== undefined &&
        !mayReceiveCredential(callOptions.tokenOrigin, url)
      ) {
        throw new ApiError('signedOut', say('host.api.addressChanged', { ...label }));
      }
      return callOptions.token;
    }
    if (!options.credentials) return undefined;
    const token = await options.credentials.token(route.auth, url);
    if (token === undefined) {
      throw new ApiError('signedOut', say('host.api.signInToCall', { ...label }));
    }
    return token;
  }

  async function send(
    url: string,
    method: HttpMethod,
    body: string | undefined,
    token: string | undefined,
    signal: AbortSignal,
  ): Promise<Answer> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    // An API does not redirect; following one would resend the bearer token elsewhere or turn
    // a POST into a GET. A 3xx becomes an error naming the new address.
    const response = await transport(url, {
      method,
      headers,
      ...(body !== undefined && { body }),
      signal,
      redirect: 'manual',
    });
    if (response.type === 'opaqueredirect') throw new RedirectRefused();
    // The whole body is read here, inside the deadline and the retries: an answer cut off
    // halfway is a network failure like any other. Text, so that an HTML 502 stays readable.
    const text = await readText(response, options.maxResponseBytes ?? MAX_RESPONSE_BYTES);
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text,
    };
  }

  const client: Record<string, unknown> = {
    call: (routeId: RouteId, input: LooseRouteInput | undefined, callOptions?: CallOptions) =>
      call(routeId, input, callOptions),
  };
  for (const routeId of Object.keys(routes) as RouteId[]) {
    client[routeId] = (input: LooseRouteInput | undefined, callOptions?: CallOptions) =>
      call(routeId, input, callOptions);
  }
  return client as ApiClient;
}

/** A response with its whole body read. */
interface Answer {
  status: number;
  statusText: string;
  headers: TransportResponse['headers'];
  text: string;
}

/** Checks a 2xx answer against the route: its status, then its body against the schema. */
function interpret(
  route: RouteSpec,
  response: Answer,
  label: RequestLabel,
  t: Translate,
  address: string,
) {
  const { status } = response;
  // The proxy's answer, not the server's: it wants credentials that were not given or refused.
  if (status === 407) throw ApiError.proxy(address, 'PROXY_AUTH', undefined, t);
  if (status < 200 || status >= 300) {
    throw ApiError.fromResponse(
      {
        status,
        statusText: response.statusText,
        data: response.text,
        headers: { location: response.headers.get('location') ?? undefined },
      },
      label,
      t,
    );
  }
  if (status !== route.status) {
    const detail = t('host.api.statusMismatch', { status, expected: route.status });
    throw ApiError.invalidResponse(label, detail, status, t);
  }
  if (status === 204 || route.response === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch {
    throw ApiError.invalidResponse(label, t('host.api.notJson'), status, t);
  }
  // Zod objects drop keys they do not know: a newer server's extra fields are tolerated.
  const parsed = route.response.safeParse(json);
  if (!parsed.success) {
    throw ApiError.invalidResponse(label, describeZodIssues(parsed.error, t), status, t);
  }
  return parsed.data;
}

/**
 * The wait before retry number `retry + 1`: exponential, capped, with "equal jitter" (half fixed,
 * half random) so that clients that failed together do not come back together.
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(value: unknown, now: number = Date.now()): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The caller's AbortSignal and the call's time limit as one signal, and which of them fired.
 */
class Deadline {
  readonly #controller = new AbortController();
  readonly #t: Translate;
  readonly #caller: AbortSignal | undefined;
  readonly #timeoutMs: number;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onCallerAbort = () => this.#controller.abort();
  #timedOut = false;

  constructor(
    t: Translate,
    caller: AbortSignal | undefined,
    timeoutMs: number = DEFAULT_TIMEOUT_MS,
  ) {
    this.#t = t;
    this.#caller = caller;
    this.#timeoutMs = timeoutMs;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort();
    }, timeoutMs);
    if (caller?.aborted) this.#controller.abort();
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Cancelled wins over timed out: the user asked for it. */
  error(label: RequestLabel): ApiError {
    if (this.#caller?.aborted || !this.#timedOut) return ApiError.cancelled(this.#t);
    return ApiError.timeout(label, this.#timeoutMs, this.#t);
  }

  throwIfOver(label: RequestLabel): void {
    if (this.signal.aborted) throw this.error(label);
  }

  /** A retry's wait, cut short by cancellation or the time limit. */
  sleep(ms: number, label: RequestLabel): Promise<void> {
    this.throwIfOver(label);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.error(label));
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}
