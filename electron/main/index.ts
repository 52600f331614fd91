import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  net,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
  utilityProcess,
  type WebContents,
} from 'electron';
import { createDispatcher, type Dispatch } from '../ipc/dispatch.ts';
import { appRoot } from '../../server/appRoot.ts';
import { recordCrashes } from '../services/crashRecorder.ts';
import { createFileLog, type FileLog } from '../services/fileLog.ts';
import { startPlantDesk, type PlantDesk } from '../services/plantDesk.ts';
import { createLanguagePreference } from '../services/languagePreference.ts';
import { createTranslator, type Translate } from '../../i18n/translator.ts';
import trayIconPath from '../../build/icons/32x32.png?asset';
import { createAddressConfirmation } from './addressConfirmation.ts';
import { createAlertNotifier, createAlertTray, type AlertTray } from './alertTray.ts';
import { createAppProtocolHandler } from './appProtocol.ts';
import { createSenderCheck, forwardEvents, registerChannels } from './ipcRouter.ts';
import { buildMenuTemplate } from './menu.ts';
import { apiTransportFor, type LoginRequest } from './netTransport.ts';
import { createPdfExport, PDF_OPTIONS } from './pdfExport.ts';
import { createBundleSaver } from '../services/supportBundle/bundleSaver.ts';
import { appProfile } from './profile.ts';
import { builtPaths, environmentsDefaultsFile } from './paths.ts';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  allowOnlyCamera,
  blockRemoteRequests,
  createSecureWindow,
  hardenWebContents,
  isHttpsUrl,
  originOf,
} from './security.ts';
import { createUtilityProcessServer } from './utilityProcessServer.ts';
import {
  initialWindowBounds,
  loadWindowState,
  MIN_SIZE,
  saveWindowState,
  showWhenReady,
  WINDOW_STATE_FILE,
} from './windowState.ts';

/**
 * The main process: wiring only. Policy lives in security.ts, the IPC router in ipcRouter.ts,
 * the services in electron/services (startPlantDesk), each unit tested without Electron.
 */

const APP_NAME = 'PlantDesk';
/** Quitting waits this long for the services (the Local sandbox server) to stop. */
const DISPOSE_TIMEOUT_MS = 10_000;

// A dev run's or a separate data folder (tests, a second profile). Set before anything reads
// userData: the single-instance lock is per data folder.
const profile = appProfile({
  isPackaged: app.isPackaged,
  appData: app.getPath('appData'),
  userDataOverride: process.env.PLANTDESK_USER_DATA_DIR,
});
if (profile.userData) {
  app.setPath('userData', profile.userData);
  app.setAppLogsPath(path.join(profile.userData, 'logs'));
}

// Checklist: the sandbox for every renderer, and app:// registered before the app is ready.
app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

if (!app.requestSingleInstanceLock()) {
  // Another PlantDesk owns this data folder; it focuses its window (second-instance below).
  app.quit();
} else {
  main();
}

