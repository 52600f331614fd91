import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Environment } from '../../../electron/ipc/contract.ts';
import { createMemoryStore } from '../../../electron/services/secrets.ts';
import {
  startPlantDesk,
  type AddressChange,
  type PlantDesk,
} from '../../../electron/services/plantDesk.ts';
import { idleSandbox } from '../../support/idleSandbox.ts';
import { TestServer } from '../../support/testServer.ts';

/**
 * The environment handlers as both hosts run them: who may move a production environment to
 * another server, what removing one does, which addresses may be opened or probed, and what an
 * administrator's locked defaults allow.
 */

let server: TestServer;
const running: PlantDesk[] = [];
const folders: string[] = [];

beforeAll(async () => {
  server = await TestServer.start();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((plantDesk) => plantDesk.dispose()));
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});
afterAll(async () => {
  await server?.close();
});

async function services(
  options: {
    confirmAddressChange?: (change: AddressChange) => Promise<boolean>;
    defaults?: unknown;
    /** The user's environments.json in the data folder. */
    stored?: unknown;
  } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plantdesk-envsec-'));
  folders.push(dataDir);
  let defaultsFile: string | undefined;
  if (options.defaults !== undefined) {
    defaultsFile = path.join(dataDir, 'admin-environments.json');
    fs.writeFileSync(defaultsFile, JSON.stringify(options.defaults));
  }
  if (options.stored !== undefined) {
    fs.writeFileSync(path.join(dataDir, 'environments.json'), JSON.stringify(options.stored));
  }
  const opened: string[] = [];
  const plantDesk = await startPlantDesk({
    host: 'electron',
    version: 'test',
    dataDir,
    defaultsFile,
    spawnServer: idleSandbox,
    secrets: { store: { ...createMemoryStore(), available: true }, status: { available: true } },
    log: { info() {}, warn() {}, error() {} },
    openExternal: async (url) => void opened.push(url),
    confirmAddressChange: options.confirmAddressChange,
  });
  running.push(plantDesk);
  return { handlers: plantDesk.handlers, opened };
}

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: { toSerialized?: () => { kind: string; message: string } }) => caught,
  );
  expect(error?.toSerialized, 'expected a refusal').toBeDefined();
  return error!.toSerialized!();
}

const production = (baseUrl: string) => ({
  name: 'Production',
  kind: 'production' as const,
  baseUrl,
});

describe('a production address change', () => {
  test('asks the user through the host, and changes nothing when declined', async () => {
    const asked: AddressChange[] = [];
    let answer = false;
    const { handlers } = await services({
      confirmAddressChange: async (change) => {
        asked.push(change);
        return answer;
      },
    });
    const created = await handlers['environments.add'](production(server.url));
    const declined = await refusal(
      handlers['environments.update'](created.id, production('https://moved.example')),
    );
    expect(declined).toEqual({
      kind: 'cancelled',
      message: 'The address of Production was not changed',
    });
    expect(asked).toEqual([{ name: 'Production', from: server.url, to: 'https://moved.example' }]);
    expect((await handlers['environments.list']()).environments.at(-1)?.baseUrl).toBe(server.url);

    // A rename without a new server asks nothing; a confirmed move goes through.
    await handlers['environments.update'](created.id, { ...production(server.url), name: 'Prod' });
    expect(asked).toHaveLength(1);
    answer = true;
    const moved = await handlers['environments.update'](created.id, {
      ...production('https://moved.example/api'),
      name: 'Prod',
    });
    expect(moved.baseUrl).toBe('https://moved.example/api');
  });

  test('is refused where no native dialog can ask (browser mode), in the user’s language', async () => {
    const { handlers } = await services();
    const created = await handlers['environments.add'](production(server.url));
    const move = () =>
      refusal(handlers['environments.update'](created.id, production('https://moved.example')));
    expect(await move()).toEqual({
      kind: 'forbidden',
      message:
        'The address of Production, a production environment, can be changed only in the desktop app',
    });
    // The host's refusals are made in the user's language of the moment.
    await handlers['app.setLanguage']('de');
    expect((await move()).message).toBe(
      'Die Adresse von Production, einer Produktivumgebung, lässt sich nur in der Desktop-App ändern',
    );
  });
});

describe('addresses', () => {
  test('https is required unless the server is on this machine', async () => {
    const { handlers } = await services();
    const plain = await refusal(
      handlers['environments.add']({
        name: 'Plain',
        kind: 'sandbox',
        baseUrl: 'http://api.example',
      }),
    );
    expect(plain.message).toContain('https');
    const local = await handlers['environments.add']({
      name: 'Dev',
      kind: 'sandbox',
      baseUrl: 'http://localhost:8080',
    });
    expect(local.baseUrl).toBe('http://localhost:8080');
  });

  test('openExternal opens our documentation and the administrator’s servers, never what the renderer adds', async () => {
    const { handlers, opened } = await services({
      defaults: {
        environments: [
          { name: 'Company', kind: 'production', baseUrl: 'https://api.company.example' },
        ],
      },
    });
    await handlers['environments.add']({
      name: 'Phish',
      kind: 'sandbox',
      baseUrl: 'https://evil.example',
    });
    const refused = await refusal(handlers['shell.openExternal']('https://evil.example/login'));
    expect(refused.kind).toBe('forbidden');
    await handlers['shell.openExternal']('https://api.company.example/status');
    await handlers['shell.openExternal']('https://plantdesk.example/docs');
    expect(opened).toEqual([
      'https://api.company.example/status',
      'https://plantdesk.example/docs',
    ]);
  });

  test('testConnection reads nothing but the status of the address it is given', async () => {
    const requests: string[] = [];
    const probe = http.createServer((request, response) => {
      requests.push(request.url ?? '');
      // A body that would leak if it were read and shown.
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"secret":"intranet data"}');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
    try {
      const { handlers } = await services();
      const result = await handlers['environments.testConnection'](url);
      expect(JSON.stringify(result)).not.toContain('intranet');
      expect(requests).toEqual(['/auth/me']);
      expect((await handlers['environments.testConnection'](`${url}/?q=1`)).ok).toBe(false);
      expect(requests).toEqual(['/auth/me']);
    } finally {
      await new Promise((resolve) => probe.close(resolve));
    }
  });
});

describe("an administrator's locked defaults", () => {
  test('cannot be edited or removed, and ignore edits made before the lock', async () => {
    const { handlers } = await services({
      defaults: {
        locked: true,
        environments: [
          {
            id: 'company',
            name: 'Company',
            kind: 'production',
            baseUrl: 'https://api.company.example',
          },
        ],
      },
      // Pointed elsewhere by the user (or by something acting for them) before the lock.
      stored: {
        version: 1,
        activeId: 'company',
        environments: [],
        editedDefaults: {
          company: { name: 'Company', kind: 'production', baseUrl: 'https://evil.example' },
        },
        removedDefaults: [],
      },
    });
    const company = (await handlers['environments.list']()).environments.find(
      (environment: Environment) => environment.id === 'company',
    );
    expect(company).toMatchObject({
      source: 'admin',
      locked: true,
      baseUrl: 'https://api.company.example',
    });
    const edit = await refusal(
      handlers['environments.update']('company', {
        name: 'Company',
        kind: 'production',
        baseUrl: 'https://api.company.example',
      }),
    );
    expect(edit).toEqual({
      kind: 'forbidden',
      message: 'Company is set up and locked by your administrator; it cannot be edited',
    });
    expect((await refusal(handlers['environments.remove']('company'))).kind).toBe('forbidden');
  });
});
