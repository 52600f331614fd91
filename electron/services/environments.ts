import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  EnvironmentInput,
  type Environment,
  type EnvironmentList,
  type SerializedError,
} from '../ipc/contract.ts';
import type { BridgeableError } from '../ipc/dispatch.ts';
import {
  readJsonFile,
  setAsideCorruptFile,
  writeJsonFileAtomic,
  type JsonFileRead,
} from './dataFolder.ts';
import type { Translate } from '../../i18n/translator.ts';
import type { Emit } from './eventBus.ts';
import { sayIn } from './hostText.ts';
import { silentLogger, type Logger } from './logger.ts';

export const LOCAL_ENVIRONMENT_ID = 'local';
export const LOCAL_ENVIRONMENT_NAME = 'Local sandbox';
export const ENVIRONMENTS_FILE_NAME = 'environments.json';

/** A refusal the renderer shows as is (unknown id, duplicate name, built-in entry). */
export class EnvironmentError extends Error implements BridgeableError {
  readonly kind: SerializedError['kind'];

  constructor(kind: SerializedError['kind'], message: string) {
    super(message);
    this.name = 'EnvironmentError';
    this.kind = kind;
  }

  toSerialized(): SerializedError {
    return { kind: this.kind, message: this.message };
  }
}

export interface EnvironmentStoreDeps {
  /** The app's data folder; the store keeps `environments.json` there. */
  dataDir: string;
  /** An administrator's `environments.json` next to the app, if any. */
  defaultsFile?: string;
  emit: Emit;
  log?: Logger;
  /** Ids of user entries; default random UUIDs. */
  newId?: () => string;
  /** The user's language when a refusal is made; default English. */
  t?: () => Translate;
}

export interface EnvironmentStore {
  /** The built-in Local sandbox first, then the administrator's defaults, then the user's. */
  list(): EnvironmentList;
  get(id: string): Environment;
  active(): Environment;
  add(input: EnvironmentInput): Environment;
  update(id: string, input: EnvironmentInput): Environment;
  /** Removing the active environment selects the Local sandbox. */
  remove(id: string): void;
  select(id: string): Environment;
  /** The running Local sandbox's address, or '' while it is not running. */
  setLocalUrl(url: string): void;
  /** The administrator's entries as shipped (the user's edits aside). */
  administratorDefaults(): readonly AdminEntry[];
}

// ── Files ───────────────────────────────────────────────────────────────────────────────────

const EnvironmentIdText = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, { error: 'id must be letters, digits, . _ -' });

/**
 * Lenient about extra keys (an administrator may annotate entries), strict about the rest.
 * `locked` keeps the user from editing or removing the entry; a file-level `locked` locks all.
 */
const AdminDefault = z.object({
  ...EnvironmentInput.shape,
  id: EnvironmentIdText.optional(),
  locked: z.boolean().optional(),
});
const AdminDefaultsFile = z.object({
  locked: z.boolean().optional(),
  environments: z.array(z.unknown()),
});

export interface AdminEntry extends EnvironmentInput {
  id: string;
  locked: boolean;
}

const UserEntry = EnvironmentInput.extend({ id: EnvironmentIdText });
type UserEntry = z.infer<typeof UserEntry>;

/** What the data folder's environments.json holds: only what differs from the defaults. */
const StoredState = z.strictObject({
  version: z.literal(1),
  activeId: z.string(),
  environments: z.array(UserEntry),
  /** The user's edits of administrator defaults, by id: their edit wins. */
  editedDefaults: z.record(z.string(), EnvironmentInput),
  /** Administrator defaults the user removed; remembered so they do not come back. */
  removedDefaults: z.array(z.string()),
});
type StoredState = z.infer<typeof StoredState>;

function emptyState(): StoredState {
  return {
    version: 1,
    activeId: LOCAL_ENVIRONMENT_ID,
    environments: [],
    editedDefaults: {},
    removedDefaults: [],
  };
}

/** "Production EU" → "production-eu": a stable id for an administrator entry without one. */
export function idFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'environment';
}

