import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ChannelHandlers, Envelope, SerializedError } from '../ipc/contract.ts';
import { createDispatcher } from '../ipc/dispatch.ts';
import type { EventBus } from '../services/eventBus.ts';
import { silentLogger, type Logger } from '../services/logger.ts';
import { CONTENT_SECURITY_POLICY } from '../services/contentSecurityPolicy.ts';
import { acceptedLanguages } from '../../i18n/locales.ts';

/**
 * Browser mode: the PlantDesk services in a Node process, the built renderer served on loopback,
 * and the IPC contract carried over HTTP (`POST /rpc/<channel>`, server-sent events on `/events`).
 *
 * Loopback is not a boundary by itself: any web page the user visits can send requests to
 * 127.0.0.1, and a DNS-rebinding page can even make them same-origin under its own host name. So
 * every call needs a secret: the page's HttpOnly, SameSite=Strict session cookie, or (scripts)
 * the random key printed at start; a foreign Origin is refused, and so is any Host header other
 * than our own address.
 *
 * The page gets its cookie by opening `/?code=…` (a single-use code that expires in seconds:
 * the address handed to the system's browser opener, whose arguments every local user can read)
 * or `/?key=…` (the printed address, seen only in the user's terminal); either answers with the
 * cookie and a redirect to `/`, so no secret stays in the address bar or the history.
 */

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  // The key travels in the page's address: never send it on as a referrer.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export const KEY_HEADER = 'x-plantdesk-key';

export interface WebHostOptions {
  plantDesk: { handlers: ChannelHandlers; events: EventBus };
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** Tests pass one; otherwise a new random key at every start. */
  key?: string;
  log?: Logger;
  /** How often an idle event stream gets a comment line, so proxies and browsers keep it open. */
  heartbeatMs?: number;
  /** How long an opening code lasts; default 30 s. */
  openCodeTtlMs?: number;
  /** Tests move it. */
  now?: () => number;
  /**
   * The languages of the page's browser (its Accept-Language), at each accepted call: in browser
   * mode the browser is the user's system, so the host's own texts follow it as the page does.
   */
  onBrowserLanguages?(languages: string[]): void;
}

export interface WebHost {
  /** The page's address with its key: what the CLI prints and opens. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  port: number;
  key: string;
  /** A fresh address with a single-use code: what is handed to the browser opener. */
  openUrl(): string;
  /** The session cookie's name (per port: cookies are shared by every port of a host). */
  cookieName: string;
  close(): Promise<void>;
}

const DEFAULT_OPEN_CODE_TTL_MS = 30_000;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function forbidden(reply: FastifyReply, message: string): FastifyReply {
  const body: Envelope<never> = { ok: false, error: { kind: 'forbidden', message } };
  return reply.code(403).header('cache-control', 'no-store').send(body);
}

