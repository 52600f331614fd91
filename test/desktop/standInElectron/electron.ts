import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runPreload, type RendererWorlds } from './renderer.ts';
import type { ForkOptions } from 'electron';
import { StandInUtilityProcess } from './utilityProcess.ts';
import { isAlive } from '../../support/processAlive.ts';

/**
 * A stand-in for the `electron` module of the main process, for running the built app under
 * plain Node (see mainProcess.ts). It behaves as Electron documents where the app depends on it
 * and records what the app did, in `standIn`, for the harness's assertions:
 * - `protocol.registerSchemesAsPrivileged` throws once the app is ready (and only once allowed);
 * - `app` emits 'ready' after the main module has run; `quit()` is before-quit (preventable),
 *   closing the windows, will-quit, quit; `exit()` ends at once without those events;
 * - a window's web contents has a main frame whose URL is the loaded page; loadURL fetches the
 *   page through the registered protocol handler, runs the preload (renderer.ts), then emits
 *   'did-finish-load' and the window's 'ready-to-show';
 * - `ipcMain.handle` refuses a second handler for a channel, as Electron does;
 * - `utilityProcess.fork` forks a real child (utilityProcess.ts);
 * - `webContents.printToPDF` answers a stand-in PDF made from the page it shows (its address and
 *   the options asked), recorded in `standIn.printed`; a destroyed contents refuses, as Electron's.
 * - `session.fromPartition(…).fetch` and `net.request` stand behind a proxy that asks for a
 *   password when STANDIN_ELECTRON_PROXY says so (a session's fetch cannot answer it).
 * Configured by environment: STANDIN_ELECTRON_HOME (the fake home and app data),
 * STANDIN_ELECTRON_APP_ROOT (getAppPath), STANDIN_ELECTRON_PACKAGED=1,
 * STANDIN_ELECTRON_OPEN_DIALOG (the folder the open dialog answers; default: cancelled),
 * STANDIN_ELECTRON_PROXY.
 */

