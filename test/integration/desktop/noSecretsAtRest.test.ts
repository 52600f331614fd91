import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, SessionState } from '../../../electron/ipc/contract.ts';
import { createDispatcher } from '../../../electron/ipc/dispatch.ts';
import { spawnNodeServer } from '../../../electron/services/childProcessServer.ts';
import { createFileLog, type FileLog } from '../../../electron/services/fileLog.ts';
import type { ServerProcess, SpawnServer } from '../../../electron/services/localSandbox.ts';
import { startPlantDesk, type PlantDesk } from '../../../electron/services/plantDesk.ts';
import { createMemoryStore, openSecretStore } from '../../../electron/services/secrets.ts';
import { until } from '../../support/until.ts';

/**
 * After a whole session (sign-in remembered, API calls, sign-out, sign-in not remembered, a
 * wrong password), no file in the data folder or the log folder holds a password or any token
 * the server issued, and no answer or event the renderer got holds a token either. The Local
 * sandbox's own files (its SQLite database and WAL) are scanned too: the server keeps token ids
 * and password hashes, never the tokens or passwords themselves.
 */

const INSTALLER = { email: 'installer@plantdesk.test', password: 'installer-pass-1' };
const WRONG_PASSWORD = `wrong-${randomUUID()}`;

/**
 * Sits between the Local sandbox server and PlantDesk (the sandbox's announced address is
 * rewritten to the proxy's) and keeps every token that crosses: in token answers and in
 * Authorization headers. That is the list of strings that must not be found at rest.
 */
function recordingProxy() {
  const tokens = new Set<string>();
  const servers: http.Server[] = [];

  async function start(target: string): Promise<string> {
    const server = http.createServer((request, response) => {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (bearer) tokens.add(bearer);
      const upstream = http.request(
        new URL(request.url ?? '/', target),
        { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(chunks);
            if ((answer.headers['content-type'] ?? '').includes('json')) {
              try {
                const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
                for (const name of ['accessToken', 'refreshToken']) {
                  if (typeof parsed[name] === 'string') tokens.add(parsed[name]);
                }
              } catch {
                // Not a token answer.
              }
            }
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            response.end(body);
          });
        },
      );
      upstream.on('error', () => {
        response.writeHead(502);
        response.end();
      });
      request.pipe(upstream);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function wrap(spawn: SpawnServer): SpawnServer {
    return (args) => {
      const inner = spawn(args);
      const wrapped: ServerProcess = {
        pid: inner.pid,
        onOutput(listener) {
          inner.onOutput((line, stream) => {
            const announced = /PlantDesk API listening on (\S+)/.exec(line)?.[1];
            if (stream !== 'stdout' || !announced) return listener(line, stream);
            void start(announced).then((proxy) => listener(line.replace(announced, proxy), stream));
          });
        },
        onExit: (listener) => inner.onExit(listener),
        kill: () => inner.kill(),
        forceKill: () => inner.forceKill(),
      };
      return wrapped;
    };
  }

  async function close(): Promise<void> {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }

  return { tokens, wrap, close };
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.join(entry.parentPath, entry.name)] : []));
}

