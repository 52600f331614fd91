import { expect, test, vi } from 'vitest';

/**
 * A build for another architecture ships without the keyring's native binary: loading
 * secrets.ts (and so the main process) must not fail, and the keychain is then simply
 * unavailable, with the usual message.
 */

test('without the native keyring module the app loads and uses the memory store', async () => {
  vi.doMock('@napi-rs/keyring', () => {
    throw new Error("Cannot find module '@napi-rs/keyring-linux-arm64-gnu'");
  });
  const { KEYCHAIN_UNAVAILABLE_MESSAGE, openSecretStore } =
    await import('../../../electron/services/secrets.ts');
  const warnings: unknown[] = [];
  const { store, status } = openSecretStore({
    log: { info() {}, error() {}, warn: (...args) => warnings.push(args) },
  });
  expect(await status()).toEqual({ available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE });
  expect(warnings).toHaveLength(1);
  await store.set('rememberedEmail/local', 'a@b.test');
  expect(await store.get('rememberedEmail/local')).toBe('a@b.test');
  expect(store.available).toBe(false);
});
