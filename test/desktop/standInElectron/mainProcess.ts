// The stand-in Electron main process: `node mainProcess.ts`, forked by harness.ts with an IPC
// channel. It maps `electron` to the stand-in (Node's synchronous module hooks), imports the
// app's built main module from STANDIN_ELECTRON_APP_ROOT (its package.json "main"), emits
// 'ready' once that module has run, then answers the harness's commands.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as StandInElectron from './electron.ts';
import type { Command, ExitReport, FetchResult, StandInState } from './protocol.ts';

const standInUrl = new URL('./electron.ts', import.meta.url).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standInUrl, format: 'module', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

const electron = await import(standInUrl);
const { app, standIn, invokeHandler, BrowserWindow, WebContents } =
  electron as typeof StandInElectron;

const appRoot = process.env.STANDIN_ELECTRON_APP_ROOT;
if (!appRoot) throw new Error('STANDIN_ELECTRON_APP_ROOT is required');

function report(message: unknown): void {
  process.send?.(message);
}

function utilityRecords() {
  return standIn.utilityProcesses.map((child) => ({
    ...child.record,
    running: child.pid !== undefined,
  }));
}

// Electron's main process reports these in a dialog and carries on; the harness fails on them.
process.on('uncaughtException', (error) =>
  standIn.errors.push(`uncaught: ${String(error?.stack ?? error)}`),
);
process.on('unhandledRejection', (reason) =>
  standIn.errors.push(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}`),
);

standIn.onExit = (code) => {
  // What was still running when the app ended: Chromium kills it with the browser process.
  const records = utilityRecords();
  for (const child of standIn.utilityProcesses) child.terminateWithBrowser();
  const exit: ExitReport = {
    code,
    events: [...standIn.events],
    errors: [...standIn.errors],
    utilityProcesses: records,
  };
  process.send?.({ type: 'exit', exit }, () => process.exit(code));
};

function mainWindow() {
  const window = BrowserWindow.getAllWindows()[0];
  if (!window) throw new Error('The app has no window');
  return window;
}

/**
 * The page's window once the app has created it and its preload has run: the first window's,
 * or the first live one whose address contains `urlIncludes`.
 */
async function pageWorld(
  urlIncludes?: string,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const window =
      urlIncludes === undefined
        ? BrowserWindow.getAllWindows()[0]
        : BrowserWindow.getAllWindows().find((w) => w.webContents.getURL().includes(urlIncludes));
    const world = window?.webContents.renderer?.mainWorld;
    if (world?.plantdesk) return world;
    if (Date.now() > deadline) throw new Error('The app showed no page with window.plantdesk');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function state(): StandInState {
  return {
    events: [...standIn.events],
    ready: app.isReady(),
    errors: [...standIn.errors],
    sandboxEnabled: standIn.sandboxEnabled,
    sessionFetches: standIn.sessionFetches,
    netRequests: standIn.netRequests,
    proxyLogins: standIn.proxyLogins,
    schemeRegistrations: standIn.schemeRegistrations,
    protocolSchemes: [...standIn.protocolHandlers.keys()],
    ipcChannels: [...standIn.ipcHandlers.keys()],
    windows: standIn.windows.map((window) => ({
      webPreferences: window.record.webPreferences,
      options: Object.fromEntries(
        Object.entries(window.record.options).filter(([key]) => key !== 'webPreferences'),
      ),
      shownBeforeReady: window.record.shownBeforeReady,
      visible: window.isVisible(),
      maximized: window.isMaximized(),
      destroyed: window.isDestroyed(),
      url: window.webContents.getURL(),
      exposed: Object.keys(window.webContents.renderer?.mainWorld ?? {}),
      preloadRequired: window.webContents.renderer?.required ?? [],
      eventsSent: window.webContents.sent.map((sent) => sent.channel),
    })),
    utilityProcesses: utilityRecords(),
    printed: standIn.printed,
    userData: app.getPath('userData'),
    logs: app.getPath('logs'),
  };
}

async function fetchAll(urls: string[], method: string): Promise<FetchResult[]> {
  return Promise.all(
    urls.map(async (url) => {
      const scheme = new URL(url).protocol.slice(0, -1);
      const handler = standIn.protocolHandlers.get(scheme);
      if (!handler) return { url, status: -1, headers: {}, sha256: '', length: 0 };
      const response = await handler(new Request(url, { method }));
      const body = Buffer.from(await response.arrayBuffer());
      return {
        url,
        status: response.status,
        headers: Object.fromEntries(response.headers),
        sha256: createHash('sha256').update(body).digest('hex'),
        length: body.length,
      };
    }),
  );
}

async function run(command: Command): Promise<unknown> {
  switch (command.op) {
    case 'state':
      return state();
    case 'fetch':
      return fetchAll(command.urls, command.method ?? 'GET');
    case 'call':
    case 'callFrom': {
      // As the page calls it: window.plantdesk[channel](...args), through the preload.
      const urlIncludes = command.op === 'callFrom' ? command.urlIncludes : undefined;
      const api = (await pageWorld(urlIncludes)).plantdesk as Record<
        string,
        (...args: unknown[]) => Promise<unknown>
      >;
      return api[command.channel]!(...command.args);
    }
    case 'callAs': {
      const window = mainWindow();
      const foreign = new WebContents({});
      await foreign.loadURL(window.webContents.getURL()).catch(() => {});
      const event =
        command.sender === 'subframe'
          ? {
              sender: window.webContents,
              senderFrame: window.webContents.subframe(window.webContents.getURL()),
            }
          : { sender: foreign, senderFrame: foreign.mainFrame };
      return invokeHandler(command.channel, event, command.args);
    }
    case 'navigate':
      return mainWindow().webContents.navigateFromPage(command.url);
    case 'openWindow':
      return mainWindow().webContents.openFromPage(command.url);
    case 'eventPayloads':
      return mainWindow()
        .webContents.sent.filter((sent) => sent.channel === command.channel)
        .map((sent) => sent.args[0]);
    case 'readLog':
      return readFileSync(path.join(app.getPath('logs'), 'main.log'), 'utf8');
    case 'quit':
      app.quit();
      return null;
    case 'closeWindow':
      mainWindow().close();
      return null;
  }
}

process.on('message', (message: { id: number; command: Command }) => {
  run(message.command).then(
    (result) => report({ type: 'answer', id: message.id, result }),
    (error: unknown) => report({ type: 'answer', id: message.id, error: String(error) }),
  );
});

const packageJson = JSON.parse(readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as {
  main: string;
};
await import(pathToFileURL(path.join(appRoot, packageJson.main)).href);
// Electron emits 'ready' after the main script has run, never during it.
setImmediate(() => app.emitReady());
report({ type: 'loaded' });
