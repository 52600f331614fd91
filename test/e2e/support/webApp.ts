import { test as base } from '@playwright/test';
import { callChannel, startWebHost, type WebHost } from '../../../scripts/webHost.ts';

export type WebApp = Omit<WebHost, 'stop'>;

/**
 * Runs `node electron/web/cli.ts --port 0 --no-open --data-dir <tmp>` as a user would, reads the
 * one line it prints, and stops it with SIGTERM (which also stops its Local sandbox server).
 */
export function startWebApp(): Promise<WebHost> {
  return startWebHost('plantdesk-e2e-');
}

/** Calls one channel of the web host as the page's bridge would; answers the envelope. */
export function rpc(webApp: WebApp, channel: string, args: unknown[]): Promise<unknown> {
  return callChannel(webApp, channel, args);
}

/**
 * One browser-mode PlantDesk per worker: starting the Local sandbox is the slow part. The host
 * holds one session for every page, so each test starts signed out, on the Local sandbox,
 * whatever the test before it left behind.
 */
export const test = base.extend<{ freshSession: void }, { webApp: WebApp }>({
  freshSession: [
    async ({ webApp }, use) => {
      await rpc(webApp, 'environments.select', ['local']);
      await rpc(webApp, 'session.signOut', []);
      await use();
    },
    { auto: true },
  ],
  webApp: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, use) => {
      const app = await startWebApp();
      try {
        await use(app);
      } finally {
        await app.stop();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect } from '@playwright/test';
