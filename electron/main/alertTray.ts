import type { Translate } from '../../i18n/translator.ts';
import type { AlertNotification } from '../ipc/contract.ts';

/**
 * Alerts outside the window: an OS notification per plant and cycle, and, when the user chose
 * to keep PlantDesk running with its window closed, a tray icon with the open-alert count. The
 * Electron classes come in as arguments so this wiring is tested with fakes.
 */

interface NotificationLike {
  on(event: 'click', listener: () => void): void;
  show(): void;
}
export type NotificationFactory = (options: { title: string; body: string }) => NotificationLike;

export function createAlertNotifier(deps: {
  createNotification: NotificationFactory;
  isSupported(): boolean;
  /** Brings the window forward on the alerts screen. */
  showAlerts(): void;
}): (notification: AlertNotification) => void {
  return (notification) => {
    if (!deps.isSupported()) return;
    const shown = deps.createNotification({ title: notification.title, body: notification.body });
    shown.on('click', () => deps.showAlerts());
    shown.show();
  };
}

interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): void;
  destroy(): void;
}

export interface TrayDeps {
  createTray(): TrayLike;
  buildMenu(items: { label: string; click: () => void }[]): unknown;
  appName: string;
  showWindow(): void;
  showAlerts(): void;
  quit(): void;
  /** The user's language, read at each refresh. */
  t(): Translate;
}

export interface AlertTray {
  /** Shows or removes the tray icon as the setting says. */
  setEnabled(enabled: boolean): void;
  setOpenCount(count: number): void;
  /** The user's language changed: the labels are written again in it. */
  relabel(): void;
  readonly enabled: boolean;
}

export function trayLabel(t: Translate, appName: string, openCount: number): string {
  return t('host.tray.openAlerts', { app: appName }, openCount);
}

export function createAlertTray(deps: TrayDeps): AlertTray {
  let tray: TrayLike | undefined;
  let count = 0;
  const refresh = () => {
    if (!tray) return;
    const t = deps.t();
    const label = trayLabel(t, deps.appName, count);
    tray.setToolTip(label);
    tray.setContextMenu(
      deps.buildMenu([
        { label, click: deps.showAlerts },
        { label: t('host.tray.open', { app: deps.appName }), click: deps.showWindow },
        { label: t('host.tray.quit'), click: deps.quit },
      ]),
    );
  };
  return {
    setEnabled(enabled) {
      if (enabled && !tray) {
        tray = deps.createTray();
        tray.on('click', deps.showWindow);
        refresh();
      } else if (!enabled && tray) {
        tray.destroy();
        tray = undefined;
      }
    },
    setOpenCount(next) {
      count = next;
      refresh();
    },
    relabel: refresh,
    get enabled() {
      return tray !== undefined;
    },
  };
}
