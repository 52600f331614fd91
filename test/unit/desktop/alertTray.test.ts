import { describe, expect, test, vi } from 'vitest';
import {
  createAlertNotifier,
  createAlertTray,
  trayLabel,
} from '../../../electron/main/alertTray.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/** The alert notifications and tray icon, wired to fakes of Electron's classes. */

describe('notifications', () => {
  test('each is shown once, and a click brings the alerts forward', () => {
    const shown: { title: string; body: string; click?: () => void }[] = [];
    const showAlerts = vi.fn();
    const notify = createAlertNotifier({
      createNotification: (options) => {
        const entry: (typeof shown)[number] = { ...options };
        shown.push(entry);
        return {
          on: (_event, listener) => (entry.click = listener),
          show: () => {},
        };
      },
      isSupported: () => true,
      showAlerts,
    });
    notify({
      environmentId: 'local',
      plantUuid: 'p',
      opened: 1,
      cleared: 0,
      title: 'Berlin: 1 new alert',
      body: 'No production',
    });
    expect(shown).toEqual([
      expect.objectContaining({ title: 'Berlin: 1 new alert', body: 'No production' }),
    ]);
    shown[0]!.click!();
    expect(showAlerts).toHaveBeenCalledOnce();
  });

  test('nothing where the system has no notifications', () => {
    const createNotification = vi.fn();
    createAlertNotifier({ createNotification, isSupported: () => false, showAlerts: () => {} })({
      environmentId: 'local',
      plantUuid: 'p',
      opened: 1,
      cleared: 0,
      title: 't',
      body: 'b',
    });
    expect(createNotification).not.toHaveBeenCalled();
  });
});

describe('the tray', () => {
  function fakes() {
    let locale: AppLocale = 'en';
    const trays: { tooltip?: string; menu?: unknown; destroyed: boolean }[] = [];
    const deps = {
      createTray: () => {
        const tray = {
          tooltip: undefined as string | undefined,
          menu: undefined as unknown,
          destroyed: false,
        };
        trays.push(tray);
        return {
          setToolTip: (text: string) => (tray.tooltip = text),
          setContextMenu: (menu: unknown) => (tray.menu = menu),
          on: () => {},
          destroy: () => (tray.destroyed = true),
        };
      },
      buildMenu: (items: { label: string }[]) => items.map((item) => item.label),
      appName: 'PlantDesk',
      showWindow: () => {},
      showAlerts: () => {},
      quit: () => {},
      t: () => createTranslator(locale),
    };
    return { trays, deps, switchTo: (next: AppLocale) => (locale = next) };
  }

  test('appears when the setting is on, with the open-alert count, and goes when it is off', () => {
    const { trays, deps } = fakes();
    const tray = createAlertTray(deps);
    expect(trays).toHaveLength(0);
    tray.setEnabled(true);
    tray.setOpenCount(3);
    expect(trays[0]!.tooltip).toBe('PlantDesk: 3 open alerts');
    expect(trays[0]!.menu).toEqual(['PlantDesk: 3 open alerts', 'Open PlantDesk', 'Quit']);
    expect(tray.enabled).toBe(true);
    tray.setEnabled(false);
    expect(trays[0]!.destroyed).toBe(true);
    expect(tray.enabled).toBe(false);
  });

  test('labels', () => {
    const t = createTranslator('en');
    expect(trayLabel(t, 'PlantDesk', 0)).toBe('PlantDesk: no open alerts');
    expect(trayLabel(t, 'PlantDesk', 1)).toBe('PlantDesk: 1 open alert');
  });

  test('in the user’s language, written again when it changes', () => {
    const { trays, deps, switchTo } = fakes();
    const tray = createAlertTray(deps);
    tray.setEnabled(true);
    tray.setOpenCount(1);
    switchTo('it');
    tray.relabel();
    expect(trays[0]!.tooltip).toBe('PlantDesk: 1 allarme aperto');
    expect(trays[0]!.menu).toEqual(['PlantDesk: 1 allarme aperto', 'Apri PlantDesk', 'Esci']);
    switchTo('de');
    tray.setOpenCount(2);
    expect(trays[0]!.menu).toEqual(['PlantDesk: 2 offene Alarme', 'PlantDesk öffnen', 'Beenden']);
    expect(trayLabel(createTranslator('de'), 'PlantDesk', 0)).toBe(
      'PlantDesk: keine offenen Alarme',
    );
  });
});
