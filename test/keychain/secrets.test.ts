import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, describe, expect, test } from 'vitest';
import {
  createKeychainStore,
  createMemoryStore,
  KEYCHAIN_UNAVAILABLE_MESSAGE,
  openSecretStore,
  secretKeys,
  type SecretStore,
} from '../../electron/services/secrets.ts';

const SECRET_SERVICE = process.env.PLANTDESK_SECRET_SERVICE === '1';
const secretsModule = fileURLToPath(new URL('../../electron/services/secrets.ts', import.meta.url));

/** A service name of our own per run, so that nothing else's entries are touched or seen. */
const service = `PlantDesk-test-${randomUUID()}`;

describe.skipIf(!SECRET_SERVICE)(
  'the OS keychain through the Secret Service (skipped unless run by scripts/withSecretService.ts, which sets PLANTDESK_SECRET_SERVICE=1)',
  () => {
    const store = createKeychainStore(service);

    afterAll(async () => {
      for (const { account } of await findCredentialsAsync(service)) await store.delete(account);
    });

    test('set, get, overwrite and delete an entry', async () => {
      const key = secretKeys.refreshToken(
        'sandbox-1',
        'https://api.example',
        'admin@plantdesk.test',
      );
      expect(await store.get(key)).toBeUndefined();
      await store.set(key, 'first');
      expect(await store.get(key)).toBe('first');
      await store.set(key, 'second');
      expect(await store.get(key)).toBe('second');
      await store.delete(key);
      expect(await store.get(key)).toBeUndefined();
      // Deleting what is not there is not an error.
      await store.delete(key);
    });

    test('entries are separate per environment and per account', async () => {
      const entries = {
        [secretKeys.refreshToken('one', 'https://api.example', 'admin@plantdesk.test')]:
          'one-admin',
        [secretKeys.refreshToken('one', 'https://api.example', 'manager@plantdesk.test')]:
          'one-manager',
        [secretKeys.refreshToken('two', 'https://api.example', 'admin@plantdesk.test')]:
          'two-admin',
        [secretKeys.rememberedEmail('one')]: 'admin@plantdesk.test',
        [secretKeys.rememberedEmail('two')]: 'manager@plantdesk.test',
      };
      expect(new Set(Object.keys(entries)).size).toBe(5);
      for (const [key, value] of Object.entries(entries)) await store.set(key, value);
      for (const [key, value] of Object.entries(entries)) expect(await store.get(key)).toBe(value);

      await store.delete(
        secretKeys.refreshToken('one', 'https://api.example', 'admin@plantdesk.test'),
      );
      expect(
        await store.get(
          secretKeys.refreshToken('one', 'https://api.example', 'manager@plantdesk.test'),
        ),
      ).toBe('one-manager');
      expect(
        await store.get(
          secretKeys.refreshToken('two', 'https://api.example', 'admin@plantdesk.test'),
        ),
      ).toBe('two-admin');
      // The same account typed in another case is the same entry.
      expect(
        await store.get(
          secretKeys.refreshToken('two', 'https://api.example', ' Admin@PlantDesk.test '),
        ),
      ).toBe('two-admin');
      // Another service name does not see them.
      expect(
        await createKeychainStore(`${service}-other`).get(secretKeys.rememberedEmail('one')),
      ).toBeUndefined();
    });

    test('unicode and long values come back unchanged', async () => {
      const values = [
        'Grüße, Žluťoučký kůň, 日本語, 🌞🔋⚡',
        'e\u0301 (combining) and \u00e9 (precomposed)',
        // A refresh token is a JWT of a few hundred characters; leave room.
        `eyJ${'x'.repeat(4000)}.${'y'.repeat(200)}`,
      ];
      for (const [index, value] of values.entries()) {
        const key = secretKeys.refreshToken(
          `unicode-${index}`,
          'https://api.example',
          'ünïcødé@plantdesk.test',
        );
        await store.set(key, value);
        expect(await store.get(key)).toBe(value);
      }
    });

    test('keys with unusual environment ids and e-mails stay distinct', async () => {
      const a = secretKeys.refreshToken('a/b', 'https://api.example', 'c@d.test');
      const b = secretKeys.refreshToken('a', 'https://api.example', 'b/c@d.test');
      expect(a).not.toBe(b);
      await store.set(a, 'A');
      await store.set(b, 'B');
      expect(await store.get(a)).toBe('A');
      expect(await store.get(b)).toBe('B');
    });

    test('the probe finds the keychain usable and writes nothing', async () => {
      const probeService = `${service}-probe`;
      const opened = openSecretStore({ service: probeService });
      expect(await opened.status()).toEqual({ available: true });
      expect(opened.store.available).toBe(true);
      expect(await findCredentialsAsync(probeService)).toEqual([]);
    });
  },
);

