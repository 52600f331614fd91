import type {
  BrowserWindow as ElectronBrowserWindow,
  BrowserWindowConstructorOptions,
  CustomScheme,
  Session,
  WebContents,
} from 'electron';

/**
 * Electron's security checklist as code: the policy (pure decisions, unit tested) and small
 * functions that apply it to the objects Electron hands us. Nothing here imports Electron at
 * run time, so tests give these functions fakes.
 * https://www.electronjs.org/docs/latest/tutorial/security
 */

/** The renderer is served from this privileged scheme, never from file:// (checklist item 18). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'plantdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * `standard` gives the scheme real origins and relative URLs, `secure` makes it a secure
 * context, `supportFetchAPI` lets the bundle load its module scripts. `corsEnabled` stays unset:
 * it would let other origins read our files.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

/**
 * Creates every PlantDesk window, with exactly these web preferences (checklist items 2-4, 6,
 * 9-12). They are spelled out inside `new BrowserWindow(...)` so that Electronegativity's static
 * checks see them; the constructor is passed in so that tests can record what it received.
 */
export function createSecureWindow(
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => ElectronBrowserWindow,
  options: Omit<BrowserWindowConstructorOptions, 'webPreferences'>,
  preload: string,
  /** DevTools exist only in development (`!app.isPackaged`): in a user's app they are a console. */
  devTools: boolean,
): ElectronBrowserWindow {
  return new BrowserWindow({
    ...options,
    webPreferences: {
      // Our own bundle; it exposes the IPC contract and nothing else (electron/preload/api.ts).
      preload, // eng-disable PRELOAD_JS_CHECK reviewed
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Middle-click would open links as new windows; they are denied anyway, this stops the try.
      disableBlinkFeatures: 'Auxclick',
      devTools,
    },
  });
}

/**
 * `scheme://host[:port]` of an address, or undefined if it does not parse. WHATWG `URL.origin`
 * is 'null' for schemes it does not know (app:), so the origin is rebuilt from its parts.
 */
export function originOf(address: string): string | undefined {
  try {
    const url = new URL(address);
    // Host names are case-insensitive; WHATWG lowercases them only for the schemes it knows.
    return url.host === '' ? undefined : `${url.protocol}//${url.host.toLowerCase()}`;
  } catch {
    return undefined;
  }
}

/** True for addresses of our renderer: the app origin (or, in development, the dev server). */
export function isAppUrl(address: string, appOrigin: string = APP_ORIGIN): boolean {
  return originOf(address) === appOrigin;
}

/** Requests the renderer may make over the network: only to the development server, if any. */
export function isRendererRequestAllowed(address: string, appOrigin: string): boolean {
  const origin = originOf(address);
  if (origin === undefined) return false;
  if (origin === appOrigin) return true;
  // Vite's hot reload socket lives on the dev server's host and port.
  const wsTwin = origin.replace(/^ws(s?):/, 'http$1:');
  return wsTwin === appOrigin;
}

/** What a window may open in the system browser: https only; the allow-list is the service's. */
export function isHttpsUrl(address: string): boolean {
  try {
    return new URL(address).protocol === 'https:';
  } catch {
    return false;
  }
}

export interface BlockedAction {
  what: 'navigation' | 'redirect' | 'frameNavigation' | 'newWindow' | 'webview';
  url: string;
}

export interface HardenOptions {
  appOrigin: string;
  /** Called for https links a page tries to open in a new window: they go to the system browser. */
  openLink(url: string): void;
  onBlocked(action: BlockedAction): void;
}

type PreventableEvent = { preventDefault(): void; url?: string };

/**
 * Applies the checklist to every web contents Electron creates (`app.on('web-contents-created')`):
 * no navigation away from our origin (item 13), no new windows (item 14; https links go to the
 * system browser through the allow-listed service), no <webview> (item 12).
 */
export function hardenWebContents(contents: WebContents, options: HardenOptions): void {
  const guard =
    (what: BlockedAction['what']) =>
    (event: PreventableEvent, url?: string): void => {
      const target = event.url ?? url ?? '';
      if (isAppUrl(target, options.appOrigin)) return;
      event.preventDefault();
      options.onBlocked({ what, url: target });
    };
  contents.on('will-navigate', guard('navigation'));
  contents.on('will-frame-navigate', guard('frameNavigation'));
  contents.on('will-redirect', guard('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    options.onBlocked({ what: 'webview', url: '' });
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isHttpsUrl(url)) options.openLink(url);
    else options.onBlocked({ what: 'newWindow', url });
    return { action: 'deny' };
  });
}

type PermissionSession = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
>;

/**
 * Checklist item 5: the app needs one permission, the camera, for the installer's photos in the
 * commissioning wizard. It is granted only to the main frame of the app's own origin and only
 * for video (no microphone); every other ask is no, and every refusal is logged.
 */
export function allowOnlyCamera(
  session: PermissionSession,
  appOrigin: string,
  onDenied: (permission: string) => void,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const media = details as { mediaTypes?: string[]; isMainFrame?: boolean };
    const granted =
      permission === 'media' &&
      media.isMainFrame === true &&
      originOf(details.requestingUrl) === appOrigin &&
      (media.mediaTypes ?? []).length > 0 &&
      (media.mediaTypes ?? []).every((type) => type === 'video');
    if (!granted) onDenied(permission);
    callback(granted);
  });
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin, details) =>
      permission === 'media' &&
      details.mediaType !== 'audio' &&
      originOf(requestingOrigin) === appOrigin,
  );
  session.setDevicePermissionHandler(() => false);
}

type RequestSession = { webRequest: Pick<Session['webRequest'], 'onBeforeRequest'> };

/**
 * Remote content is never loaded (checklist item 1): the renderer reaches the API through IPC,
 * so any http(s) or websocket request from a page is cancelled, except to the dev server.
 */
export function blockRemoteRequests(
  session: RequestSession,
  appOrigin: string,
  onBlocked: (url: string) => void,
): void {
  const filter = { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] };
  session.webRequest.onBeforeRequest(filter, (details, callback) => {
    const allowed = isRendererRequestAllowed(details.url, appOrigin);
    if (!allowed) onBlocked(details.url);
    callback({ cancel: !allowed });
  });
}
