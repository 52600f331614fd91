import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  isMac: boolean;
  appName: string;
  /** Shows the name and version (a dialog; macOS also has the native panel in the app menu). */
  showAbout(): void;
  /** Opens the folder with the log files in the system file manager. */
  openLogsFolder(): void;
  /** Development builds only (`!app.isPackaged`): the View menu's reload and DevTools. */
  devTools: boolean;
}

/** A packaged app's View menu: zoom and full screen; no reload, no DevTools toggle. */
const PACKAGED_VIEW_MENU: MenuItemConstructorOptions = {
  label: 'View',
  submenu: [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ],
};

/**
 * The application menu: Electron's standard roles (so shortcuts, Services, Hide, Window and
 * the edit commands behave natively on every platform) plus Help with About and "Open Logs
 * Folder", which support asks for first.
 */
export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      { type: 'separator' },
      { label: `About ${actions.appName}`, click: () => actions.showAbout() },
    ],
  };
  return [
    ...(actions.isMac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    actions.devTools ? { role: 'viewMenu' } : PACKAGED_VIEW_MENU,
    { role: 'windowMenu' },
    help,
  ];
}