describe.skipIf(process.platform !== 'linux')('no Secret Service on the bus', () => {
  test('openSecretStore falls back to memory, with the message, and does not crash', async () => {
    // A child process: the library may keep its D-Bus connection, so this one starts clean.
    const script = `
      const { openSecretStore } = await import(${JSON.stringify(secretsModule)});
      const { store, status } = openSecretStore({ service: 'PlantDesk-test-nobus' });
      await store.set('k', 'v');
      console.log(JSON.stringify({ status: await status(), available: store.available, value: await store.get('k') }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '--no-warnings', '-e', script],
      {
        env: {
          ...process.env,
          DBUS_SESSION_BUS_ADDRESS: `unix:path=/nonexistent/plantdesk-${randomUUID()}`,
        },
        timeout: 20_000,
      },
    );
    expect(JSON.parse(stdout.trim())).toEqual({
      status: { available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE },
      available: false,
      value: 'v',
    });
  });
});

describe('openSecretStore with a keychain that does not work', () => {
  const failing = (failure: () => Promise<never>): SecretStore => ({
    available: true,
    get: failure,
    set: failure,
    delete: failure,
  });

  test('a refused or locked keychain means memory, never a crash', async () => {
    for (const message of [
      "Couldn't access platform storage: AccessDenied",
      'unlock prompt was dismissed',
    ]) {
      const warnings: unknown[] = [];
      const { store, status } = openSecretStore({
        keychain: failing(() => Promise.reject(new Error(message))),
        log: { info() {}, error() {}, warn: (...args) => warnings.push(args) },
      });
      expect(await status()).toEqual({ available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE });
      expect(store.available).toBe(false);
      expect(JSON.stringify(warnings)).toContain(message);
      // The session's writes then last for the run, in memory.
      await store.set('k', 'v');
      expect(await store.get('k')).toBe('v');
    }
  });

  test('a keychain that never answers is given up after the probe timeout', async () => {
    const started = Date.now();
    const { status } = openSecretStore({
      keychain: failing(() => new Promise<never>(() => {})),
      probeTimeoutMs: 100,
    });
    expect((await status()).available).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a keychain that answers for an entry never stored is not trusted', async () => {
    const { status } = openSecretStore({
      keychain: { ...createMemoryStore(), available: true, get: async () => 'other' },
    });
    expect((await status()).available).toBe(false);
  });

  test('the probe reads one entry that does not exist, once, and only when first needed', async () => {
    const calls: string[] = [];
    const memory = createMemoryStore();
    const keychain: SecretStore = {
      available: true,
      get: (key) => (calls.push(`get ${key.split('/')[0]}`), memory.get(key)),
      set: (key, value) => (calls.push(`set ${key}`), memory.set(key, value)),
      delete: (key) => (calls.push(`delete ${key}`), memory.delete(key)),
    };
    const { store, status } = openSecretStore({ keychain });
    expect(store.available).toBe(true);
    expect(calls).toEqual([]);
    // The first use waits for the probe, then goes to the keychain.
    await store.set('rememberedEmail/local', 'a@b.test');
    expect(await status()).toEqual({ available: true });
    expect(await store.get('rememberedEmail/local')).toBe('a@b.test');
    expect(calls).toEqual(['get probe', 'set rememberedEmail/local', 'get rememberedEmail']);
  });

  test('the memory store keeps values for the run and says it is not a keychain', async () => {
    const store = createMemoryStore();
    expect(store.available).toBe(false);
    await store.set('a', '🌞');
    expect(await store.get('a')).toBe('🌞');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });
});
