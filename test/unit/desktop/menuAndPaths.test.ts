import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';
import { buildMenuTemplate } from '../../../electron/main/menu.ts';
import { builtPaths, environmentsDefaultsFile } from '../../../electron/main/paths.ts';

function template(isMac: boolean, devTools = true, locale: AppLocale = 'en') {
  const actions = {
    isMac,
    appName: 'PlantDesk',
    t: createTranslator(locale),
    showAbout: vi.fn(),
    openLogsFolder: vi.fn(),
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
      'separator',
      'Über PlantDesk',
    ]);
    expect(helpItems(template(false, false, 'it').menu)[2]!.label).toBe(
      'Informazioni su PlantDesk',
    );
  });

  it('has Help → Open Logs Folder and About PlantDesk', () => {
    const { menu, actions } = template(false);
    const items = helpItems(menu);
    const byLabel = (label: string) => items.find((item) => item.label === label);
    (byLabel('Open Logs Folder')?.click as () => void)();
    expect(actions.openLogsFolder).toHaveBeenCalledOnce();
    (byLabel('About PlantDesk')?.click as () => void)();
    expect(actions.showAbout).toHaveBeenCalledOnce();
  });
});

describe('paths', () => {
  it('finds the preload, renderer and Local sandbox server next to out/main', () => {
    const mainDir = path.join('/opt/PlantDesk/resources/app.asar/out/main');
    expect(builtPaths(mainDir)).toEqual({
      preload: path.join('/opt/PlantDesk/resources/app.asar/out/preload/index.cjs'),
      rendererDir: path.join('/opt/PlantDesk/resources/app.asar/out/renderer'),
      localServer: path.join('/opt/PlantDesk/resources/app.asar/out/main/localServer.js'),
    });
  });

  it('reads environments.json next to the executable when packaged, else in the project', () => {
    expect(
      environmentsDefaultsFile({
        isPackaged: true,
        exePath: path.join('/opt/PlantDesk/plantdesk'),
        appPath: path.join('/opt/PlantDesk/resources/app.asar'),
      }),
    ).toBe(path.join('/opt/PlantDesk/environments.json'));
    expect(
      environmentsDefaultsFile({
        isPackaged: false,
        exePath: path.join('/work/node_modules/electron/dist/electron'),
        appPath: path.join('/work'),
      }),
    ).toBe(path.join('/work/environments.json'));
  });
});
