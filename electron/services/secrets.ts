import { randomUUID } from 'node:crypto';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
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

export interface KeychainStoreOptions {
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
  const entry = (key: string) => new AsyncEntry(service, key, entryOptions);
  return {
    available: true,
    async get(key) {
      return (await entry(key).getPassword()) ?? undefined;
    },
    async set(key, value) {
      await entry(key).setPassword(value);
    },
    async delete(key) {
      // Resolves false when there was nothing to delete: that is fine.
      await entry(key).deleteCredential();
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
  /** A locked keychain may ask the user to unlock it; past this the app goes on without it. */
  probeTimeoutMs?: number;
  /** The store to probe; the OS keychain by default (tests pass their own). */
  keychain?: SecretStore;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 60_000;

/**
 * Opens the OS keychain if it really works (writes, reads back and deletes a probe entry), else
 * a memory store with the message to show once. Never throws: a missing D-Bus, a locked or
 * refused keyring all mean "no keychain".
 */
export async function openSecretStore(
  options: OpenSecretStoreOptions = {},
): Promise<{ store: SecretStore; status: KeychainStatus }> {
  const log = options.log ?? silentLogger;
  const keychain = options.keychain ?? createKeychainStore(options.service);
  const probing = probe(keychain);
  // After a timeout the probe may still fail later: that is no longer anyone's concern.
  probing.catch(() => {});
  try {
    await withTimeout(
      probing,
      options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      'the keychain did not answer in time',
    );
    return { store: keychain, status: { available: true } };
  } catch (error) {
    log.warn('keychain unavailable; sign-ins will not be remembered', {
      reason: error instanceof Error ? error.message : String(error),
    });
    return {
      store: createMemoryStore(),
      status: { available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE },
    };
  }
}

async function probe(store: SecretStore): Promise<void> {
  const key = `probe/${randomUUID()}`;
  const value = `probe ${randomUUID()}`;
  await store.set(key, value);
  try {
    const readBack = await store.get(key);
    if (readBack !== value) throw new Error('the keychain did not give back what was stored');
  } finally {
    await store.delete(key);
  }
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
