import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isLoopbackUrl } from '../ipc/addresses.ts';
import { spawnNodeServer } from '../services/childProcessServer.ts';
import { createFileLog } from '../services/fileLog.ts';
import { startPlantDesk } from '../services/plantDesk.ts';
import { createNodeTransport } from '../services/api/transport.ts';
import { createWebHost } from './host.ts';
import { openInBrowser } from './opener.ts';

const USAGE = `Usage: npm run web -- [--port 0] [--no-open] [--data-dir DIR] [--clock ISO]
                      [--immediate-alerts] [--demo-fleet N] [--local-sandbox-relay URL]

Runs PlantDesk in the browser: the same services as the desktop app in this process, the page
on http://127.0.0.1:PORT. Prints one line, "PlantDesk web: http://127.0.0.1:PORT/?key=KEY", and
opens the page in the system browser unless --no-open (with a single-use code, not the key).
The key changes at every start; only a page opened with it (or the code) can use the app.

  --port N        port on 127.0.0.1 (default 0: a free one)
  --no-open       do not open the browser
  --data-dir DIR  environments, Local sandbox database and logs (default: ${defaultDataDir()})
  --clock ISO     run at a chosen instant, such as 2026-06-21T12:00:00+02:00: the Local sandbox's
                  clock starts there (its database is one of its own) and the page's "now"
                  follows it; also PLANTDESK_CLOCK
  --immediate-alerts  alerts open and clear at the first check, without each rule's delay and
                  hysteresis (demos and tests that cannot wait a quarter-hour)
  --demo-fleet N  plants of the demo fleet the Local sandbox seeds at its first start (default 12;
                  0: Demo Home only)
  --local-sandbox-relay URL  end-to-end tests: the Local environment's address is this loopback
                  relay (forwarding to the sandbox) instead of the sandbox's own`;

/**
 * The OS's per-user application data folder + PlantDesk/web. Not the desktop app's own folder
 * (PlantDesk/ itself): both may run at once, and each starts a Local sandbox server on its own
 * SQLite database and rewrites its own environments.json; sharing them would make two writers.
 */
function defaultDataDir(): string {
  const home = os.homedir();
  const appData =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
  return path.join(appData, 'PlantDesk', 'web');
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new Error(`--port must be 0..65535, not '${text}'`);
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'no-open': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      clock: { type: 'string' },
      'immediate-alerts': { type: 'boolean', default: false },
      'demo-fleet': { type: 'string' },
      'local-sandbox-relay': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = parsePort(values.port);
  const demoFleet = values['demo-fleet'];
  if (demoFleet !== undefined && !/^\d{1,4}$/.test(demoFleet)) {
    throw new Error(`--demo-fleet must be a whole number, not '${demoFleet}'`);
  }
  const relay = values['local-sandbox-relay'];
  if (relay !== undefined && !(/^http:\/\//.test(relay) && isLoopbackUrl(relay))) {
    throw new Error(`--local-sandbox-relay must be an http address on loopback, not '${relay}'`);
  }
  const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
  const rendererDir = fileURLToPath(new URL('../../out/renderer/', import.meta.url));
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`The renderer is not built (${rendererDir}): run \`npm run build\` first`);
  }
  const packageJson = JSON.parse(
    fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };

  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const logDir = path.join(dataDir, 'logs');
  const log = createFileLog({ dir: logDir, fileName: 'web.log' });
  log.info('PlantDesk web starting', { version: packageJson.version, dataDir });

  // Until a page calls, the machine's language; then the page's browser's (see WebHostOptions).
  let browserLanguages: readonly string[] = [Intl.DateTimeFormat().resolvedOptions().locale];
  const plantDesk = await startPlantDesk({
    host: 'web',
    systemLanguages: () => browserLanguages,
    version: packageJson.version,
    dataDir,
    logDir,
    spawnServer: spawnNodeServer(),
    log,
    openExternal: (url) => openInBrowser(url),
    // Node's stack: the proxy of HTTP_PROXY / HTTPS_PROXY / NO_PROXY, loopback direct.
    fetch: createNodeTransport(),
    clock: values.clock ?? (process.env.PLANTDESK_CLOCK || undefined),
    ...(values['immediate-alerts'] && { alertTiming: 'immediate' as const }),
    ...(demoFleet !== undefined && { localSandboxArgs: ['--demo-fleet', demoFleet] }),
    ...(relay !== undefined && { localSandboxRelay: relay }),
  });
  let host;
  try {
    host = await createWebHost({
      plantDesk,
      port,
      rendererDir,
      log,
      onBrowserLanguages: (languages) => (browserLanguages = languages),
    });
  } catch (error) {
    await plantDesk.dispose();
    throw error;
  }
  log.info('PlantDesk web listening', { origin: host.origin });
  // The one line on standard output: scripts and tests read the address from it.
  console.log(`PlantDesk web: ${host.url}`);

  if (!values['no-open']) {
    // The opener's arguments are readable by every local user: it gets a single-use code that
    // expires in seconds, never the key.
    openInBrowser(host.openUrl()).catch((error: unknown) => {
      console.error(`Could not open a browser (${String(error)}); open the address above.`);
    });
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      // A second Ctrl+C: the user does not want to wait for the Local sandbox.
      process.exit(130);
    }
    stopping = true;
    log.info('PlantDesk web stopping', { signal });
    const running = host;
    void (async () => {
      let code = 0;
      try {
        await running.close();
        await plantDesk.dispose();
      } catch (error) {
        code = 1;
        log.error('PlantDesk web did not stop cleanly', { error: String(error) });
      }
      await log.close();
      process.exit(code);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`PlantDesk web: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
