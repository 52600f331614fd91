import { EventEmitter } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type {
  BrowserWindow,
  BrowserWindowConstructorOptions,
  HandlerDetails,
  Session,
  WebContents,
} from 'electron';
import { describe, expect, it, vi } from 'vitest';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  blockRemoteRequests,
  allowOnlyCamera,
  createSecureWindow,
  hardenWebContents,
  isAppUrl,
  isHttpsUrl,
  isRendererRequestAllowed,
  originOf,
  type BlockedAction,
} from '../../../electron/main/security.ts';
import { CONTENT_SECURITY_POLICY } from '../../../electron/services/contentSecurityPolicy.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('createSecureWindow', () => {
  function create(options = {}, devTools = false) {
    const received: BrowserWindowConstructorOptions[] = [];
    class FakeBrowserWindow {
      constructor(options: BrowserWindowConstructorOptions) {
        received.push(options);
      }
    }
    createSecureWindow(
      FakeBrowserWindow as unknown as typeof BrowserWindow,
      options,
      '/app/out/preload/index.cjs',
      devTools,
    );
    return received[0]!;
  }

  it('turns on isolation and the sandbox and everything risky off', () => {
    expect(create().webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
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
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
  });

  it('has DevTools only when asked (development builds)', () => {
    expect(create({}, true).webPreferences?.devTools).toBe(true);
    expect(create({}, false).webPreferences?.devTools).toBe(false);
  });

  it('keeps the window options and never enables Blink features', () => {
    const options = create({ width: 900, height: 700, show: false, title: 'PlantDesk' });
    expect(options).toMatchObject({ width: 900, height: 700, show: false, title: 'PlantDesk' });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.webPreferences).not.toHaveProperty('additionalArguments');
  });
});

