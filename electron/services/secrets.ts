import { randomUUID } from 'node:crypto';
import type * as KeyringModule from '@napi-rs/keyring';
import type { EntryOptions } from '@napi-rs/keyring';
import type { KeychainStatus } from '../ipc/contract.ts';
import { silentLogger, type Logger } from './logger.ts';

/**
 * Where the session keeps what must survive a restart (the refresh token and the remembered
 * e-mail). `available: false` means nothing survives: the store lives in memory only and the
 * user is asked for the password at each launch. Nothing here ever writes a secret to a file.
 */
export interface SecretStore {
  readonly available: boolean;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export const DEFAULT_KEYCHAIN_SERVICE = 'PlantDesk';

/** Names of the entries, one per environment (and account for tokens), readable in a keychain UI. */
export const secretKeys = {
  /** Keyed by the server that issued it too: a token is never looked up for another address. */
  refreshToken: (environmentId: string, origin: string, email: string): string =>
    `refreshToken/${encodeURIComponent(environmentId)}/${encodeURIComponent(origin)}/${encodeURIComponent(normalizeEmail(email))}`,
  rememberedEmail: (environmentId: string): string =>
    `rememberedEmail/${encodeURIComponent(environmentId)}`,
};

/** The server compares e-mails without case, so one account has one entry whatever was typed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

type Keyring = typeof KeyringModule;

export interface KeychainStoreOptions {
  /**
   * Loads the native module; import() by default. Not a static import: a build for another
   * architecture lacks the binary, and a static import would throw before any window opens.
   */
  loadKeyring?: () => Promise<Keyring>;
  /**
   * Entries are pinned to the Secret Service on Linux: the library's default would fall back to
   * the kernel keyring, which forgets everything at logout and so would promise what it cannot keep.
   */
  entryOptions?: EntryOptions;
}

const LINUX_SECRET_SERVICE: EntryOptions = { linux: { store: 'secret-service' } };

/** The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux). */
export function createKeychainStore(
  service: string = DEFAULT_KEYCHAIN_SERVICE,
  options: KeychainStoreOptions = {},
): SecretStore {
  const entryOptions = options.entryOptions ?? LINUX_SECRET_SERVICE;
  let keyring: Promise<Keyring> | undefined;
  // A module that fails to load fails every call, which the probe reports as "no keychain".
  const entry = async (key: string) => {
    keyring ??= (options.loadKeyring ?? (() => import('@napi-rs/keyring')))();
    return new (await keyring).AsyncEntry(service, key, entryOptions);
  };
  return {
    available: true,
    async get(key) {
      return (await (await entry(key)).getPassword()) ?? undefined;
    },
    async set(key, value) {
      await (await entry(key)).setPassword(value);
    },
    async delete(key) {
      // Resolves false when there was nothing to delete: that is fine.
      await (await entry(key)).deleteCredential();
    },
  };
}

/** For when there is no usable keychain: forgotten when the app ends. */
export function createMemoryStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    available: false,
    async get(key) {
      return values.get(key);
    },
    async set(key, value) {
      values.set(key, value);
    },
    async delete(key) {
      values.delete(key);
    },
  };
}

/** In English; the app tells it in the user's language (host.keychainUnavailable). */
export const KEYCHAIN_UNAVAILABLE_MESSAGE =
  'No system keychain is available, so PlantDesk cannot remember your sign-in: ' +
  'you will be asked for your password each time you start it.';

export interface OpenSecretStoreOptions {
  service?: string;
  log?: Logger;
  /** Past this the keychain counts as unusable for the run. Default 10 s. */
  probeTimeoutMs?: number;
  /** The store to probe; the OS keychain by default (tests pass their own). */
  keychain?: SecretStore;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

/** A secret store whose keychain may not be known to work yet. */
export interface LazySecretStore {
  /**
   * `available` is true until the keychain is found unusable; every call waits for that answer
   * and, without a keychain, goes to a memory store.
   */
  store: SecretStore;
  /** Whether the keychain works; asks it on the first call (or the store's first use). */
  status(): Promise<KeychainStatus>;
}

/**
 * The OS keychain, tried on first use rather than at start-up: asking it may take long (a
 * keyring on a slow D-Bus), and nothing of the app's start waits for it. The probe only reads
 * an entry that does not exist, which no keychain answers with an unlock prompt: a locked GNOME
 * keyring or KWallet asks for its password only when a sign-in is to be remembered or restored,
 * never at the launch of a user who did not tick "Remember". Never throws: a missing D-Bus, a
 * refused or silent keyring all mean "no keychain", with the message to show once.
 */
export function openSecretStore(options: OpenSecretStoreOptions = {}): LazySecretStore {
  const log = options.log ?? silentLogger;
  const keychain = options.keychain ?? createKeychainStore(options.service);
  const memory = createMemoryStore();
  let decided: KeychainStatus | undefined;
  let deciding: Promise<KeychainStatus> | undefined;

  function status(): Promise<KeychainStatus> {
    // Never within the turn that asked: the host's start (its IPC handlers, the Local sandbox)
    // finishes before the keychain is touched.
    deciding ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => probe(keychain, options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS))
      .then(
        () => (decided = { available: true }),
        (error: unknown) => {
          log.warn('keychain unavailable; sign-ins will not be remembered', {
            reason: error instanceof Error ? error.message : String(error),
          });
          return (decided = { available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE });
        },
      );
    return deciding;
  }
  const target = async () => ((await status()).available ? keychain : memory);

  return {
    store: {
      get available() {
        return decided?.available ?? true;
      },
      async get(key) {
        return (await target()).get(key);
      },
      async set(key, value) {
        await (await target()).set(key, value);
      },
      async delete(key) {
        await (await target()).delete(key);
      },
    },
    status,
  };
}

/** An entry that is never written: the keychain must answer, and answer that it is not there. */
async function probe(store: SecretStore, timeoutMs: number): Promise<void> {
  const reading = store.get(`probe/${randomUUID()}`);
  // After a timeout the read may still fail later: that is no longer anyone's concern.
  reading.catch(() => {});
  const value = await withTimeout(reading, timeoutMs, 'the keychain did not answer in time');
  if (value !== undefined) throw new Error('the keychain answered for an entry never stored');
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