describe('no secret at rest after a session', () => {
  const withKeychain = process.env.PLANTDESK_SECRET_SERVICE === '1';
  const proxy = recordingProxy();
  const seenByRenderer: unknown[] = [];
  let root: string;
  let dataDir: string;
  let logDir: string;
  let log: FileLog;
  let plantDesk: PlantDesk;
  let dispatch: ReturnType<typeof createDispatcher>;

  async function call<T>(channel: string, ...args: unknown[]): Promise<Envelope<T>> {
    const envelope = (await dispatch(channel, args)) as Envelope<T>;
    seenByRenderer.push(envelope);
    return envelope;
  }
  async function value<T>(channel: string, ...args: unknown[]): Promise<T> {
    const envelope = await call<T>(channel, ...args);
    if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
    return envelope.value;
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-at-rest-'));
    dataDir = path.join(root, 'data');
    logDir = path.join(root, 'logs');
    log = createFileLog({ dir: logDir, fileName: 'test.log' });
    const secrets = withKeychain
      ? openSecretStore({ service: `PlantDesk-test-${randomUUID()}`, log })
      : // A keychain that keeps its entries in memory: `remember` takes the keychain path.
        {
          store: { ...createMemoryStore(), available: true },
          status: async () => ({ available: true }),
        };
    if (withKeychain) expect(await secrets.status()).toEqual({ available: true });
    plantDesk = await startPlantDesk({
      host: 'web',
      version: 'test',
      dataDir,
      logDir,
      spawnServer: proxy.wrap(spawnNodeServer()),
      // Request logs stay on: they are part of what lands in the log folder.
      localSandboxArgs: ['--no-simulation'],
      secrets,
      log,
      openExternal: async () => {},
    });
    plantDesk.events.onAny((event, payload) => seenByRenderer.push({ event, payload }));
    dispatch = createDispatcher(plantDesk.handlers);
    await until(async () => {
      const state = await value<{ status: string }>('localSandbox.state');
      if (state.status === 'failed') throw new Error('the Local sandbox failed');
      return state.status === 'running' ? state : undefined;
    }, 60_000);
  }, 90_000);

  afterAll(async () => {
    await plantDesk?.dispose();
    await log?.close();
    await proxy.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('runs a whole session, then finds no password or token in any file', async () => {
    const remembered = await value<SessionState>('session.signIn', {
      ...INSTALLER,
      remember: true,
    });
    expect(remembered.status).toBe('signedIn');
    expect(remembered.user?.email).toBe(INSTALLER.email);
    expect(remembered.rememberedEmail).toBe(INSTALLER.email);

    const plants = await value<{ content: { name: string }[] }>('api.call', 'listPlants', {
      query: { search: 'Demo' },
    });
    expect(plants.content.map((plant) => plant.name)).toContain('Demo Home');
    await value('session.refreshUser');
    expect((await value<SessionState>('session.signOut')).status).toBe('signedOut');

    const wrong = await call('session.signIn', {
      email: INSTALLER.email,
      password: WRONG_PASSWORD,
      remember: true,
    });
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'api', status: 401 } });

    const forgotten = await value<SessionState>('session.signIn', {
      ...INSTALLER,
      remember: false,
    });
    expect(forgotten.status).toBe('signedIn');
    expect(forgotten.rememberedEmail).toBeUndefined();
    await value('api.call', 'listPlants', { query: {} });

    // Stopping the sandbox closes its database, so the scan sees what stays on disk.
    await plantDesk.dispose();
    await log.close();

    // Two sign-ins, each with an access and a refresh token, plus rotations and Authorization
    // headers: at least four distinct tokens crossed the proxy.
    const tokens = [...proxy.tokens];
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const secrets = [INSTALLER.password, WRONG_PASSWORD, ...tokens];

    const files = [...filesUnder(dataDir), ...filesUnder(logDir)];
    expect(files.some((file) => file.endsWith('.db'))).toBe(true);
    expect(files.some((file) => file.endsWith('.log'))).toBe(true);
    // The session really happened in the log (so an empty log does not pass vacuously).
    const logText = filesUnder(logDir)
      .map((file) => fs.readFileSync(file, 'utf8'))
      .join('\n');
    expect(logText).toContain('signed in');
    expect(logText).toContain('/auth/login');

    for (const file of files) {
      // latin1 maps every byte to one character: binary files (SQLite) are searched as is.
      const content = fs.readFileSync(file).toString('latin1');
      for (const secret of secrets) {
        expect(content.includes(secret), `${path.relative(root, file)} holds a secret`).toBe(false);
        // A token's signature alone would be as bad as the token.
        const signature = secret.split('.').at(-1)!;
        if (signature.length >= 20) {
          expect(
            content.includes(signature),
            `${path.relative(root, file)} holds a signature`,
          ).toBe(false);
        }
      }
    }
  });

  it('never gave the renderer a token, in answers or events', () => {
    const seen = JSON.stringify(seenByRenderer);
    expect(seenByRenderer.length).toBeGreaterThan(5);
    for (const token of proxy.tokens) {
      expect(seen.includes(token), 'a token reached the renderer').toBe(false);
    }
    expect(seen).not.toContain(INSTALLER.password);
  });
});
