import { test as base } from '@playwright/test';
import { callChannel, startWebHost, type WebHost } from '../../../scripts/webHost.ts';

export type WebApp = Omit<WebHost, 'stop'>;

/**
 * Runs `node electron/web/cli.ts --port 0 --no-open --data-dir <tmp> --demo-fleet 0 [--clock ISO]`
 * as a user would, reads the one line it prints, and stops it with SIGTERM (which also stops its
 * Local sandbox server). Demo Home only: every pinned clock gets a fresh Local sandbox database,
 * and the demo fleet's background history would be written again for each while the specs run
 * (fleet.spec.ts starts a host of its own with the fleet).
 */
export function startWebApp(clock?: string): Promise<WebHost> {
  return startWebHost('plantdesk-e2e-', { clock, demoFleet: 0 });
}

/** Calls one channel of the web host as the page's bridge would; answers the envelope. */
export function rpc(webApp: WebApp, channel: string, args: unknown[]): Promise<unknown> {
  return callChannel(webApp, channel, args);
}

/** The host's clock now, epoch ms: the instant it was started at plus the time since. */
export async function hostNow(webApp: WebApp): Promise<number> {
  const envelope = (await rpc(webApp, 'app.info', [])) as { ok: boolean; value?: { now: number } };
  if (!envelope.ok || typeof envelope.value?.now !== 'number') {
    throw new Error(`app.info failed: ${JSON.stringify(envelope)}`);
  }
  return envelope.value.now;
}

/**
 * The web hosts of one worker: starting one (and its Local sandbox) is the slow part, so the host
 * on the system clock lives as long as the worker, beside at most one host pinned to an instant
 * (replaced when a test asks for another instant).
 */
export class WebHostPool {
  readonly #hosts = new Map<string, Promise<WebHost>>();

  /** The host on `clock` (an ISO 8601 instant), or on the system clock. */
  async get(clock?: string): Promise<WebApp> {
    const key = clock ?? '';
    if (key !== '') {
      for (const [other, host] of this.#hosts) {
        if (other === '' || other === key) continue;
        this.#hosts.delete(other);
        await (await host).stop();
      }
    }
    let host = this.#hosts.get(key);
    if (!host) {
      host = startWebApp(clock);
      this.#hosts.set(key, host);
      host.catch(() => this.#hosts.delete(key));
    }
    return host;
  }

  async stopAll(): Promise<void> {
    const hosts = [...this.#hosts.values()];
    this.#hosts.clear();
    await Promise.all(hosts.map(async (host) => (await host).stop()));
  }
}

/**
 * Each test gets a browser-mode PlantDesk from the worker's pool. The host holds one session for
 * every page, so each test starts signed out, on the Local sandbox, whatever the test before it
 * left behind. Hooks reach the system-clock host through `hosts.get()`.
 *
 * A test whose assertions depend on the time of day or the date pins it:
 * `test.use({ hostClock: '2026-03-29T12:30:00+02:00' })` (top level or in a describe) gives it a
 * host whose Local sandbox starts at that instant, and the page's clock (Playwright's
 * `page.clock`) is installed at the host's current time before the test opens anything, so the
 * renderer's "today" is the server's.
 */
export const test = base.extend<
  { freshSession: void; webApp: WebApp; hostClock: string | undefined },
  { hosts: WebHostPool }
>({
  hostClock: [undefined, { option: true }],
  hosts: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
    async ({}, use) => {
      const pool = new WebHostPool();
      try {
        await use(pool);
      } finally {
        await pool.stopAll();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  webApp: async ({ hosts, hostClock }, use) => {
    await use(await hosts.get(hostClock));
  },
  freshSession: [
    async ({ webApp }, use) => {
      await rpc(webApp, 'environments.select', ['local']);
      await rpc(webApp, 'session.signOut', []);
      await use();
    },
    { auto: true },
  ],
  page: async ({ page, webApp, hostClock }, use) => {
    if (hostClock !== undefined) await page.clock.install({ time: await hostNow(webApp) });
    await use(page);
  },
});

export { expect } from '@playwright/test';
