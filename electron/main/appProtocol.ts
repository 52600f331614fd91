import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../services/contentSecurityPolicy.ts';
import { APP_HOST, APP_SCHEME } from './security.ts';

/**
 * Serves the built renderer (out/renderer) at app://plantdesk/ for `protocol.handle`. Plain
 * `Request` in, `Response` out, so it runs under tests without Electron. Electron's `fs` reads
 * inside app.asar transparently, so the same code serves the packaged app.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file under `rootDir` an app:// address names, or undefined when it names anything else:
 * another scheme or host, an undecodable path, a NUL byte, or a path that climbs out of the
 * root (`..`, `%2e%2e`, `..%2f`, backslashes on Windows).
 */
export function resolveAppFile(rootDir: string, address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host.toLowerCase() !== APP_HOST) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const relative = pathname.replace(/^[/\\]+/, '') || 'index.html';
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative);
  const fromRoot = path.relative(root, file);
  if (fromRoot === '' || fromRoot === '..' || fromRoot.startsWith(`..${path.sep}`)) {
    return undefined;
  }
  if (path.isAbsolute(fromRoot)) return undefined; // another drive on Windows
  return file;
}

function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};

function textResponse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

export type AppProtocolHandler = (request: Request) => Promise<Response>;

/**
 * Answers GET and HEAD for files under `rootDir` with the strict CSP. A path without an
 * extension that is not a file gets index.html, so that a reload on a client-side route works.
 */
export function createAppProtocolHandler(rootDir: string): AppProtocolHandler {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return textResponse(405, 'Method not allowed');
    }
    const requested = resolveAppFile(rootDir, request.url);
    if (requested === undefined) return textResponse(404, 'Not found');
    let file = requested;
    let body = await readIfFile(file);
    if (body === undefined && path.extname(file) === '') {
      file = path.join(path.resolve(rootDir), 'index.html');
      body = await readIfFile(file);
    }
    if (body === undefined) return textResponse(404, 'Not found');
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': contentTypeOf(file),
        'Cache-Control': 'no-cache',
      },
    });
  };
}
