import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type {
  EnvironmentInput,
  EnvironmentList,
  SerializedError,
} from '../../../electron/ipc/contract.ts';
import {
  createEnvironmentStore,
  idFromName,
  LOCAL_ENVIRONMENT_ID,
  type EnvironmentStore,
  type EnvironmentStoreDeps,
} from '../../../electron/services/environments.ts';
import type { LogFields, Logger } from '../../../electron/services/logger.ts';
import { createTranslator } from '../../../i18n/translator.ts';

let dataDir: string;
let counter: number;
let events: EnvironmentList[];
let logged: { level: string; message: string; fields?: LogFields }[];

const recordingLogger: Logger = {
  info: (message, fields) => void logged.push({ level: 'info', message, fields }),
  warn: (message, fields) => void logged.push({ level: 'warn', message, fields }),
  error: (message, fields) => void logged.push({ level: 'error', message, fields }),
};

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'plantdesk-environments-'));
  counter = 0;
  events = [];
  logged = [];
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function open(overrides: Partial<EnvironmentStoreDeps> = {}): EnvironmentStore {
  return createEnvironmentStore({
    dataDir,
    emit: (event, payload) => {
      expect(event).toBe('environments.changed');
      events.push(payload as EnvironmentList);
    },
    log: recordingLogger,
    newId: () => `user-${++counter}`,
    ...overrides,
  });
}

const staging: EnvironmentInput = {
  name: 'Staging',
  kind: 'sandbox',
  baseUrl: 'https://staging.example',
};
const production: EnvironmentInput = {
  name: 'Production',
  kind: 'production',
  baseUrl: 'https://api.example',
};

