import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where the built pieces sit in the app's root (app.asar once packaged; see appRoot). */
export function builtPaths(root: string): {
  preload: string;
  rendererDir: string;
  localServer: string;
} {
  return {
    preload: path.join(root, 'out/preload/index.cjs'),
    rendererDir: path.join(root, 'out/renderer'),
    localServer: path.join(root, 'out/main/localServer.js'),
  };
}

export interface DefaultsLocation {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** app.getPath('exe') */
  exePath: string;
  /** app.getAppPath(): the project folder in development. */
  appPath: string;
  /** APPIMAGE (the AppImage file, set by its runtime) and PROGRAMDATA are read. */
  env: NodeJS.ProcessEnv;
  /** Default: fs.existsSync. */
  exists?: (file: string) => boolean;
}

const FILE_NAME = 'environments.json';

/**
 * Where an administrator can put environments.json, most specific first. Not next to the
 * executable of an AppImage (a read-only mount made afresh at each launch) but next to the
 * AppImage file; not inside the signed macOS bundle, which changing would break. The system-wide
 * folder comes after the file next to the application.
 */
export function environmentsDefaultsCandidates(location: DefaultsLocation): string[] {
  const { platform, env } = location;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  if (!location.isPackaged) return [paths.join(location.appPath, FILE_NAME)];
  const nextToExe = paths.join(paths.dirname(location.exePath), FILE_NAME);
  switch (platform) {
    case 'win32':
      // The install folder, then ProgramData (machine-wide, where policy tools put files).
      return [nextToExe, paths.join(env.PROGRAMDATA || 'C:\\ProgramData', 'PlantDesk', FILE_NAME)];
    case 'darwin':
      // Then Contents/MacOS: a file built into a bundle of the organisation's own.
      return [paths.join('/Library/Application Support/PlantDesk', FILE_NAME), nextToExe];
    default: {
      const etc = paths.join('/etc/plantdesk', FILE_NAME);
      if (!env.APPIMAGE) return [nextToExe, etc];
      // Last, inside the mount: a file built into the AppImage (extraFiles).
      return [paths.join(paths.dirname(env.APPIMAGE), FILE_NAME), etc, nextToExe];
    }
  }
}

/**
 * The administrator's environments.json (shared sandbox and production addresses): the first
 * candidate that exists, or none. The files are not merged: one administrator, one file.
 */
export function environmentsDefaultsFile(location: DefaultsLocation): string | undefined {
  const exists = location.exists ?? existsSync;
  return environmentsDefaultsCandidates(location).find((file) => exists(file));
}