function nameKey(name: string): string {
  return name.trim().toLocaleLowerCase();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads the administrator's defaults. Anything wrong in one entry skips that entry (logged), so
 * that one typo does not hide the others; a file that is not JSON at all gives no defaults.
 */
function loadAdminDefaults(file: string | undefined, log: Logger): AdminEntry[] {
  if (!file) return [];
  const read = readJsonFile(file);
  if (read.status === 'missing') return [];
  if (read.status === 'unreadable') {
    log.error('Administrator environments file is unreadable; ignoring it', {
      file,
      error: describe(read.error),
    });
    return [];
  }
  const outer = AdminDefaultsFile.safeParse(read.value);
  if (!outer.success) {
    log.error('Administrator environments file has no "environments" list; ignoring it', {
      file,
    });
    return [];
  }
  const defaults: AdminEntry[] = [];
  const ids = new Set([LOCAL_ENVIRONMENT_ID]);
  const names = new Set([nameKey(LOCAL_ENVIRONMENT_NAME)]);
  outer.data.environments.forEach((candidate, index) => {
    const parsed = AdminDefault.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log.warn('Skipping an invalid administrator environment', {
        file,
        index,
        problem: `${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}`,
      });
      return;
    }
    const { locked, id, ...input } = parsed.data;
    const entry: AdminEntry = {
      ...input,
      id: id ?? idFromName(input.name),
      locked: (outer.data.locked ?? false) || (locked ?? false),
    };
    if (ids.has(entry.id) || names.has(nameKey(entry.name))) {
      log.warn('Skipping an administrator environment whose id or name is already used', {
        file,
        index,
        id: entry.id,
        name: entry.name,
      });
      return;
    }
    ids.add(entry.id);
    names.add(nameKey(entry.name));
    defaults.push(entry);
  });
  return defaults;
}

function loadStoredState(file: string, log: Logger): StoredState {
  const read: JsonFileRead = readJsonFile(file);
  if (read.status === 'missing') return emptyState();
  let problem: string;
  if (read.status === 'ok') {
    const parsed = StoredState.safeParse(read.value);
    if (parsed.success) return parsed.data;
    problem = parsed.error.issues[0]?.message ?? 'does not match the expected shape';
  } else {
    problem = describe(read.error);
  }
  // Starting from defaults beats refusing to start; the copy keeps the user's entries findable.
  const copy = setAsideCorruptFile(file);
  log.error('Environments file is damaged; starting from the defaults', {
    file,
    problem,
    keptAs: copy ?? '(could not keep a copy)',
  });
  return emptyState();
}

// ── The store ───────────────────────────────────────────────────────────────────────────────

/**
 * The environments the app can connect to, persisted in the data folder. Reads its files once,
 * synchronously, at creation (they are tiny and the app cannot show anything before them);
 * every change is written atomically before it takes effect, then announced.
 */
