import { startServer, type RunningServer, type StartServerOptions } from '../../server/index.ts';
import { DEMO_ACCOUNTS } from '../../server/demo/accounts.ts';
import {
  createTestDatabase,
  testEngine,
  testServerKeys,
  type TestEngine,
} from './testDatabases.ts';

export { DEMO_ACCOUNTS };
export type DemoAccountEmail = (typeof DEMO_ACCOUNTS)[number]['email'];
export type DemoRole = 'admin' | 'installer' | 'manager' | 'outsider' | 'operator';

/** A cheap scrypt cost: tests log in hundreds of times; the timing test uses the real one. */
export const TEST_SCRYPT_COST = { N: 1024, r: 8, p: 1 };

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, without JSON encoding (for malformed-body tests). */
  rawBody?: string;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  headers?: Record<string, string>;
}

/**
 * A real server over loopback (port 0, in-memory database) and a small HTTP client for it.
 * With PLANTDESK_TEST_ENGINE=postgres (`npm run test:postgres`), a server that would have had an
 * in-memory database gets a fresh PostgreSQL database instead, dropped when it closes.
 */
export class TestServer {
  readonly server: RunningServer;
  readonly #tokens = new Map<string, string>();
  readonly #afterClose: () => Promise<void>;

  private constructor(server: RunningServer, afterClose: () => Promise<void>) {
    this.server = server;
    this.#afterClose = afterClose;
  }

  /** `engine`: the run's (PLANTDESK_TEST_ENGINE) unless a test compares both engines. */
  static async start(
    options: StartServerOptions = {},
    engine: TestEngine = testEngine(),
  ): Promise<TestServer> {
    const inMemory = (options.db ?? ':memory:') === ':memory:';
    if (inMemory && engine === 'postgres') {
      const database = await createTestDatabase();
      try {
        const server = await TestServer.#startServer({
          ...testServerKeys(),
          ...options,
          db: database.url,
        });
        return new TestServer(server, database.drop);
      } catch (error) {
        await database.drop();
        throw error;
      }
    }
    return new TestServer(await TestServer.#startServer(options), async () => {});
  }

  static #startServer(options: StartServerOptions): Promise<RunningServer> {
    return startServer({
      port: 0,
      db: ':memory:',
      demo: true,
      // Demo Home only: tests that want the fleet ask for it.
      demoFleet: 0,
      // PLANTDESK_TEST_SERVER_LOG=error shows what a 500 hid.
      logger: process.env.PLANTDESK_TEST_SERVER_LOG
        ? { level: process.env.PLANTDESK_TEST_SERVER_LOG, stream: process.stderr }
        : false,
      scryptCost: TEST_SCRYPT_COST,
      // Tests that want simulated readings ask for them; the rest stay fast and deterministic.
      simulation: false,
      ...options,
    });
  }

  get url(): string {
    return this.server.url;
  }

  async close(): Promise<void> {
    try {
      await this.server.close();
    } finally {
      await this.#afterClose();
    }
  }

  async request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(path, this.url);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value])
        url.searchParams.append(key, String(item));
    }
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if (text && (response.headers.get('content-type') ?? '').includes('json'))
      parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  async login(email: string, password: string): Promise<ApiResponse> {
    return this.request('POST', '/auth/login', { body: { email, password } });
  }

  /** An access token of a demo account, cached per server. */
  async tokenFor(role: DemoRole): Promise<string> {
    const account = DEMO_ACCOUNTS.find((candidate) => candidate.email.startsWith(`${role}@`))!;
    const cached = this.#tokens.get(role);
    if (cached) return cached;
    const response = await this.login(account.email, account.password);
    if (response.status !== 200) throw new Error(`login as ${role} failed: ${response.status}`);
    this.#tokens.set(role, response.body.accessToken);
    return response.body.accessToken as string;
  }

  /** The uuid of the seeded Demo Home plant. */
  async demoPlantUuid(): Promise<string> {
    const token = await this.tokenFor('admin');
    const response = await this.request('GET', '/plants', {
      token,
      query: { search: 'Demo Home' },
    });
    return response.body.content[0].plantUuid as string;
  }

  /** Code → uuid of a catalog listing (sensor types, device types, ...). */
  async catalog(path: string, idField: string): Promise<Record<string, string>> {
    const token = await this.tokenFor('admin');
    const response = await this.request('GET', path, { token, query: { size: 200 } });
    return Object.fromEntries(
      (response.body.content as Record<string, string>[]).map((entry) => [
        entry.code,
        entry[idField],
      ]),
    );
  }
}

/** Asserts the specification's error body and returns it. */
export function expectErrorBody(
  response: ApiResponse,
  status: number,
  path?: string,
): { timestamp: string; status: number; error: string; message: string; path: string } {
  const body = response.body;
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(body)}`);
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof body.timestamp !== 'string' ||
    Number.isNaN(Date.parse(body.timestamp)) ||
    body.status !== status ||
    typeof body.error !== 'string' ||
    typeof body.message !== 'string' ||
    typeof body.path !== 'string'
  ) {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  if (path !== undefined && body.path !== path) {
    throw new Error(`error path ${body.path}, expected ${path}`);
  }
  return body;
}

export const MISSING_UUID = '7f0c2a52-9d1e-4f7a-8a59-3b8b6c1d2e4f';

export function newPlantBody(overrides: Record<string, unknown> = {}) {
  return {
    name: `Test plant ${Math.random().toString(36).slice(2, 8)}`,
    location: { latitude: 45.07, longitude: 7.69, timezone: 'Europe/Rome' },
    ...overrides,
  };
}