function main(): void {
  const paths = builtPaths(appRoot(import.meta.dirname));
  // `npm run dev`: electron-vite serves the renderer with hot reload; never in a packaged app.
  const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const appOrigin = (devServerUrl && originOf(devServerUrl)) || APP_ORIGIN;
  const entryUrl = devServerUrl ?? APP_ENTRY_URL;

  const windows = new Map<BrowserWindow, WebContents>();
  const ourWebContents = () => [...windows.values()];
  /** The schedule's hidden print windows: they call the API as a page does, but get no events. */
  const printWindows = new Map<BrowserWindow, WebContents>();
  let log: FileLog | undefined;
  let plantDesk: PlantDesk | undefined;

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, {
      appOrigin,
      openLink(url) {
        // Through the service, so a link in a page meets the same allow-list as the channel.
        plantDesk?.handlers['shell.openExternal'](url).catch((error: unknown) => {
          log?.warn('Link not opened', { origin: originOf(url), error: String(error) });
        });
      },
      onBlocked(action) {
        log?.warn('Blocked by the security policy', {
          what: action.what,
          origin: originOf(action.url),
        });
      },
    });
  });

  app.on('second-instance', () => showWindow());

  function createMainWindow(): BrowserWindow {
    const stateFile = path.join(app.getPath('userData'), WINDOW_STATE_FILE);
    const primary = screen.getPrimaryDisplay();
    const workAreas = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map(
      (display) => display.workArea,
    );
    const initial = initialWindowBounds(loadWindowState(stateFile), workAreas);
    const window = createSecureWindow(
      BrowserWindow,
      {
        ...(initial.x !== undefined && { x: initial.x, y: initial.y }),
        width: initial.width,
        height: initial.height,
        minWidth: MIN_SIZE.width,
        minHeight: MIN_SIZE.height,
        title: APP_NAME,
        show: false,
      },
      paths.preload,
      !app.isPackaged,
    );
    const contents = window.webContents;
    windows.set(window, contents);
    showWhenReady(window, initial.maximized);
    window.on('close', () => {
      try {
        saveWindowState(stateFile, {
          bounds: window.getNormalBounds(),
          maximized: window.isMaximized(),
        });
      } catch (error) {
        log?.warn('Window position not saved', { error: String(error) });
      }
    });
    window.on('closed', () => windows.delete(window));
    window.loadURL(entryUrl).catch((error: unknown) => {
      log?.error('The window could not load PlantDesk', { error: String(error) });
    });
    return window;
  }

  /** The existing window brought forward, or a new one. */
  function showWindow(): void {
    const [window] = windows.keys();
    if (window === undefined) {
      if (app.isReady()) createMainWindow();
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }
  let tray: AlertTray | undefined;
  /** The user's language once the services run (English before). */
  const translator = (): Translate => plantDesk?.language.translator() ?? createTranslator('en');

  /** The focused PlantDesk window, else the first: where a save dialog is modal to. */
  function focusedWindow(): BrowserWindow | undefined {
    const focused = BrowserWindow.getFocusedWindow();
    return focused && windows.has(focused) ? focused : windows.keys().next().value;
  }

  /** Where save dialogs open; undefined when the platform has no Documents folder. */
  function documentsFolder(): string | undefined {
    try {
      return app.getPath('documents');
    } catch {
      return undefined;
    }
  }

  function showAbout(): void {
    const [window] = windows.keys();
    const options = {
      type: 'info' as const,
      title: translator()('menu.about', { app: APP_NAME }),
      message: `${APP_NAME} ${app.getVersion()}`,
      detail: `Electron ${process.versions.electron}, Chromium ${process.versions.chrome}, Node.js ${process.versions.node}`,
    };
    void (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
  }

  app.whenReady().then(async () => {
    const logDir = app.getPath('logs');
    log = createFileLog({ dir: logDir, fileName: 'main.log' });
    const fileLog = log;
    fileLog.info('PlantDesk starting', {
      version: app.getVersion(),
      electron: process.versions.electron,
      platform: process.platform,
      packaged: app.isPackaged,
    });
    recordCrashes(
      { process, app },
      {
        log: fileLog,
        logPath: fileLog.path,
        async tellRendererGone(details, logPath) {
          const t = translator();
          const [window] = windows.keys();
          const options = {
            type: 'error' as const,
            title: t('host.rendererGone.title'),
            message: t('host.rendererGone.message', { app: APP_NAME }),
            detail: t('host.rendererGone.detail', { reason: details.reason, log: logPath }),
            buttons: [t('host.rendererGone.reload')],
          };
          await (window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options));
        },
      },
    );

    const defaultSession = session.defaultSession;
    allowOnlyCamera(defaultSession, appOrigin, (permission) =>
      fileLog.warn('Permission request denied', { permission }),
    );
    blockRemoteRequests(defaultSession, appOrigin, (url) =>
      fileLog.warn('Remote request blocked', { origin: originOf(url) }),
    );
    protocol.handle(APP_SCHEME, createAppProtocolHandler(paths.rendererDir));

    // Handlers exist before the window loads; calls made while the services start wait for them.
    const starting = startPlantDesk({
      host: 'electron',
      version: app.getVersion(),
      dataDir: app.getPath('userData'),
      keychainService: profile.keychainService,
      logDir,
      defaultsFile: environmentsDefaultsFile({
        isPackaged: app.isPackaged,
        platform: process.platform,
        exePath: app.getPath('exe'),
        appPath: app.getAppPath(),
        env: process.env,
      }),
      spawnServer: createUtilityProcessServer({
        fork: (modulePath, args, options) => utilityProcess.fork(modulePath, args, options),
        modulePath: paths.localServer,
      }),
      log: fileLog,
      // API calls on Chromium's stack (system proxies, OS trust store), in a session of their own.
      fetch: {
        // A proxy's request for a password is answered from the window's dialog (proxyAuth.ts).
        withProxyLogin: (auth) =>
          apiTransportFor(session, {
            // ClientRequest's overloaded `on` lists every event; the sign-in listens to three.
            request: (options) => net.request(options) as unknown as LoginRequest,
            auth,
          }),
      },
      notify: createAlertNotifier({
        createNotification: (options) => new Notification(options),
        isSupported: () => Notification.isSupported(),
        showAlerts: showWindow,
      }),
      systemLanguages: () => app.getPreferredSystemLanguages(),
      onLanguageChanged: () => {
        applyMenu();
        tray?.relabel();
      },
      // Running at a chosen instant: `--clock=2026-06-21T12:00:00+02:00` or PLANTDESK_CLOCK.
      clock: app.commandLine.getSwitchValue('clock') || process.env.PLANTDESK_CLOCK || undefined,
      async openExternal(url: string) {
        // Defence in depth: the service checks its allow-list, this never opens non-https.
        if (!isHttpsUrl(url)) throw new Error('Only https addresses open in the browser');
        await shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK https only and allow-listed
      },
      confirmAddressChange: createAddressConfirmation({
        window: () => BrowserWindow.getFocusedWindow() ?? windows.keys().next().value,
        showMessageBox: (window, options) =>
          window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options),
        t: translator,
      }),
      // The commissioning report: the focused PlantDesk window's page, where the user chooses.
      savePdf: createPdfExport({
        window: focusedWindow,
        showSaveDialog: (window, options) => dialog.showSaveDialog(window, options),
        writeFile: (filePath, data, { exclusive }) =>
          writeFile(filePath, data, { flag: exclusive ? 'wx' : 'w' }),
        defaultDirectory: documentsFolder,
        t: translator,
      }),
      // The monthly report schedule's folder, from the folder dialog only.
      async chooseFolder() {
        const window = focusedWindow();
        const options: Electron.OpenDialogOptions = {
          title: translator()('reports.schedule.folder'),
          defaultPath: documentsFolder(),
          properties: ['openDirectory', 'createDirectory'],
        };
        const choice = window
          ? await dialog.showOpenDialog(window, options)
          : await dialog.showOpenDialog(options);
        return choice.canceled ? null : (choice.filePaths[0] ?? null);
      },
      // The schedule's PDFs: the report screen's document in a hidden window of the same policy.
      openPrintWindow(hash, failed) {
        // Never shown nor focused; the app's session, so the same app:// protocol, CSP and
        // request policy as the main window, and the hardening every web contents gets.
        const window = createSecureWindow(
          BrowserWindow,
          { show: false, width: 1000, height: 1400, title: APP_NAME },
          paths.preload,
          false,
        );
        const contents = window.webContents;
        printWindows.set(window, contents);
        // Closed under the run (the app quitting) or its page gone: the run fails now, not at
        // its deadline. After the print, the printer's own destroy() makes this a no-op.
        window.on('closed', () => {
          printWindows.delete(window);
          failed('the print window was closed');
        });
        contents.on('render-process-gone', (_event, details) =>
          failed(`the print page's process ended (${details.reason})`),
        );
        window.loadURL(`${entryUrl}${hash}`).catch((error: unknown) => failed(String(error)));
        return {
          printToPDF: () => contents.printToPDF(PDF_OPTIONS),
          destroy: () => window.destroy(),
        };
      },
      // A support bundle: written where the user chooses, atomically, 0600.
      saveSupportBundle: createBundleSaver({
        window: focusedWindow,
        showSaveDialog: (window, options) => dialog.showSaveDialog(window, options),
        defaultDirectory: documentsFolder,
        t: translator,
      }),
    });
    const dispatchReady: Promise<Dispatch> = starting.then((started) =>
      createDispatcher(started.handlers, (channel, error) =>
        fileLog.error('IPC handler failed', { channel, error: String(error) }),
      ),
    );
    // An unhandled rejection here would be reported twice; the catch below reports it once.
    dispatchReady.catch(() => {});
    const unregisterChannels = registerChannels({
      ipcMain,
      dispatch: async (channel, args) => (await dispatchReady)(channel, args),
      isTrustedSender: createSenderCheck({
        ourWebContents: () => [...ourWebContents(), ...printWindows.values()],
        appOrigin,
      }),
      // A prepared report is for the print window it was made for, never the app's own window.
      senderRules: {
        'reports.preparedReport': (event) => [...printWindows.values()].includes(event.sender),
      },
      log: fileLog,
    });

    app.setAboutPanelOptions({
      applicationName: APP_NAME,
      applicationVersion: app.getVersion(),
      version: `Electron ${process.versions.electron}`,
    });
    // In the user's language, and again whenever they choose another.
    function applyMenu(): void {
      starting.then(
        ({ language }) =>
          Menu.setApplicationMenu(
            Menu.buildFromTemplate(
              buildMenuTemplate({
                isMac: process.platform === 'darwin',
                appName: APP_NAME,
                t: language.translator(),
                showAbout,
                devTools: !app.isPackaged,
                openSupport() {
                  showWindow();
                  plantDesk?.events.emit('supportBundle.open', {});
                },
                openLogsFolder() {
                  shell.openPath(logDir).then(
                    (problem) => {
                      if (problem) fileLog.warn('Logs folder not opened', { problem });
                    },
                    () => {},
                  );
                },
              }),
            ),
          ),
        () => {},
      );
    }
    applyMenu();

    let stopForwarding = () => {};
    let shutdown: 'no' | 'running' | 'done' = 'no';
    app.on('before-quit', (event) => {
      if (shutdown === 'done') return;
      event.preventDefault();
      if (shutdown === 'running') return;
      shutdown = 'running';
      void (async () => {
        unregisterChannels();
        stopForwarding();
        try {
          const started = await withTimeout(starting, DISPOSE_TIMEOUT_MS);
          await withTimeout(started.dispose(), DISPOSE_TIMEOUT_MS);
          fileLog.info('PlantDesk stopped');
        } catch (error) {
          fileLog.error('PlantDesk did not stop cleanly', { error: String(error) });
        }
        await fileLog.close();
        log = undefined;
        shutdown = 'done';
        app.quit();
      })();
    });

    createMainWindow();
    app.on('activate', () => {
      if (windows.size === 0) createMainWindow();
    });

    try {
      plantDesk = await starting;
    } catch (error) {
      fileLog.error('PlantDesk services failed to start', { error: String(error) });
      // The services never ran, but the user's choice of language is kept in the data folder.
      const t = createLanguagePreference({
        dataDir: app.getPath('userData'),
        systemLanguages: () => app.getPreferredSystemLanguages(),
        log: fileLog,
      }).translator();
      dialog.showErrorBox(
        t('host.startFailed.title', { app: APP_NAME }),
        t('host.startFailed.detail', { error: String(error), folder: logDir }),
      );
      app.exit(1);
      return;
    }
    if (shutdown === 'no') {
      stopForwarding = forwardEvents(plantDesk.events, ourWebContents, appOrigin);
      const { monitor, events } = plantDesk;
      const alertTray = createAlertTray({
        createTray: () => new Tray(nativeImage.createFromPath(trayIconPath)),
        buildMenu: (items) => Menu.buildFromTemplate(items),
        appName: APP_NAME,
        showWindow,
        showAlerts: showWindow,
        quit: () => app.quit(),
        t: translator,
      });
      tray = alertTray;
      const followSettings = () => {
        alertTray.setEnabled(monitor.settings().keepInTray);
        alertTray.setOpenCount(monitor.openCount());
      };
      followSettings();
      events.on('alerts.changed', followSettings);
    }
    fileLog.info('PlantDesk services started');
  });

  app.on('window-all-closed', () => {
    // Kept in the tray (a setting): the monitor goes on watching until Quit.
    if (tray?.enabled) return;
    // macOS apps stay in the Dock until Quit; elsewhere the last window closing quits.
    if (process.platform !== 'darwin') app.quit();
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