export function createEnvironmentStore(deps: EnvironmentStoreDeps): EnvironmentStore {
  const log = deps.log ?? silentLogger;
  const newId = deps.newId ?? randomUUID;
  const say = sayIn(deps.t);
  const file = join(deps.dataDir, ENVIRONMENTS_FILE_NAME);
  const defaults = loadAdminDefaults(deps.defaultsFile, log);
  const defaultIds = new Set(defaults.map((entry) => entry.id));
  // What the user changed of a locked entry (before it was locked) no longer counts.
  const editableIds = new Set(defaults.filter((entry) => !entry.locked).map((entry) => entry.id));
  let localUrl = '';

  let state = loadStoredState(file, log);
  // Forget what no longer matches the shipped defaults, and keep user ids clear of theirs.
  state = {
    ...state,
    environments: state.environments.filter(
      (entry) => entry.id !== LOCAL_ENVIRONMENT_ID && !defaultIds.has(entry.id),
    ),
    removedDefaults: state.removedDefaults.filter((id) => editableIds.has(id)),
    editedDefaults: Object.fromEntries(
      Object.entries(state.editedDefaults).filter(([id]) => editableIds.has(id)),
    ),
  };

  function localEnvironment(): Environment {
    return {
      id: LOCAL_ENVIRONMENT_ID,
      name: LOCAL_ENVIRONMENT_NAME,
      kind: 'local',
      baseUrl: localUrl,
      source: 'builtin',
    };
  }

  function environments(): Environment[] {
    const removed = new Set(state.removedDefaults);
    const admin = defaults
      .filter((entry) => !removed.has(entry.id))
      .map((entry): Environment => {
        const { id, locked, ...shipped } = entry;
        const edited = state.editedDefaults[id];
        return { id, ...(edited ?? shipped), source: 'admin', ...(locked && { locked }) };
      });
    const user = state.environments.map((entry): Environment => ({ ...entry, source: 'user' }));
    return [localEnvironment(), ...admin, ...user];
  }

  function find(id: string): Environment | undefined {
    return environments().find((environment) => environment.id === id);
  }

  function list(): EnvironmentList {
    const all = environments();
    const activeId = all.some((environment) => environment.id === state.activeId)
      ? state.activeId
      : LOCAL_ENVIRONMENT_ID;
    return { environments: all, activeId };
  }

  function get(id: string): Environment {
    const environment = find(id);
    if (!environment) throw new EnvironmentError('invalidArguments', `No environment '${id}'`);
    return environment;
  }

  function checkInput(input: EnvironmentInput, exceptId?: string): EnvironmentInput {
    // The router validated already; checking again keeps the file valid whoever calls.
    const parsed = EnvironmentInput.safeParse(input);
    if (!parsed.success) {
      throw new EnvironmentError(
        'invalidArguments',
        parsed.error.issues[0]?.message ?? 'Invalid environment',
      );
    }
    const key = nameKey(parsed.data.name);
    const clash = environments().find(
      (environment) => environment.id !== exceptId && nameKey(environment.name) === key,
    );
    if (clash) {
      throw new EnvironmentError(
        'invalidArguments',
        say('host.environments.nameTaken', {
          name: clash.id === LOCAL_ENVIRONMENT_ID ? say('environments.builtInName') : clash.name,
        }),
      );
    }
    return parsed.data;
  }

  function refuseBuiltin(id: string, action: 'edited' | 'removed'): void {
    if (id === LOCAL_ENVIRONMENT_ID) {
      throw new EnvironmentError(
        'invalidArguments',
        say(`host.environments.builtIn.${action}`, { name: say('environments.builtInName') }),
      );
    }
    const environment = find(id);
    if (environment?.locked) {
      throw new EnvironmentError(
        'forbidden',
        say(`host.environments.locked.${action}`, { name: environment.name }),
      );
    }
  }

  function announce(): void {
    deps.emit('environments.changed', list());
  }

  /** Writes first: if the disk refuses, nothing changed and the caller hears why. */
  function commit(next: StoredState): void {
    try {
      mkdirSync(deps.dataDir, { recursive: true, mode: 0o700 });
      writeJsonFileAtomic(file, next);
    } catch (error) {
      log.error('Could not save the environments', { file, error: describe(error) });
      throw new EnvironmentError(
        'internal',
        say('host.environments.notSaved', {
          reason: (error as NodeJS.ErrnoException).code ?? describe(error),
        }),
      );
    }
    state = next;
    announce();
  }

  function unusedId(): string {
    for (;;) {
      const id = newId();
      if (!find(id)) return id;
    }
  }

  return {
    list,
    get,
    active: () => get(list().activeId),

    add(input) {
      const checked = checkInput(input);
      const entry: UserEntry = { id: unusedId(), ...checked };
      commit({ ...state, environments: [...state.environments, entry] });
      return get(entry.id);
    },

    update(id, input) {
      refuseBuiltin(id, 'edited');
      const existing = get(id);
      const checked = checkInput(input, id);
      if (existing.source === 'admin') {
        commit({ ...state, editedDefaults: { ...state.editedDefaults, [id]: checked } });
      } else {
        commit({
          ...state,
          environments: state.environments.map((entry) =>
            entry.id === id ? { id, ...checked } : entry,
          ),
        });
      }
      return get(id);
    },

    remove(id) {
      refuseBuiltin(id, 'removed');
      const existing = get(id);
      const activeId = list().activeId === id ? LOCAL_ENVIRONMENT_ID : state.activeId;
      if (existing.source === 'admin') {
        const { [id]: _dropped, ...editedDefaults } = state.editedDefaults;
        commit({
          ...state,
          activeId,
          editedDefaults,
          removedDefaults: [...state.removedDefaults, id],
        });
      } else {
        commit({
          ...state,
          activeId,
          environments: state.environments.filter((entry) => entry.id !== id),
        });
      }
    },

    select(id) {
      const environment = get(id);
      if (state.activeId !== id) commit({ ...state, activeId: id });
      return environment;
    },

    administratorDefaults: () => defaults,

    setLocalUrl(url) {
      if (url === localUrl) return;
      localUrl = url;
      announce();
    },
  };
}