describe('the app:// scheme', () => {
  it('is standard and secure, and neither bypasses CSP nor opens itself to other origins', () => {
    expect(APP_ENTRY_URL).toBe('app://plantdesk/index.html');
    expect(APP_SCHEME_PRIVILEGES.scheme).toBe('app');
    expect(APP_SCHEME_PRIVILEGES.privileges).toMatchObject({ standard: true, secure: true });
    expect(APP_SCHEME_PRIVILEGES.privileges?.bypassCSP).toBeFalsy();
    expect(APP_SCHEME_PRIVILEGES.privileges?.corsEnabled).toBeFalsy();
  });

  it('sends the strict Content-Security-Policy', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('sends the same policy as the meta tag of renderer/index.html', () => {
    const html = readFileSync(path.join(root, 'renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });
});

describe('origins', () => {
  it.each([
    ['app://plantdesk/index.html', 'app://plantdesk'],
    ['app://plantdesk/', 'app://plantdesk'],
    ['APP://PlantDesk/x', 'app://plantdesk'],
    ['http://localhost:5173/src/main.ts', 'http://localhost:5173'],
    ['https://evil.example/a?b', 'https://evil.example'],
    ['file:///etc/passwd', undefined],
    ['about:blank', undefined],
    ['not a url', undefined],
  ])('originOf(%s) is %s', (address, origin) => {
    expect(originOf(address)).toBe(origin);
  });

  it('isAppUrl accepts only our origin', () => {
    expect(isAppUrl('app://plantdesk/plants/1')).toBe(true);
    expect(isAppUrl('app://plantdesk.evil.example/')).toBe(false);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('https://plantdesk/')).toBe(false);
    expect(isAppUrl('file:///app/index.html')).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
  });

  it('lets the renderer reach only the development server over the network', () => {
    expect(isRendererRequestAllowed('https://api.example/plants', APP_ORIGIN)).toBe(false);
    expect(isRendererRequestAllowed('http://127.0.0.1:8080/plants', APP_ORIGIN)).toBe(false);
    expect(isRendererRequestAllowed('wss://evil.example/', APP_ORIGIN)).toBe(false);
    const dev = 'http://localhost:5173';
    expect(isRendererRequestAllowed('http://localhost:5173/src/main.ts', dev)).toBe(true);
    expect(isRendererRequestAllowed('ws://localhost:5173/', dev)).toBe(true);
    expect(isRendererRequestAllowed('ws://localhost:9999/', dev)).toBe(false);
    expect(isRendererRequestAllowed('https://localhost:5173/', dev)).toBe(false);
  });

  it('opens only https addresses externally', () => {
    expect(isHttpsUrl('https://plantdesk.example/help')).toBe(true);
    expect(isHttpsUrl('http://plantdesk.example/')).toBe(false);
    expect(isHttpsUrl('file:///C:/Windows/system32/calc.exe')).toBe(false);
    expect(isHttpsUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpsUrl('smb://host/share')).toBe(false);
  });
});

describe('hardenWebContents', () => {
  function fakeContents() {
    const emitter = new EventEmitter();
    let openHandler: ((details: HandlerDetails) => { action: string }) | undefined;
    const contents = Object.assign(emitter, {
      setWindowOpenHandler(handler: typeof openHandler) {
        openHandler = handler;
      },
    });
    const opened: string[] = [];
    const blocked: BlockedAction[] = [];
    hardenWebContents(contents as unknown as WebContents, {
      appOrigin: APP_ORIGIN,
      openLink: (url) => opened.push(url),
      onBlocked: (action) => blocked.push(action),
    });
    const fire = (name: string, url: string) => {
      const event = { url, preventDefault: vi.fn() };
      emitter.emit(name, event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    const open = (url: string) => openHandler!({ url } as HandlerDetails);
    return { fire, open, opened, blocked, emitter };
  }

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])(
    'prevents %s to another origin and lets our own through',
    (name) => {
      const { fire, blocked } = fakeContents();
      expect(fire(name, 'https://evil.example/')).toBe(true);
      expect(fire(name, 'file:///etc/passwd')).toBe(true);
      expect(fire(name, 'app://plantdesk/plants/7')).toBe(false);
      expect(blocked.map((action) => action.url)).toEqual([
        'https://evil.example/',
        'file:///etc/passwd',
      ]);
    },
  );

  it('prevents every <webview>', () => {
    const { emitter, blocked } = fakeContents();
    const event = { preventDefault: vi.fn() };
    emitter.emit('will-attach-webview', event, {}, { src: 'app://plantdesk/index.html' });
    expect(event.preventDefault).toHaveBeenCalled();
    expect(blocked).toEqual([{ what: 'webview', url: '' }]);
  });

  it('denies every new window; https links go to the system browser instead', () => {
    const { open, opened, blocked } = fakeContents();
    expect(open('https://plantdesk.example/docs')).toEqual({ action: 'deny' });
    expect(open('app://plantdesk/index.html')).toEqual({ action: 'deny' });
    expect(open('http://plantdesk.example/')).toEqual({ action: 'deny' });
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://plantdesk.example/docs']);
    expect(blocked.map((action) => action.what)).toEqual(['newWindow', 'newWindow', 'newWindow']);
  });
});

describe('session policy', () => {
  function permissionHandlers() {
    let requestHandler: Parameters<Session['setPermissionRequestHandler']>[0] = null;
    let checkHandler: Parameters<Session['setPermissionCheckHandler']>[0] = null;
    let deviceHandler: Parameters<Session['setDevicePermissionHandler']>[0] = null;
    const denied: string[] = [];
    allowOnlyCamera(
      {
        setPermissionRequestHandler: (handler) => (requestHandler = handler),
        setPermissionCheckHandler: (handler) => (checkHandler = handler),
        setDevicePermissionHandler: (handler) => (deviceHandler = handler),
      },
      APP_ORIGIN,
      (permission) => denied.push(permission),
    );
    const ask = (permission: string, details: object) => {
      let answer: boolean | undefined;
      requestHandler!(
        {} as WebContents,
        permission as never,
        (granted) => (answer = granted),
        details as never,
      );
      return answer;
    };
    return { ask, check: checkHandler!, device: deviceHandler!, denied };
  }

  it('grants the camera to the main frame of the app only, and denies every other permission', () => {
    const { ask, check, device, denied } = permissionHandlers();
    const camera = { requestingUrl: APP_ENTRY_URL, isMainFrame: true, mediaTypes: ['video'] };
    expect(ask('media', camera)).toBe(true);
    expect(ask('media', { ...camera, mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(ask('media', { ...camera, mediaTypes: [] })).toBe(false);
    expect(ask('media', { ...camera, isMainFrame: false })).toBe(false);
    expect(ask('media', { ...camera, requestingUrl: 'https://evil.example/' })).toBe(false);
    expect(ask('media', { ...camera, requestingUrl: 'http://localhost:5173/' })).toBe(false);
    for (const permission of ['geolocation', 'notifications', 'clipboard-read']) {
      expect(ask(permission, { requestingUrl: APP_ENTRY_URL, isMainFrame: true })).toBe(false);
    }
    expect(denied).toEqual([
      'media',
      'media',
      'media',
      'media',
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
    ]);
    expect(check(null, 'media', APP_ORIGIN, { mediaType: 'video' } as never)).toBe(true);
    expect(check(null, 'media', APP_ORIGIN, { mediaType: 'audio' } as never)).toBe(false);
    expect(check(null, 'media', 'https://evil.example', {} as never)).toBe(false);
    expect(check(null, 'geolocation', APP_ORIGIN, {} as never)).toBe(false);
    expect(device({} as never)).toBe(false);
  });

  it('cancels renderer requests to the network', () => {
    let listener: ((details: { url: string }, callback: (r: object) => void) => void) | undefined;
    let urls: string[] = [];
    const blocked: string[] = [];
    blockRemoteRequests(
      {
        webRequest: {
          onBeforeRequest: ((filter: { urls: string[] }, handler: typeof listener) => {
            urls = filter.urls;
            listener = handler;
          }) as never,
        },
      },
      APP_ORIGIN,
      (url) => blocked.push(url),
    );
    expect(urls).toEqual(['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*']);
    const answer = (url: string) => {
      let response: object | undefined;
      listener!({ url }, (r) => (response = r));
      return response;
    };
    expect(answer('https://tracker.example/pixel.gif')).toEqual({ cancel: true });
    expect(blocked).toEqual(['https://tracker.example/pixel.gif']);
  });
});

describe('main-process modules', () => {
  it('import Electron only as types, except the wiring in index.ts and the preload entry', () => {
    const checked: string[] = [];
    for (const folder of ['electron/main', 'electron/preload']) {
      for (const name of readdirSync(path.join(root, folder))) {
        if (!name.endsWith('.ts') || name === 'index.ts') continue;
        const source = readFileSync(path.join(root, folder, name), 'utf8');
        const runtimeImport = /^import\s+(?!type\b)[^;]*from\s+'electron'/m;
        expect(runtimeImport.test(source), `${folder}/${name}`).toBe(false);
        checked.push(name);
      }
    }
    expect(checked).toContain('security.ts');
    expect(checked).toContain('api.ts');
  });
});
