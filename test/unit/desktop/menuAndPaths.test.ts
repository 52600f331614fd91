import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { buildMenuTemplate } from '../../../electron/main/menu.ts';
import {
  builtPaths,
  environmentsDefaultsCandidates,
  environmentsDefaultsFile,
} from '../../../electron/main/paths.ts';

function template(isMac: boolean, devTools = true, locale: AppLocale = 'en') {
  const actions = {
    isMac,
    appName: 'PlantDesk',
    t: createTranslator(locale),
    showAbout: vi.fn(),
    openLogsFolder: vi.fn(),
    openSupport: vi.fn(),
    devTools,
  };
  return { menu: buildMenuTemplate(actions), actions };
}

function helpItems(menu: MenuItemConstructorOptions[]) {
  const help = menu.find((item) => item.role === 'help');
  return (help?.submenu ?? []) as MenuItemConstructorOptions[];
}

describe('application menu', () => {
  it('uses the standard roles, with the app menu on macOS only', () => {
    expect(template(true).menu.map((item) => item.role)).toEqual([
      'appMenu',
      'fileMenu',
      'editMenu',
      'viewMenu',
      'windowMenu',
      'help',
    ]);
    expect(template(false).menu.map((item) => item.role)).toEqual([
      'fileMenu',
      'editMenu',
      'viewMenu',
      'windowMenu',
      'help',
    ]);
  });

  it('a packaged app’s View menu has zoom and full screen, and no DevTools or reload', () => {
    const view = template(false, false).menu[2]!;
    expect(view.role).toBeUndefined();
    expect(view.label).toBe('View');
    const roles = (view.submenu as MenuItemConstructorOptions[]).map(
      (item) => item.role ?? item.type,
    );
    expect(roles).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'separator', 'togglefullscreen']);
    expect(JSON.stringify(template(true, false).menu)).not.toMatch(/toggleDevTools|reload/i);
  });

  it('speaks the user’s language: German and Italian labels', () => {
    const german = template(false, false, 'de').menu;
    expect(german[2]!.label).toBe('Ansicht');
    expect(helpItems(german).map((item) => item.label ?? item.type)).toEqual([
      'Protokollordner öffnen',
      'Support-Paket erstellen…',
      'separator',
      'Über PlantDesk',
    ]);
    expect(helpItems(template(false, false, 'it').menu)[3]!.label).toBe(
      'Informazioni su PlantDesk',
    );
  });

  it('has Help → Open Logs Folder, Create Support Bundle… and About PlantDesk', () => {
    const { menu, actions } = template(false);
    const items = helpItems(menu);
    const byLabel = (label: string) => items.find((item) => item.label === label);
    (byLabel('Open Logs Folder')?.click as () => void)();
    expect(actions.openLogsFolder).toHaveBeenCalledOnce();
    (byLabel('Create Support Bundle…')?.click as () => void)();
    expect(actions.openSupport).toHaveBeenCalledOnce();
    (byLabel('About PlantDesk')?.click as () => void)();
    expect(actions.showAbout).toHaveBeenCalledOnce();
  });
});

describe('paths', () => {
  it('finds the preload, renderer and Local sandbox server under the app root', () => {
    expect(builtPaths(path.join('/opt/PlantDesk/resources/app.asar'))).toEqual({
      preload: path.join('/opt/PlantDesk/resources/app.asar/out/preload/index.cjs'),
      rendererDir: path.join('/opt/PlantDesk/resources/app.asar/out/renderer'),
      localServer: path.join('/opt/PlantDesk/resources/app.asar/out/main/localServer.js'),
    });
  });

  describe("the administrator's environments.json", () => {
    const none = () => false;
    const packaged = (platform: NodeJS.Platform, exePath: string, env: NodeJS.ProcessEnv = {}) => ({
      isPackaged: true,
      platform,
      exePath,
      appPath: '/irrelevant/app.asar',
      env,
    });

    it('on Linux: next to the AppImage file (not in its per-launch mount), then /etc/plantdesk', () => {
      const appImage = packaged('linux', '/tmp/.mount_PlantDabc123/plantdesk', {
        APPIMAGE: '/home/ops/Apps/PlantDesk-1.0.0.AppImage',
      });
      expect(environmentsDefaultsCandidates(appImage)).toEqual([
        '/home/ops/Apps/environments.json',
        '/etc/plantdesk/environments.json',
        // Only one built into the AppImage is found there.
        '/tmp/.mount_PlantDabc123/environments.json',
      ]);
      // The deb: the install folder.
      expect(environmentsDefaultsCandidates(packaged('linux', '/opt/PlantDesk/plantdesk'))).toEqual(
        ['/opt/PlantDesk/environments.json', '/etc/plantdesk/environments.json'],
      );
    });

    it('on Windows: the install folder, then %PROGRAMDATA%\\PlantDesk', () => {
      const exe = 'C:\\Program Files\\PlantDesk\\PlantDesk.exe';
      expect(
        environmentsDefaultsCandidates(packaged('win32', exe, { PROGRAMDATA: 'D:\\ProgramData' })),
      ).toEqual([
        'C:\\Program Files\\PlantDesk\\environments.json',
        'D:\\ProgramData\\PlantDesk\\environments.json',
      ]);
      expect(environmentsDefaultsCandidates(packaged('win32', exe))[1]).toBe(
        'C:\\ProgramData\\PlantDesk\\environments.json',
      );
    });

    it('on macOS: /Library/Application Support/PlantDesk, then inside the bundle', () => {
      const exe = '/Applications/PlantDesk.app/Contents/MacOS/PlantDesk';
      expect(environmentsDefaultsCandidates(packaged('darwin', exe))).toEqual([
        '/Library/Application Support/PlantDesk/environments.json',
        '/Applications/PlantDesk.app/Contents/MacOS/environments.json',
      ]);
    });

    it('in development: the project folder', () => {
      const dev = {
        isPackaged: false,
        platform: 'linux' as const,
        exePath: '/work/node_modules/electron/dist/electron',
        appPath: '/work',
        env: { APPIMAGE: '/ignored/PlantDesk.AppImage' },
      };
      expect(environmentsDefaultsCandidates(dev)).toEqual(['/work/environments.json']);
    });

    it('is the first candidate that exists, or none', () => {
      const location = packaged('linux', '/opt/PlantDesk/plantdesk');
      expect(environmentsDefaultsFile({ ...location, exists: none })).toBeUndefined();
      expect(
        environmentsDefaultsFile({
          ...location,
          exists: (file) => file.startsWith('/etc/'),
        }),
      ).toBe('/etc/plantdesk/environments.json');
      expect(environmentsDefaultsFile({ ...location, exists: () => true })).toBe(
        '/opt/PlantDesk/environments.json',
      );
    });
  });
});
