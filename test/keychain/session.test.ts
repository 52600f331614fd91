import { randomUUID } from 'node:crypto';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Environment } from '../../electron/ipc/contract.ts';
import { createApiClient } from '../../electron/services/api/apiClient.ts';
import { createKeychainStore, secretKeys } from '../../electron/services/secrets.ts';
import { createSessionManager } from '../../electron/services/session.ts';
import { DEMO_ACCOUNTS, TestServer } from '../support/testServer.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.email.startsWith('admin@'))!;
const service = `PlantDesk-test-${randomUUID()}`;

describe.skipIf(process.env.PLANTDESK_SECRET_SERVICE !== '1')(
  'a remembered session across launches in the OS keychain (skipped unless run by scripts/withSecretService.ts)',
  () => {
    const store = createKeychainStore(service);
    let server: TestServer;
    let environment: Environment;

    const launch = () =>
      createSessionManager({ secrets: store, emit: () => {}, createClient: createApiClient });

    beforeAll(async () => {
      server = await TestServer.start();
      environment = {
        id: 'keychain',
        name: 'Keychain',
        kind: 'sandbox',
        baseUrl: server.url,
        source: 'user',
      };
    });

    afterAll(async () => {
      for (const { account } of await findCredentialsAsync(service)) await store.delete(account);
      await server?.close();
    });

    test('sign in with remember, launch again: signed in; sign out: only the e-mail stays', async () => {
      const first = launch();
      await first.activate(environment);
      await first.signIn({ email: ADMIN.email, password: ADMIN.password, remember: true });
      first.dispose();
      expect(await store.get(secretKeys.rememberedEmail('keychain'))).toBe(ADMIN.email);
      expect(
        await store.get(
          secretKeys.refreshToken('keychain', new URL(server.url).origin, ADMIN.email),
        ),
      ).toMatch(/^eyJ/);

      const second = launch();
      const restored = await second.activate(environment);
      expect(restored.status).toBe('signedIn');
      expect(restored.user?.email).toBe(ADMIN.email);
      await second.signOut();
      second.dispose();

      expect((await findCredentialsAsync(service)).map((entry) => entry.account)).toEqual([
        secretKeys.rememberedEmail('keychain'),
      ]);
      const third = launch();
      expect(await third.activate(environment)).toEqual({
        environmentId: 'keychain',
        status: 'signedOut',
        rememberedEmail: ADMIN.email,
      });
      third.dispose();
    });
  },
);
