import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler, resolveAppFile } from '../../../electron/main/appProtocol.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/services/contentSecurityPolicy.ts';

// A fake out/renderer with a secret next to it: nothing may ever serve the secret.
// Created at load time: the test table below names a path inside it.
const base = mkdtempSync(path.join(os.tmpdir(), 'plantdesk-protocol-'));
const rendererDir = path.join(base, 'renderer');
const SECRET = 'SECRET-OUTSIDE-THE-RENDERER';
const INDEX = '<!doctype html><title>PlantDesk</title>';

beforeAll(() => {
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), INDEX);
  writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(rendererDir, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(path.join(rendererDir, 'assets', 'logo file.svg'), '<svg/>');
  writeFileSync(path.join(base, 'secret.txt'), SECRET);
  mkdirSync(path.join(base, 'renderer-sibling'));
  writeFileSync(path.join(base, 'renderer-sibling', 'index.html'), SECRET);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function get(url: string, method = 'GET') {
  const response = await createAppProtocolHandler(rendererDir)(new Request(url, { method }));
  return { response, text: await response.text() };
}

describe('app:// protocol handler', () => {
  it('serves index.html for the root with the strict CSP', async () => {
    const { response, text } = await get('app://plantdesk/');
    expect(response.status).toBe(200);
    expect(text).toBe(INDEX);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['app://plantdesk/index.html', 'text/html; charset=utf-8'],
    ['app://plantdesk/assets/index-abc.js', 'text/javascript; charset=utf-8'],
    ['app://plantdesk/assets/index-abc.css', 'text/css; charset=utf-8'],
    ['app://plantdesk/assets/logo%20file.svg', 'image/svg+xml'],
  ])('serves %s as %s', async (url, type) => {
    const { response } = await get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it('answers a client-side route (no extension) with index.html', async () => {
    const { response, text } = await get('app://plantdesk/plants/42');
    expect(response.status).toBe(200);
    expect(text).toBe(INDEX);
  });

  it('answers 404 for a missing file with an extension', async () => {
    expect((await get('app://plantdesk/assets/missing.js')).response.status).toBe(404);
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://plantdesk/index.html', 'HEAD');
    expect(head.response.status).toBe(200);
    expect(head.text).toBe('');
    expect((await get('app://plantdesk/index.html', 'POST')).response.status).toBe(405);
  });

  it('refuses other hosts', async () => {
    expect((await get('app://evil/index.html')).response.status).toBe(404);
  });

  it.each([
    'app://plantdesk/../secret.txt',
    'app://plantdesk/%2e%2e/secret.txt',
    'app://plantdesk/..%2fsecret.txt',
    'app://plantdesk/..%2F..%2Fsecret.txt',
    'app://plantdesk/assets/..%2f..%2fsecret.txt',
    'app://plantdesk/%2e%2e%2fsecret.txt',
    'app://plantdesk/..%5csecret.txt',
    'app://plantdesk/%5c..%5csecret.txt',
    'app://plantdesk/..%2frenderer-sibling%2findex.html',
    `app://plantdesk/${encodeURIComponent(path.join(base, 'secret.txt'))}`,
    'app://plantdesk/index.html%00.js',
    'app://plantdesk/%E0%A4%A',
  ])('never serves a file outside the renderer folder: %s', async (url) => {
    const { response, text } = await get(url);
    expect(text).not.toContain(SECRET);
    expect([200, 404]).toContain(response.status);
    // Anything served is the app's own page (index.html when the path normalised inside).
    if (response.status === 200) expect(text).toBe(INDEX);
  });
});

describe('resolveAppFile', () => {
  it('maps paths under the root and nothing else', () => {
    expect(resolveAppFile(rendererDir, 'app://plantdesk/')).toBe(
      path.join(rendererDir, 'index.html'),
    );
    expect(resolveAppFile(rendererDir, 'app://plantdesk/assets/a.js')).toBe(
      path.join(rendererDir, 'assets', 'a.js'),
    );
    // URL parsing already folds a leading `..` (even %2e%2e) into the root...
    expect(resolveAppFile(rendererDir, 'app://plantdesk/%2e%2e/secret.txt')).toBe(
      path.join(rendererDir, 'secret.txt'),
    );
    // ...and an encoded slash, which URL parsing leaves alone, is caught after decoding.
    expect(resolveAppFile(rendererDir, 'app://plantdesk/..%2fsecret.txt')).toBeUndefined();
    expect(resolveAppFile(rendererDir, 'https://plantdesk/index.html')).toBeUndefined();
    expect(resolveAppFile(rendererDir, 'not a url')).toBeUndefined();
  });

  it('stays inside the root for any path', () => {
    const root = path.resolve(rendererDir);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom('..', '.', '%2e%2e', '%2E.', '..%2f', '%5c', '%2f', '/', '\\', 'a'),
            fc.string(),
          ),
          { maxLength: 8 },
        ),
        (segments) => {
          const file = resolveAppFile(rendererDir, `app://plantdesk/${segments.join('/')}`);
          if (file === undefined) return;
          expect(file.startsWith(root + path.sep)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