type Preventable = { defaultPrevented: boolean; preventDefault(): void };
function preventable(extra: Record<string, unknown> = {}): Preventable {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

const home = process.env.STANDIN_ELECTRON_HOME ?? path.join(process.cwd(), '.standin-electron');
const appRoot = process.env.STANDIN_ELECTRON_APP_ROOT ?? process.cwd();
const packageJson = JSON.parse(readFileSync(path.join(appRoot, 'package.json'), 'utf8')) as {
  name: string;
  productName?: string;
  version: string;
};

export interface SchemeRegistration {
  schemes: unknown[];
  afterReady: boolean;
}

export interface WindowRecord {
  options: Record<string, unknown>;
  webPreferences: Record<string, unknown>;
  /** show() or maximize() called before 'ready-to-show': a white window on screen. */
  shownBeforeReady: boolean;
}

/** What the app did, for the harness. */
export const standIn = {
  events: [] as string[],
  schemeRegistrations: [] as SchemeRegistration[],
  protocolHandlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  ipcHandlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  windows: [] as BrowserWindow[],
  utilityProcesses: [] as StandInUtilityProcess[],
  sandboxEnabled: false,
  /** Each `session.fromPartition(…).fetch` call: the partition and the request's origin. */
  sessionFetches: [] as { partition: string; cache: boolean | undefined; origin: string }[],
  /** Each printToPDF: the page's address and the options. */
  printed: [] as { url: string; options: unknown }[],
  /** Each `net.request`: its session's partition, method and origin. */
  netRequests: [] as { partition: string; method: string; origin: string }[],
  /** Each answer a 'login' event got from the app, and whether the proxy took it. */
  proxyLogins: [] as { partition: string; username: string; accepted: boolean }[],
  /** Uncaught exceptions and unhandled rejections: Electron shows them in a dialog and goes on. */
  errors: [] as string[],
  /** Set by the harness: called instead of ending the process when the app quits or exits. */
  onExit: ((code: number) => {
    process.exit(code);
  }) as (code: number) => void,
};

// ── app ──────────────────────────────────────────────────────────────────────────────────────

class App extends EventEmitter {
  readonly isPackaged = process.env.STANDIN_ELECTRON_PACKAGED === '1';
  readonly commandLine = {
    hasSwitch: (name: string) =>
      process.argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`)),
    getSwitchValue: (name: string) =>
      process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? '',
    appendSwitch: () => {},
  };
  #name = packageJson.productName ?? packageJson.name;
  #ready = false;
  #readyPromise: Promise<void>;
  #resolveReady!: () => void;
  #paths = new Map<string, string>();
  #lockFile: string | undefined;
  #ended = false;
  #closingForQuit = false;

  constructor() {
    super();
    this.#readyPromise = new Promise((resolve) => (this.#resolveReady = resolve));
    this.#paths.set('home', home);
    this.#paths.set('appData', path.join(home, '.config'));
    this.#paths.set('temp', path.join(home, 'tmp'));
    this.#paths.set('documents', path.join(home, 'Documents'));
    this.#paths.set('downloads', path.join(home, 'Downloads'));
    this.#paths.set('desktop', path.join(home, 'Desktop'));
    this.#paths.set('exe', path.join(home, 'opt', this.#name, this.#name.toLowerCase()));
  }

  /** The harness emits ready once the main module has been evaluated, as Electron does. */
  emitReady(): void {
    this.#ready = true;
    standIn.events.push('ready');
    this.emit('ready', preventable(), {});
    this.#resolveReady();
  }

  whenReady(): Promise<void> {
    return this.#readyPromise;
  }
  isReady(): boolean {
    return this.#ready;
  }
  enableSandbox(): void {
    if (this.#ready) throw new Error('app.enableSandbox() can only be called before app is ready');
    standIn.sandboxEnabled = true;
  }
  getName(): string {
    return this.#name;
  }
  setName(name: string): void {
    this.#name = name;
  }
  getVersion(): string {
    return packageJson.version;
  }
  getAppPath(): string {
    return appRoot;
  }
  getLocale(): string {
    return 'en-US';
  }
  getPreferredSystemLanguages(): string[] {
    return ['en-US'];
  }
  setAboutPanelOptions(): void {}
  setAppUserModelId(): void {}

  getPath(name: string): string {
    if (name === 'userData' || name === 'sessionData') {
      return this.#paths.get(name) ?? path.join(this.getPath('appData'), this.#name);
    }
    if (name === 'logs')
      return this.#paths.get('logs') ?? path.join(this.getPath('userData'), 'logs');
    if (name === 'crashDumps') return path.join(this.getPath('userData'), 'Crashpad');
    const value = this.#paths.get(name);
    if (value === undefined) throw new Error(`Failed to get '${name}' path`);
    return value;
  }
  setPath(name: string, value: string): void {
    this.#paths.set(name, value);
  }
  setAppLogsPath(value?: string): void {
    this.#paths.set('logs', value ?? path.join(this.getPath('userData'), 'logs'));
  }

  /** Held per userData folder: a second process of the same folder is refused. */
  requestSingleInstanceLock(): boolean {
    const lockFile = path.join(this.getPath('userData'), 'SingletonLock');
    mkdirSync(path.dirname(lockFile), { recursive: true });
    if (existsSync(lockFile)) {
      const pid = Number(readFileSync(lockFile, 'utf8'));
      if (pid !== process.pid && isAlive(pid)) return false;
    }
    writeFileSync(lockFile, String(process.pid));
    this.#lockFile = lockFile;
    standIn.events.push('requestSingleInstanceLock');
    return true;
  }

  quit(): void {
    if (this.#ended) return;
    standIn.events.push('quit()');
    const beforeQuit = preventable();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    // Electron closes the windows itself here; window-all-closed is not emitted on this path.
    this.#closingForQuit = true;
    for (const window of [...standIn.windows]) if (!window.isDestroyed()) window.close();
    this.#closingForQuit = false;
    if (standIn.windows.some((window) => !window.isDestroyed())) return;
    const willQuit = preventable();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    this.emit('quit', preventable(), 0);
    this.#end(0);
  }

  /** Ends at once: no before-quit, no will-quit, windows destroyed without 'close'. */
  exit(code = 0): void {
    if (this.#ended) return;
    standIn.events.push(`exit(${code})`);
    for (const window of standIn.windows) window.destroy();
    this.#end(code);
  }

  #end(code: number): void {
    this.#ended = true;
    if (this.#lockFile) rmSync(this.#lockFile, { force: true });
    standIn.onExit(code);
  }

  /** After a window closed: the last one closing (not by quit) is 'window-all-closed'. */
  windowClosed(): void {
    if (this.#closingForQuit || this.#ended) return;
    if (!standIn.windows.every((window) => window.isDestroyed())) return;
    standIn.events.push('window-all-closed');
    // Without a listener Electron quits; with one, the app decides.
    if (this.listenerCount('window-all-closed') === 0) this.quit();
    else this.emit('window-all-closed');
  }
}

export const app = new App();

// ── protocol ─────────────────────────────────────────────────────────────────────────────────

export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    const afterReady = app.isReady();
    standIn.schemeRegistrations.push({ schemes, afterReady });
    standIn.events.push('registerSchemesAsPrivileged');
    if (afterReady) {
      throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    }
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    if (!app.isReady()) throw new Error('protocol.handle cannot be used before the app is ready');
    if (standIn.protocolHandlers.has(scheme))
      throw new Error(`Failed to register protocol: ${scheme}`);
    standIn.protocolHandlers.set(scheme, handler);
    standIn.events.push(`protocol.handle(${scheme})`);
  },
  unhandle(scheme: string): void {
    standIn.protocolHandlers.delete(scheme);
  },
  isProtocolHandled(scheme: string): boolean {
    return standIn.protocolHandlers.has(scheme);
  },
};

// ── ipcMain ──────────────────────────────────────────────────────────────────────────────────

class IpcMain extends EventEmitter {
  handle(channel: string, listener: (event: unknown, ...args: unknown[]) => unknown): void {
    if (standIn.ipcHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    standIn.ipcHandlers.set(channel, listener);
  }
  handleOnce(channel: string, listener: (event: unknown, ...args: unknown[]) => unknown): void {
    this.handle(channel, (event, ...args) => {
      standIn.ipcHandlers.delete(channel);
      return listener(event, ...args);
    });
  }
  removeHandler(channel: string): void {
    standIn.ipcHandlers.delete(channel);
  }
}
export const ipcMain = new IpcMain();

/** What ipcRenderer.invoke does on the main side: the handler, or Electron's refusals. */
export async function invokeHandler(
  channel: string,
  event: unknown,
  args: unknown[],
): Promise<unknown> {
  const handler = standIn.ipcHandlers.get(channel);
  if (!handler)
    throw new Error(
      `Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`,
    );
  try {
    return await handler(event, ...args);
  } catch (error) {
    throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, {
      cause: error,
    });
  }
}

// ── web contents and windows ─────────────────────────────────────────────────────────────────

let nextWebContentsId = 1;

export interface Frame {
  processId: number;
  routingId: number;
  readonly url: string;
  parent: Frame | null;
  top: Frame | null;
}

export class WebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  readonly mainFrame: Frame;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  renderer: RendererWorlds | undefined;
  #url = '';
  #destroyed = false;
  #windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;

  readonly webPreferences: Record<string, unknown>;
  readonly owner: BrowserWindow | undefined;

  constructor(webPreferences: Record<string, unknown> = {}, owner?: BrowserWindow) {
    super();
    this.webPreferences = webPreferences;
    this.owner = owner;
    const mainFrame = { processId: 100 + this.id, routingId: 1, parent: null, top: null };
    // The frame shows what the contents last loaded.
    Object.defineProperty(mainFrame, 'url', { get: () => this.#url, enumerable: true });
    this.mainFrame = mainFrame as unknown as Frame;
    this.mainFrame.top = this.mainFrame;
  }

  /** A subframe of this page showing `url` (an iframe), for sender checks. */
  subframe(url: string): Frame {
    return {
      processId: this.mainFrame.processId,
      routingId: 2,
      url,
      parent: this.mainFrame,
      top: this.mainFrame,
    };
  }

  getURL(): string {
    return this.#url;
  }
  isDestroyed(): boolean {
    return this.#destroyed;
  }
  destroy(): void {
    this.#destroyed = true;
    this.emit('destroyed');
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.#windowOpenHandler = handler;
  }

  /** What a page's window.open would get. */
  openFromPage(url: string): { action: string } {
    return this.#windowOpenHandler?.({ url }) ?? { action: 'allow' };
  }

  /** A navigation the page starts (a link, location.href): true when the app prevented it. */
  navigateFromPage(url: string): boolean {
    const event = preventable({ url, isMainFrame: true, isSameDocument: false });
    this.emit('will-navigate', event, url);
    if (!event.defaultPrevented) this.#url = url;
    return event.defaultPrevented;
  }

  send(channel: string, ...args: unknown[]): void {
    if (this.#destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, args });
    this.renderer?.deliver(channel, args);
  }

  async loadURL(url: string): Promise<void> {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = standIn.protocolHandlers.get(scheme);
    if (!handler) {
      this.emit('did-fail-load', preventable(), -300, 'ERR_INVALID_URL', url);
      throw new Error(`ERR_UNKNOWN_URL_SCHEME (-302) loading '${url}'`);
    }
    const response = await handler(new Request(url));
    if (!response.ok) {
      this.emit('did-fail-load', preventable(), -6, 'ERR_FILE_NOT_FOUND', url);
      throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`);
    }
    this.#url = url;
    const preload = this.webPreferences.preload;
    if (typeof preload === 'string') {
      this.renderer = runPreload(preload, {
        invoke: (channel, args) =>
          invokeHandler(
            channel,
            {
              sender: this,
              senderFrame: this.mainFrame,
              processId: this.mainFrame.processId,
              frameId: 1,
            },
            args,
          ),
      });
    }
    this.emit('dom-ready');
    this.emit('did-finish-load');
    this.owner?.paintedFirstFrame();
  }

  printToPDF(options: unknown = {}): Promise<Uint8Array> {
    if (this.#destroyed) return Promise.reject(new Error('Object has been destroyed'));
    standIn.printed.push({ url: this.#url, options });
    const page = `%PDF-1.7 stand-in\n% ${this.#url}\n% ${JSON.stringify(options)}\n%%EOF\n`;
    return Promise.resolve(new TextEncoder().encode(page));
  }
  openDevTools(): void {}
  closeDevTools(): void {}
  setZoomFactor(): void {}
  reload(): void {}
}

let nextWindowId = 1;
let focusedId: number | undefined;

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return standIn.windows.filter((window) => !window.isDestroyed());
  }
  static getFocusedWindow(): BrowserWindow | null {
    return (
      standIn.windows.find((window) => window.id === focusedId && !window.isDestroyed()) ?? null
    );
  }
  static fromWebContents(contents: WebContents): BrowserWindow | null {
    return standIn.windows.find((window) => window.webContents === contents) ?? null;
  }

  readonly id = nextWindowId++;
  readonly webContents: WebContents;
  readonly record: WindowRecord;
  #destroyed = false;
  #visible: boolean;
  #maximized = false;
  #minimized = false;
  #readyToShow = false;
  #bounds: { x: number; y: number; width: number; height: number };

  constructor(options: Record<string, unknown> = {}) {
    super();
    const webPreferences = { ...((options.webPreferences as Record<string, unknown>) ?? {}) };
    this.record = { options: { ...options }, webPreferences, shownBeforeReady: false };
    this.#visible = options.show !== false;
    this.#bounds = {
      x: (options.x as number) ?? 0,
      y: (options.y as number) ?? 0,
      width: (options.width as number) ?? 800,
      height: (options.height as number) ?? 600,
    };
    this.webContents = new WebContents(webPreferences, this);
    standIn.windows.push(this);
    app.emit('web-contents-created', preventable(), this.webContents);
    app.emit('browser-window-created', preventable(), this);
  }

  paintedFirstFrame(): void {
    if (this.#readyToShow) return;
    this.#readyToShow = true;
    this.emit('ready-to-show');
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  isDestroyed(): boolean {
    return this.#destroyed;
  }
  #showing(): void {
    if (!this.#readyToShow) this.record.shownBeforeReady = true;
    this.#visible = true;
  }
  show(): void {
    this.#showing();
    focusedId = this.id;
  }
  showInactive(): void {
    this.#showing();
  }
  hide(): void {
    this.#visible = false;
  }
  isVisible(): boolean {
    return this.#visible;
  }
  focus(): void {
    focusedId = this.id;
  }
  isFocused(): boolean {
    return focusedId === this.id;
  }
  /** On Windows and Linux maximize() also shows a hidden window. */
  maximize(): void {
    this.#showing();
    this.#maximized = true;
  }
  unmaximize(): void {
    this.#maximized = false;
  }
  isMaximized(): boolean {
    return this.#maximized;
  }
  minimize(): void {
    this.#minimized = true;
  }
  isMinimized(): boolean {
    return this.#minimized;
  }
  restore(): void {
    this.#minimized = false;
  }
  getBounds() {
    return { ...this.#bounds };
  }
  getNormalBounds() {
    return { ...this.#bounds };
  }
  setBounds(bounds: Partial<{ x: number; y: number; width: number; height: number }>): void {
    this.#bounds = { ...this.#bounds, ...bounds };
  }
  setMenu(): void {}
  setTitle(): void {}

  close(): void {
    if (this.#destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
  }
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.webContents.destroy();
    if (focusedId === this.id) focusedId = undefined;
    this.emit('closed');
    app.windowClosed();
  }
}

// ── the rest of the main process's modules, as far as the app uses them ─────────────────────

export const utilityProcess = {
  fork(modulePath: string, args?: string[], options?: ForkOptions): StandInUtilityProcess {
    const child = new StandInUtilityProcess(modulePath, args, options);
    standIn.utilityProcesses.push(child);
    return child;
  },
};

const recordingEmitter = () => new EventEmitter();

/**
 * STANDIN_ELECTRON_PROXY (`http://user:password@host:port/realm`): a proxy that wants a typed
 * password stands between the app and every address but loopback (which Chromium never sends
 * through a proxy). Names under `.test` reach this machine through it, over plain http: the
 * proxy's doing, as the integration tests' proxy maps them.
 */
const corporateProxy = (() => {
  const given = process.env.STANDIN_ELECTRON_PROXY;
  if (!given) return undefined;
  const url = new URL(given);
  return {
    host: url.hostname,
    port: Number(url.port),
    realm: decodeURIComponent(url.pathname.slice(1)),
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
})();

function behindProxy(url: string): boolean {
  const { hostname } = new URL(url);
  return corporateProxy !== undefined && !['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

/** Where the proxy delivers a request for `url`. */
function delivered(url: string): string {
  const target = new URL(url);
  if (!target.hostname.endsWith('.test')) return url;
  target.protocol = 'http:';
  target.hostname = '127.0.0.1';
  return target.href;
}

type FetchInit = RequestInit & { bypassCustomProtocolHandlers?: boolean };

/**
 * A session of `session.fromPartition(partition, { cache })` (one per partition, as Electron
 * keeps them): its `fetch` is Chromium's stack in Electron, here Node's fetch, which answers
 * `redirect: 'manual'` and aborts as it does. Behind the proxy it answers the proxy's 407 until
 * the session holds the proxy's credentials: a session's fetch emits no 'login' to answer.
 */
class StandInSession {
  readonly partition: string;
  readonly cache: boolean | undefined;
  /** The proxy's credentials, once a request of this session was signed in. */
  proxySignedIn = false;

  constructor(partition: string, cache: boolean | undefined) {
    this.partition = partition;
    this.cache = cache;
  }

  fetch(url: string, init: FetchInit = {}): Promise<Response> {
    standIn.sessionFetches.push({
      partition: this.partition,
      cache: this.cache,
      origin: new URL(url).origin,
    });
    const { bypassCustomProtocolHandlers: _bypass, ...request } = init;
    if (!behindProxy(url)) return fetch(url, request);
    if (!this.proxySignedIn) return Promise.resolve(proxyRefusal());
    return fetch(delivered(url), request);
  }
}

function proxyRefusal(): Response {
  return new Response(null, {
    status: 407,
    headers: { 'proxy-authenticate': `Basic realm="${corporateProxy!.realm}"` },
  });
}

const sessions = new Map<string, StandInSession>();
function fromPartition(partition: string, options?: { cache?: boolean }) {
  let found = sessions.get(partition);
  if (!found) sessions.set(partition, (found = new StandInSession(partition, options?.cache)));
  return found;
}

/**
 * `net.request({ session, url, method })`, as far as a proxy sign-in uses it: behind the proxy
 * it emits 'login' (authInfo.isProxy) until answered with the proxy's credentials, which the
 * session then keeps; answered with nothing (or not listened to), the proxy's 407 comes back.
 */
class StandInClientRequest extends EventEmitter {
  readonly #options: { url: string; method?: string; session?: StandInSession };
  #aborted = false;

  constructor(options: { url: string; method?: string; session?: StandInSession }) {
    super();
    this.#options = options;
  }

  end(): void {
    setImmediate(() => this.#start());
  }
  abort(): void {
    this.#aborted = true;
  }

  #start(): void {
    const { url, method = 'GET', session: owner } = this.#options;
    standIn.netRequests.push({
      partition: owner?.partition ?? '',
      method,
      origin: new URL(url).origin,
    });
    if (behindProxy(url) && !owner?.proxySignedIn) this.#challenge();
    else void this.#send();
  }

  #challenge(): void {
    const proxy = corporateProxy!;
    const authInfo = {
      isProxy: true,
      scheme: 'basic',
      host: proxy.host,
      port: proxy.port,
      realm: proxy.realm,
    };
    const callback = (username?: string, password?: string) => {
      if (this.#aborted) return;
      if (username === undefined) {
        this.emit('response', { statusCode: 407, headers: {}, resume() {} });
        return;
      }
      const accepted = username === proxy.username && password === proxy.password;
      standIn.proxyLogins.push({
        partition: this.#options.session?.partition ?? '',
        username,
        accepted,
      });
      if (!accepted) return this.#challenge();
      if (this.#options.session) this.#options.session.proxySignedIn = true;
      void this.#send();
    };
    if (!this.emit('login', authInfo, callback)) callback();
  }

  async #send(): Promise<void> {
    const { url, method = 'GET' } = this.#options;
    try {
      const response = await fetch(delivered(url), { method, redirect: 'manual' });
      await response.body?.cancel();
      if (!this.#aborted) {
        this.emit('response', { statusCode: response.status, headers: {}, resume() {} });
      }
    } catch (error) {
      if (!this.#aborted) this.emit('error', error);
    }
  }
}

export const net = {
  request(options: { url: string; method?: string; session?: StandInSession }) {
    return new StandInClientRequest(options);
  },
};

export const session = {
  fromPartition,
  defaultSession: {
    permissionRequestHandler: undefined as unknown,
    setPermissionRequestHandler(handler: unknown) {
      this.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler() {},
    setDevicePermissionHandler() {},
    webRequest: {
      beforeRequest: undefined as unknown,
      onBeforeRequest(_filter: unknown, listener: unknown) {
        this.beforeRequest = listener;
      },
    },
  },
};

const workArea = { x: 0, y: 0, width: 1920, height: 1040 };
export const screen = {
  getPrimaryDisplay: () => ({
    id: 1,
    workArea,
    bounds: { ...workArea, height: 1080 },
    scaleFactor: 1,
  }),
  getAllDisplays: () => [screen.getPrimaryDisplay()],
};

export class Menu {
  static applicationMenu: Menu | null = null;
  static buildFromTemplate(template: unknown[]): Menu {
    return new Menu(template);
  }
  static setApplicationMenu(menu: Menu | null): void {
    Menu.applicationMenu = menu;
  }
  readonly template: unknown[];
  constructor(template: unknown[] = []) {
    this.template = template;
  }
}

export class Tray extends EventEmitter {
  static created = 0;
  constructor() {
    super();
    Tray.created++;
  }
  setToolTip(): void {}
  setContextMenu(): void {}
  destroy(): void {}
}

export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return true;
  }
  readonly options: unknown;
  constructor(options: unknown) {
    super();
    this.options = options;
  }
  show(): void {}
  close(): void {}
}

export const nativeImage = {
  createFromPath: (file: string) => ({ file, isEmpty: () => !existsSync(file) }),
  createEmpty: () => ({ isEmpty: () => true }),
};

export const dialog = {
  shown: [] as unknown[],
  showMessageBox(...args: unknown[]) {
    dialog.shown.push(args);
    return Promise.resolve({ response: 0, checkboxChecked: false });
  },
  showErrorBox(title: string, content: string) {
    dialog.shown.push([title, content]);
  },
  showSaveDialog() {
    return Promise.resolve({ canceled: true, filePath: '' });
  },
  showOpenDialog() {
    const folder = process.env.STANDIN_ELECTRON_OPEN_DIALOG;
    return Promise.resolve(
      folder ? { canceled: false, filePaths: [folder] } : { canceled: true, filePaths: [] },
    );
  },
};

export const shell = {
  opened: [] as string[],
  openExternal(url: string) {
    shell.opened.push(url);
    return Promise.resolve();
  },
  openPath(file: string) {
    shell.opened.push(file);
    return Promise.resolve('');
  },
  showItemInFolder() {},
};

/** No OS keychain behind Electron's own encryption here. */
export const safeStorage = {
  isEncryptionAvailable: () => false,
  encryptString: () => {
    throw new Error('Encryption is not available.');
  },
  decryptString: () => {
    throw new Error('Decryption is not available.');
  },
};

export const nativeTheme = Object.assign(recordingEmitter(), {
  shouldUseDarkColors: false,
  themeSource: 'system' as 'system' | 'light' | 'dark',
});