async function writeDefaults(content: unknown): Promise<string> {
  const file = join(dataDir, 'admin-environments.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function serialized(action: () => unknown): SerializedError {
  try {
    action();
  } catch (error) {
    return (error as { toSerialized(): SerializedError }).toSerialized();
  }
  throw new Error('expected a refusal');
}

describe('a fresh store', () => {
  test('holds only the Local sandbox, active, with no address until it runs', () => {
    const store = open();
    expect(store.list()).toEqual({
      environments: [
        { id: 'local', name: 'Local sandbox', kind: 'local', baseUrl: '', source: 'builtin' },
      ],
      activeId: LOCAL_ENVIRONMENT_ID,
    });
    expect(store.active().id).toBe('local');
  });

  test('setLocalUrl fills in the Local sandbox address and announces it once', () => {
    const store = open();
    store.setLocalUrl('http://127.0.0.1:40123');
    store.setLocalUrl('http://127.0.0.1:40123');
    expect(store.get('local').baseUrl).toBe('http://127.0.0.1:40123');
    expect(events).toHaveLength(1);
    expect(events[0]!.environments[0]!.baseUrl).toBe('http://127.0.0.1:40123');
    store.setLocalUrl('');
    expect(store.get('local').baseUrl).toBe('');
  });

  test('get of an unknown id is a bridgeable invalidArguments error', () => {
    const store = open();
    expect(serialized(() => store.get('nope'))).toEqual({
      kind: 'invalidArguments',
      message: "No environment 'nope'",
    });
  });
});

describe('user environments', () => {
  test('add, update, select and remove, each announced with the new list', () => {
    const store = open();
    const added = store.add(staging);
    expect(added).toEqual({ id: 'user-1', ...staging, source: 'user' });
    store.add(production);
    expect(store.list().environments.map((environment) => environment.id)).toEqual([
      'local',
      'user-1',
      'user-2',
    ]);

    const updated = store.update('user-1', { ...staging, baseUrl: 'https://10.0.0.5:8443' });
    expect(updated.baseUrl).toBe('https://10.0.0.5:8443');

    expect(store.select('user-2').name).toBe('Production');
    expect(store.active().id).toBe('user-2');

    store.remove('user-1');
    expect(store.list().environments.map((environment) => environment.id)).toEqual([
      'local',
      'user-2',
    ]);
    expect(events).toHaveLength(5);
    expect(events.at(-1)).toEqual(store.list());
    expect(events[3]!.activeId).toBe('user-2');
  });

  test('selecting the already active environment changes nothing and says nothing', () => {
    const store = open();
    store.select('local');
    expect(events).toHaveLength(0);
  });

  test('removing the active environment selects the Local sandbox', () => {
    const store = open();
    store.add(staging);
    store.select('user-1');
    store.remove('user-1');
    expect(store.list().activeId).toBe('local');
    expect(events.at(-1)!.activeId).toBe('local');
  });

  test('survive a restart: entries and the active id are read back', () => {
    const first = open();
    first.add(staging);
    first.add(production);
    first.update('user-1', { ...staging, name: 'Staging EU' });
    first.select('user-2');

    const second = open();
    expect(second.list()).toEqual(first.list());
    expect(second.active().name).toBe('Production');
  });

  test('duplicate names are refused, whatever their case, including the Local sandbox', () => {
    const store = open();
    store.add(staging);
    expect(serialized(() => store.add({ ...production, name: '  staging ' }))).toEqual({
      kind: 'invalidArguments',
      message: "An environment named 'Staging' already exists; choose another name",
    });
    expect(serialized(() => store.add({ ...production, name: 'LOCAL SANDBOX' })).message).toMatch(
      /'Local sandbox' already exists/,
    );
    store.add(production);
    expect(serialized(() => store.update('user-2', { ...production, name: 'Staging' })).kind).toBe(
      'invalidArguments',
    );
    // Renaming an entry to its own name (or a new case of it) is no clash.
    expect(store.update('user-1', { ...staging, name: 'STAGING' }).name).toBe('STAGING');
    expect(store.list().environments).toHaveLength(3);
  });

  test('input that the contract refuses is refused here too, and nothing is saved', () => {
    const store = open();
    const bad = { ...staging, baseUrl: 'ftp://files.example' };
    expect(serialized(() => store.add(bad)).message).toMatch(/http or https/);
    expect(serialized(() => store.add({ ...staging, name: '   ' })).message).toMatch(/required/);
    expect(store.list().environments).toHaveLength(1);
    expect(events).toHaveLength(0);
  });

  test('the Local sandbox cannot be edited or removed', () => {
    const store = open();
    expect(serialized(() => store.update('local', staging))).toEqual({
      kind: 'invalidArguments',
      message: 'The Local sandbox is built in and cannot be edited',
    });
    expect(serialized(() => store.remove('local')).message).toMatch(/cannot be removed/);
  });

  test('refusals are made in the user’s language', () => {
    const german = open({ t: () => createTranslator('de') });
    german.add(staging);
    expect(serialized(() => german.add(staging)).message).toBe(
      'Es gibt bereits eine Umgebung namens „Staging“; wählen Sie einen anderen Namen',
    );
    expect(serialized(() => open({ t: () => createTranslator('it') }).remove('local'))).toEqual({
      kind: 'invalidArguments',
      message: "L'ambiente Sandbox locale è integrato e non può essere rimosso",
    });
    // The built-in's name is the app's, so it is said in the language too, as a clash.
    expect(serialized(() => german.add({ ...staging, name: 'local SANDBOX' })).message).toBe(
      'Es gibt bereits eine Umgebung namens „Lokale Sandbox“; wählen Sie einen anderen Namen',
    );
  });

  test('unknown ids are refused by update, remove and select', () => {
    const store = open();
    for (const action of [
      () => store.update('ghost', staging),
      () => store.remove('ghost'),
      () => store.select('ghost'),
    ]) {
      expect(serialized(action)).toEqual({
        kind: 'invalidArguments',
        message: "No environment 'ghost'",
      });
    }
  });
});

describe('the file in the data folder', () => {
  test('is private (0600) and no temporary files are left behind', async () => {
    const store = open();
    store.add(staging);
    store.update('user-1', production);
    const file = join(dataDir, 'environments.json');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dataDir)).toEqual(['environments.json']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      activeId: 'local',
      environments: [{ id: 'user-1', ...production }],
    });
  });

  test('a corrupt file is kept as .corrupt, logged, and the app starts from defaults', async () => {
    const file = join(dataDir, 'environments.json');
    await writeFile(file, '{"version": 1, "activeId": "x", "environments": [');
    const store = open();
    expect(store.list().environments.map((environment) => environment.id)).toEqual(['local']);
    expect(await readFile(`${file}.corrupt`, 'utf8')).toMatch(/^\{"version": 1/);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'error', message: expect.stringMatching(/damaged/) }),
    );
    // The next change writes a sound file again.
    store.add(staging);
    expect(open().list().environments).toHaveLength(2);
  });

  test('a file of the wrong shape counts as corrupt', async () => {
    const file = join(dataDir, 'environments.json');
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        activeId: 'local',
        environments: [{ id: 'a', name: 'A', kind: 'sandbox', baseUrl: 'not a url' }],
        editedDefaults: {},
        removedDefaults: [],
      }),
    );
    expect(open().list().environments).toHaveLength(1);
    expect((await readdir(dataDir)).sort()).toEqual(['environments.json.corrupt']);
  });

  test('an unreadable file (a folder in its place) does not crash the app', async () => {
    await mkdir(join(dataDir, 'environments.json'));
    const store = open();
    expect(store.active().id).toBe('local');
    expect(logged.some((entry) => entry.level === 'error')).toBe(true);
  });

  test('a failed write changes nothing, leaves no temporary file and answers an internal error', async () => {
    const store = open();
    // A folder where the file should go makes the final rename fail.
    await mkdir(join(dataDir, 'environments.json'));
    const error = serialized(() => store.add(staging));
    expect(error.kind).toBe('internal');
    expect(error.message).toMatch(/^Could not save the environments: E/);
    expect(store.list().environments).toHaveLength(1);
    expect(events).toHaveLength(0);
    expect(await readdir(dataDir)).toEqual(['environments.json']);
  });

  test('an active id that no longer exists falls back to the Local sandbox', async () => {
    await writeFile(
      join(dataDir, 'environments.json'),
      JSON.stringify({
        version: 1,
        activeId: 'gone',
        environments: [],
        editedDefaults: {},
        removedDefaults: [],
      }),
    );
    expect(open().list().activeId).toBe('local');
  });
});

