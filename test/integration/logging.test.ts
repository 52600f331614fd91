import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ACCOUNTS, newPlantBody, TestServer } from '../support/testServer.ts';

/** Log lines as a pino logger writes them, kept in memory. */
class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer | string, _encoding: string, done: () => void): void {
    this.lines.push(
      ...String(chunk)
        .split('\n')
        .filter((line) => line.trim() !== ''),
    );
    done();
  }

  get entries(): Record<string, any>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, any>);
  }

  requestEntries(): Record<string, any>[] {
    return this.entries.filter((entry) => entry.msg === 'request');
  }
}

const ADMIN = DEMO_ACCOUNTS[0];
const capture = new LogCapture();
let server: TestServer;

interface Sent {
  method: string;
  path: string;
  status: number;
}
const sent: Sent[] = [];
const secrets: string[] = [ADMIN.password];

async function send(
  method: string,
  url: string,
  options: Parameters<TestServer['request']>[2] = {},
) {
  const response = await server.request(method, url, options);
  sent.push({ method, path: url.split('?')[0]!, status: response.status });
  return response;
}

/** The request line is written when the response has gone out: wait until all are there. */
async function settledRequestEntries(expected: number): Promise<Record<string, any>[]> {
  const deadline = Date.now() + 2000;
  while (capture.requestEntries().length < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  return capture.requestEntries();
}

beforeAll(async () => {
  server = await TestServer.start({ logger: { level: 'info', stream: capture } });
  const login = await send('POST', '/auth/login', {
    body: { email: ADMIN.email, password: ADMIN.password },
  });
  const { accessToken, refreshToken } = login.body;
  secrets.push(accessToken, refreshToken);
  await send('POST', '/auth/login', {
    body: { email: ADMIN.email, password: 'a-wrong-secret-pw' },
  });
  secrets.push('a-wrong-secret-pw');
  await send('GET', '/auth/me', { token: accessToken });
  await send('GET', '/plants', { token: accessToken, query: { search: 'needle-in-query' } });
  await send('POST', '/plants', {
    token: accessToken,
    body: newPlantBody({ name: 'Logged plant' }),
  });
  await send('GET', '/nowhere');
  await send('DELETE', '/plants');
  await send('GET', '/plants', { token: `${accessToken}tampered` });
  await send('POST', '/plants', {
    token: accessToken,
    rawBody: '{"name": "broken',
    headers: { 'content-type': 'application/json' },
  });
  // Refused before routing (undecodable URL, overlong parameter, oversized headers): logged too.
  await send('GET', '/plants/%E0%A4%A', { token: accessToken });
  await send('GET', `/plants/${'a'.repeat(300)}`, { token: accessToken });
  await send('GET', '/plants?x=1', { headers: { authorization: `Bearer ${'b'.repeat(40_000)}` } });
  const rotated = await send('GET', '/auth/token', { token: refreshToken });
  secrets.push(rotated.body.accessToken, rotated.body.refreshToken);
  await send('POST', '/auth/logout', { token: rotated.body.refreshToken });
});

afterAll(async () => {
  await server?.close();
});

describe('request log', () => {
  test('exactly one line per request, with method, path, status and duration', async () => {
    const entries = await settledRequestEntries(sent.length);
    expect(entries).toHaveLength(sent.length);
    for (const [index, expected] of sent.entries()) {
      const entry = entries[index]!;
      expect(entry, `request ${index}`).toMatchObject({
        level: 30,
        method: expected.method,
        path: expected.path,
        status: expected.status,
      });
      expect(typeof entry.durationMs).toBe('number');
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    }
    // The statuses cover success and failure paths alike.
    expect(new Set(sent.map((request) => request.status))).toEqual(
      new Set([200, 201, 204, 400, 401, 404, 405, 431]),
    );
  });

  test('no line carries a password, a token or the query string', async () => {
    await settledRequestEntries(sent.length);
    expect(capture.lines.length).toBeGreaterThan(0);
    for (const line of capture.lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      expect(line).not.toContain('needle-in-query');
      expect(line.toLowerCase()).not.toContain('authorization');
    }
    // Nor a piece of a token: the JWT header part is the same for every token.
    const jwtHeader = secrets[1]!.split('.')[0]!;
    for (const line of capture.lines) expect(line).not.toContain(jwtHeader);
  });

  test('every line is JSON', () => {
    for (const line of capture.lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
