import type { MenuItemConstructorOptions } from 'electron';
import type { Translate } from '../../i18n/translator.ts';

export interface MenuActions {
  isMac: boolean;
  appName: string;
  /** The user's language (menu.* messages). */
  t: Translate;
  /** Shows the name and version (a dialog; macOS also has the native panel in the app menu). */
  showAbout(): void;
  /** Opens the folder with the log files in the system file manager. */
  openLogsFolder(): void;
  /** Shows the support screen, where a support bundle is made and saved. */
  openSupport(): void;
  /** Development builds only (`!app.isPackaged`): the View menu's reload and DevTools. */
  devTools: boolean;
}

/** A packaged app's View menu: zoom and full screen; no reload, no DevTools toggle. */
const packagedViewMenu = (t: Translate): MenuItemConstructorOptions => ({
  label: t('menu.view'),
  submenu: [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ],
});

/**
 * The application menu: Electron's standard roles (so shortcuts, Services, Hide, Window and
 * the edit commands behave natively on every platform) plus Help with About, "Open Logs
 * Folder" and "Create Support Bundle…", which support asks for first.
 */
export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: actions.t('menu.openLogsFolder'), click: () => actions.openLogsFolder() },
      { label: actions.t('menu.supportBundle'), click: () => actions.openSupport() },
      { type: 'separator' },
      {
        label: actions.t('menu.about', { app: actions.appName }),
        click: () => actions.showAbout(),
      },
    ],
  };
  return [
    ...(actions.isMac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    actions.devTools ? { role: 'viewMenu' } : packagedViewMenu(actions.t),
    { role: 'windowMenu' },
    help,
  ];
}