describe('administrator defaults (environments.json next to the app)', () => {
  const shipped = {
    environments: [
      { id: 'prod', name: 'Production', kind: 'production', baseUrl: 'https://api.example' },
      { name: 'Training Center Nord', kind: 'sandbox', baseUrl: 'https://training.example' },
    ],
  };

  test('come after the Local sandbox and before user entries, ids derived from names', async () => {
    const store = open({ defaultsFile: await writeDefaults(shipped) });
    store.add(staging);
    expect(store.list().environments).toEqual([
      expect.objectContaining({ id: 'local', source: 'builtin' }),
      { ...shipped.environments[0], source: 'admin' },
      {
        id: 'training-center-nord',
        name: 'Training Center Nord',
        kind: 'sandbox',
        baseUrl: 'https://training.example',
        source: 'admin',
      },
      { id: 'user-1', ...staging, source: 'user' },
    ]);
  });

  test('invalid entries are logged and skipped; the valid ones stay', async () => {
    const defaultsFile = await writeDefaults({
      environments: [
        { name: 'Bad url', kind: 'sandbox', baseUrl: 'javascript:alert(1)' },
        { name: 'Sneaky local', kind: 'local', baseUrl: 'http://127.0.0.1:1' },
        { name: 'Good', kind: 'sandbox', baseUrl: 'https://good.example', note: 'extra keys ok' },
        { id: 'local', name: 'Clash', kind: 'sandbox', baseUrl: 'https://clash.example' },
        { name: 'good', kind: 'production', baseUrl: 'https://dup.example' },
        'not an object',
      ],
    });
    const store = open({ defaultsFile });
    expect(store.list().environments.map((environment) => environment.name)).toEqual([
      'Local sandbox',
      'Good',
    ]);
    expect(store.get('good')).not.toHaveProperty('note');
    expect(logged.filter((entry) => entry.level === 'warn')).toHaveLength(5);
  });

  test('a defaults file that is not JSON, or has no list, gives no defaults', async () => {
    for (const content of ['{ nope', { servers: [] }]) {
      logged = [];
      const store = open({ defaultsFile: await writeDefaults(content) });
      expect(store.list().environments).toHaveLength(1);
      expect(logged.map((entry) => entry.level)).toEqual(['error']);
    }
  });

  test('a missing defaults file is no error', () => {
    open({ defaultsFile: join(dataDir, 'nothing-here.json') });
    expect(logged).toEqual([]);
  });

  test("a user's edit of a default wins, and survives a restart", async () => {
    const defaultsFile = await writeDefaults(shipped);
    const store = open({ defaultsFile });
    const edited = store.update('prod', { ...production, baseUrl: 'https://eu.api.example' });
    expect(edited).toEqual({
      id: 'prod',
      name: 'Production',
      kind: 'production',
      baseUrl: 'https://eu.api.example',
      source: 'admin',
    });
    expect(open({ defaultsFile }).get('prod').baseUrl).toBe('https://eu.api.example');
  });

  test('a removed default stays removed after a restart; removing the active one selects local', async () => {
    const defaultsFile = await writeDefaults(shipped);
    const store = open({ defaultsFile });
    store.select('prod');
    store.remove('prod');
    expect(store.list().activeId).toBe('local');
    const reopened = open({ defaultsFile });
    expect(reopened.list().environments.map((environment) => environment.id)).toEqual([
      'local',
      'training-center-nord',
    ]);
    // And its name is free again.
    expect(reopened.add(production).source).toBe('user');
  });

  test('names of defaults count for duplicates', async () => {
    const store = open({ defaultsFile: await writeDefaults(shipped) });
    expect(serialized(() => store.add({ ...staging, name: 'production' })).message).toBe(
      "An environment named 'Production' already exists; choose another name",
    );
  });

  test('a user id never collides with a default id', async () => {
    const ids = ['prod', 'prod', 'fresh'];
    const store = open({
      defaultsFile: await writeDefaults(shipped),
      newId: () => ids.shift()!,
    });
    expect(store.add(staging).id).toBe('fresh');
  });
});

describe('idFromName', () => {
  test.each([
    ['Production EU', 'production-eu'],
    ['  Über Café (test) ', 'uber-cafe-test'],
    ['***', 'environment'],
    ['x'.repeat(80), 'x'.repeat(60)],
  ])('%s → %s', (name, id) => {
    expect(idFromName(name)).toBe(id);
  });
});
