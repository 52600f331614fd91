import { isIP } from 'node:net';
import { Agent, EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { isLoopbackUrl } from '../../ipc/addresses.ts';

/**
 * How the API client reaches a server: a `fetch`-shaped function, so that each host brings its
 * own network stack. The desktop app passes Electron's `net.fetch` (Chromium's stack: system and
 * PAC proxies, proxy authentication, the OS trust store: see electron/main/netTransport.ts);
 * browser mode and tests use `createNodeTransport`. Retries, deadlines and errors stay the
 * client's: a transport sends one request and answers, or rejects.
 */

export interface TransportInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** Always 'manual': a redirect is never followed (a bearer token is bound to its origin). */
  redirect: 'manual';
}

/** The part of a fetch `Response` the client reads; both undici's and Electron's fit. */
export interface TransportResponse {
  status: number;
  statusText: string;
  /** 'opaqueredirect' when the stack hides a refused redirect's status (the fetch standard). */
  type?: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

export type FetchTransport = (url: string, init: TransportInit) => Promise<TransportResponse>;

/**
 * Thrown by a transport whose stack rejects a refused redirect instead of answering it (Electron's
 * net.fetch in 'manual' mode cancels the request): the client reports it as a redirect.
 */
export class RedirectRefused extends Error {
  constructor(cause?: unknown) {
    super('Redirect refused', { cause });
    this.name = 'RedirectRefused';
  }
}

export interface NodeTransportOptions {
  /**
   * For tests: the proxy agent's options (`proxyTunnel: true` sends plain http through CONNECT
   * too). The proxy itself comes from HTTP_PROXY / HTTPS_PROXY / NO_PROXY, read on creation.
   */
  proxy?: ConstructorParameters<typeof EnvHttpProxyAgent>[0];
}

/**
 * Node's fetch (undici) for browser mode: the proxy from HTTP_PROXY / HTTPS_PROXY / NO_PROXY, as
 * corporate networks configure command-line programs; loopback (the Local sandbox) always direct,
 * whatever those say. TLS trusts Node's roots plus NODE_EXTRA_CA_CERTS.
 */
export function createNodeTransport(options: NodeTransportOptions = {}): FetchTransport {
  let direct: Dispatcher | undefined;
  let proxied: Dispatcher | undefined;
  return async (url, init) => {
    if (isLoopbackUrl(url)) {
      direct ??= new Agent();
      return (await undiciFetch(url, { ...init, dispatcher: direct })) as TransportResponse;
    }
    proxied ??= new EnvHttpProxyAgent(options.proxy);
    try {
      return (await undiciFetch(url, { ...init, dispatcher: proxied })) as TransportResponse;
    } catch (error) {
      const proxy = environmentProxy(url, options.proxy);
      throw proxy && failedToReach(error, proxy) ? new ProxyUnreachable(error) : error;
    }
  };
}

/** Node's stack could not connect to the proxy itself (undici says it as a socket error). */
export class ProxyUnreachable extends Error {
  readonly code = 'PROXY_UNREACHABLE';
  constructor(cause: unknown) {
    super('The proxy could not be reached', { cause });
    this.name = 'ProxyUnreachable';
  }
}

/** The proxy EnvHttpProxyAgent takes for `url`'s scheme (its NO_PROXY aside). */
function environmentProxy(url: string, given: NodeTransportOptions['proxy']): URL | undefined {
  const env = process.env;
  const http = given?.httpProxy ?? env.http_proxy ?? env.HTTP_PROXY;
  const chosen = url.startsWith('https:')
    ? (given?.httpsProxy ?? env.https_proxy ?? env.HTTPS_PROXY ?? http)
    : http;
  try {
    return chosen ? new URL(chosen) : undefined;
  } catch {
    return undefined;
  }
}

const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * A request that goes through a proxy connects to the proxy only: a connection refused at its
 * port, or its name not found, is the proxy's failure, not the server's.
 */
function failedToReach(error: unknown, proxy: URL): boolean {
  const cause = (
    error as { cause?: { code?: unknown; hostname?: unknown; address?: unknown; port?: unknown } }
  )?.cause;
  if (!cause || typeof cause.code !== 'string' || !CONNECT_FAILURES.has(cause.code)) return false;
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  if (cause.hostname === host) return true;
  const port = Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80);
  return cause.port === port && (cause.address === host || isIP(host) === 0);
}

