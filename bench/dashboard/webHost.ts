import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { callChannel, startWebHost } from '../../scripts/webHost.ts';

/**
 * PlantDesk in browser mode for benchmarks, started as the e2e tests start it
 * (scripts/webHost.ts, without Playwright Test's fixtures).
 */

const RENDERER_INDEX = fileURLToPath(new URL('../../out/renderer/index.html', import.meta.url));

export interface BenchWebHost {
  url: string;
  origin: string;
  /** One channel of the web host, as the page's bridge calls it; throws on an error envelope. */
  rpc<T>(channel: string, args?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/** The renderer must be built (`npm run build`): the web host serves out/renderer. */
export function rendererBuilt(): boolean {
  return fs.existsSync(RENDERER_INDEX);
}

export async function startBenchWebHost(): Promise<BenchWebHost> {
  const host = await startWebHost('plantdesk-bench-web-');
  return {
    url: host.url,
    origin: host.origin,
    async rpc<T>(channel: string, args: unknown[] = []): Promise<T> {
      const envelope = (await callChannel(host, channel, args)) as {
        ok: boolean;
        value?: unknown;
        error?: unknown;
      };
      if (!envelope.ok) throw new Error(`${channel} failed: ${JSON.stringify(envelope.error)}`);
      return envelope.value as T;
    },
    stop: () => host.stop(),
  };
}