export async function createWebHost(options: WebHostOptions): Promise<WebHost> {
  const log = options.log ?? silentLogger;
  const key = options.key ?? randomBytes(32).toString('base64url');
  const keyDigest = digest(key);
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const dispatch = createDispatcher(options.plantDesk.handlers, (channel, error) =>
    log.error('web host: channel failed unexpectedly', {
      channel,
      error: error instanceof Error ? error.message : String(error),
    }),
  );

  // Comparing digests keeps the comparison constant-time whatever the length of the guess.
  const isKey = (candidate: unknown): boolean =>
    typeof candidate === 'string' && timingSafeEqual(digest(candidate), keyDigest);

  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();
  let cookieName = 'plantdesk';
  const now = options.now ?? Date.now;
  const openCodeTtlMs = options.openCodeTtlMs ?? DEFAULT_OPEN_CODE_TTL_MS;
  /** Digests of unused opening codes → when each expires. */
  const openCodes = new Map<string, number>();
  /** Digests of the cookies handed out. */
  const sessions = new Set<string>();

  function issueOpenCode(): string {
    const at = now();
    for (const [code, expires] of openCodes) if (expires <= at) openCodes.delete(code);
    const code = randomBytes(24).toString('base64url');
    openCodes.set(digest(code).toString('hex'), at + openCodeTtlMs);
    return code;
  }

  /** Spends a code: true once, within its time. */
  function spendOpenCode(code: string): boolean {
    const id = digest(code).toString('hex');
    const expires = openCodes.get(id);
    openCodes.delete(id);
    return expires !== undefined && now() < expires;
  }

  function sessionOf(request: FastifyRequest): string | undefined {
    for (const part of (request.headers.cookie ?? '').split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === cookieName) return value.join('=');
    }
    return undefined;
  }
  const hasSession = (request: FastifyRequest): boolean => {
    const cookie = sessionOf(request);
    return cookie !== undefined && sessions.has(digest(cookie).toString('hex'));
  };

  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });

  app.addHook('onRequest', async (request, reply) => {
    const host = request.headers.host;
    if (host === undefined || !allowedHosts.has(host.toLowerCase())) {
      log.warn('web host: refused a foreign Host', { host: host ?? null });
      return forbidden(reply, 'Foreign Host header');
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    return payload;
  });

  /** Origin and secret checks of the two routes that reach the services. */
  function refuse(request: FastifyRequest, presentedKey: unknown): string | null {
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) return 'Foreign Origin';
    if (!hasSession(request) && !isKey(presentedKey)) return 'Missing or wrong key';
    return null;
  }

  /** `/?code=…` or `/?key=…`: the cookie, then the page at a clean address. */
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const url = new URL(request.url, 'http://host');
    if (url.pathname !== '/') return;
    const code = url.searchParams.get('code');
    const presentedKey = url.searchParams.get('key');
    if (code === null && presentedKey === null) return;
    const granted = code !== null ? spendOpenCode(code) : isKey(presentedKey);
    if (!granted) {
      log.warn('web host: refused an opening address', { with: code !== null ? 'code' : 'key' });
      return reply
        .code(403)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(
          'This PlantDesk address has expired or was used already. Open the address `npm run web` printed, or start it again.',
        );
    }
    const session = randomBytes(32).toString('base64url');
    sessions.add(digest(session).toString('hex'));
    return reply
      .code(303)
      .header('set-cookie', `${cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`)
      .header('cache-control', 'no-store')
      .header('location', '/')
      .send();
  });

  app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const serialized: SerializedError =
      status < 500
        ? { kind: 'invalidArguments', message: error.message ?? 'Bad request' }
        : { kind: 'internal', message: 'The web host failed' };
    if (status >= 500) log.error('web host: request failed', { error: error.message });
    return reply.code(status).send({ ok: false, error: serialized } satisfies Envelope<never>);
  });

  app.post<{ Params: { channel: string } }>('/rpc/:channel', async (request, reply) => {
    const refusal = refuse(request, request.headers[KEY_HEADER]);
    if (refusal) {
      log.warn('web host: refused a call', { channel: request.params.channel, reason: refusal });
      return forbidden(reply, refusal);
    }
    const languages = acceptedLanguages(request.headers['accept-language']);
    if (languages.length > 0) options.onBrowserLanguages?.(languages);
    const envelope = await dispatch(request.params.channel, request.body);
    return reply.header('cache-control', 'no-store').send(envelope);
  });

  const streams = new Set<ServerResponse>();
  app.get<{ Querystring: { key?: string } }>('/events', async (request, reply) => {
    const refusal = refuse(request, request.query.key);
    if (refusal) {
      log.warn('web host: refused an event stream', { reason: refusal });
      return forbidden(reply, refusal);
    }
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    response.write('retry: 2000\n\n');
    const unsubscribe = options.plantDesk.events.onAny((event, payload) => {
      response.write(`data: ${JSON.stringify({ event, payload })}\n\n`);
    });
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), heartbeatMs);
    streams.add(response);
    response.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
    });
  });

  await app.register(fastifyStatic, {
    root: options.rendererDir,
    index: 'index.html',
    // The page must be fetched fresh: it names the current build's hashed assets.
    setHeaders: (reply, path) => {
      if (path.endsWith('.html')) reply.header('cache-control', 'no-store');
    },
  });

  // Event streams never end by themselves; close() ends them or the server would wait forever.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('web host: no port');
  const port = address.port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  cookieName = `plantdesk-${port}`;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?key=${key}`,
    origin,
    port,
    key,
    cookieName,
    openUrl: () => `${origin}/?code=${issueOpenCode()}`,
    close: () => app.close(),
  };
}