export class ResponseTooLarge extends Error {
  readonly code = 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED';
  constructor(limit: number) {
    super(`The answer is larger than ${limit} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

/** The body as UTF-8 text, refusing (and cancelling) it past `limit` bytes. */
export async function readText(response: TransportResponse, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new ResponseTooLarge(limit);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Chromium's net errors (net::ERR_…) under the Node error codes whose words users see. */
const CHROMIUM_CODES: Readonly<Record<string, string>> = {
  ERR_CONNECTION_REFUSED: 'ECONNREFUSED',
  ERR_CONNECTION_RESET: 'ECONNRESET',
  ERR_CONNECTION_CLOSED: 'EPIPE',
  ERR_EMPTY_RESPONSE: 'EPIPE',
  ERR_CONNECTION_ABORTED: 'ECONNABORTED',
  ERR_CONNECTION_TIMED_OUT: 'ETIMEDOUT',
  ERR_TIMED_OUT: 'ETIMEDOUT',
  ERR_NAME_NOT_RESOLVED: 'ENOTFOUND',
  ERR_NAME_RESOLUTION_FAILED: 'EAI_AGAIN',
  ERR_ADDRESS_UNREACHABLE: 'EHOSTUNREACH',
  ERR_NETWORK_CHANGED: 'ENETDOWN',
  ERR_INTERNET_DISCONNECTED: 'ENETDOWN',
  ERR_CERT_DATE_INVALID: 'CERT_HAS_EXPIRED',
  ERR_CERT_AUTHORITY_INVALID: 'SELF_SIGNED_CERT_IN_CHAIN',
  ERR_CERT_COMMON_NAME_INVALID: 'ERR_TLS_CERT_ALTNAME_INVALID',
  ERR_PROXY_CONNECTION_FAILED: 'PROXY_UNREACHABLE',
  // The proxy answered the CONNECT with something else than 200 (a 403 of its filter, say).
  ERR_TUNNEL_CONNECTION_FAILED: 'PROXY_REFUSED',
  ERR_PROXY_AUTH_UNSUPPORTED: 'PROXY_AUTH',
  ERR_PROXY_AUTH_REQUESTED: 'PROXY_AUTH',
  ERR_PROXY_AUTH_REQUESTED_WITH_NO_CONNECTION: 'PROXY_AUTH',
  ERR_UNEXPECTED_PROXY_AUTH: 'PROXY_AUTH',
  ERR_MANDATORY_PROXY_CONFIGURATION_FAILED: 'PROXY_PAC',
  ERR_UNSAFE_PORT: 'UNSAFE_PORT',
};

/**
 * The failures that are the proxy's, not the server's: a PlantDeskError of kind 'proxy', never
 * retried (asking again does not change a proxy's mind) and said with what to check.
 */
export const PROXY_CODES: ReadonlySet<string> = new Set([
  'PROXY_AUTH',
  'PROXY_REFUSED',
  'PROXY_UNREACHABLE',
  'PROXY_PAC',
]);

/** The code of ProxyAuthRefused (proxyAuth.ts): the user gave no credentials the proxy took. */
export const PROXY_AUTH_REFUSED = 'PLANTDESK_PROXY_AUTH_REFUSED';

/** undici's socket errors under the same codes. */
const UNDICI_CODES: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'ECONNRESET',
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
};

/**
 * The Node-style code (ECONNREFUSED…) of a transport's failure, wherever the stack put it: on
 * the error, on its `cause` (undici's "fetch failed"), or in a Chromium message (net::ERR_…).
 */
export function failureCode(error: unknown): string | undefined {
  for (const { code, message } of causes(error)) {
    // undici says a proxy's refusal of CONNECT in words only (its code is any aborted request's).
    const refusal = /\bProxy response \((\d{3})\)/.exec(message);
    if (refusal) return refusal[1] === '407' ? 'PROXY_AUTH' : 'PROXY_REFUSED';
    if (/\bProxy Authentication Required/.test(message)) return 'PROXY_AUTH';
    if (code === PROXY_AUTH_REFUSED) return 'PROXY_AUTH';
    // Fetch refuses the ports browsers block (6000, 6665…): axios did not, and a server may use one.
    if (message === 'bad port') return 'UNSAFE_PORT';
    if (code !== undefined) return UNDICI_CODES[code] ?? code;
    const chromium = /net::(ERR_[A-Z_]+)/.exec(message);
    if (chromium) return CHROMIUM_CODES[chromium[1]!] ?? chromium[1];
  }
  return undefined;
}

/** The most specific words of a failure: undici's "fetch failed" says less than its cause. */
export function failureDetail(error: unknown): string | undefined {
  const messages = causes(error)
    .map(({ message }) => message)
    .filter((message) => message !== '' && message !== 'fetch failed');
  return messages.at(-1);
}

function causes(error: unknown): { code?: string; message: string }[] {
  const found: { code?: string; message: string }[] = [];
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    found.push({
      ...(typeof code === 'string' && { code }),
      message: typeof message === 'string' ? message : '',
    });
    current = cause;
  }
  return found;
}
