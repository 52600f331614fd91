import path from 'node:path';

/** Where the built pieces sit relative to out/main/index.js (inside app.asar once packaged). */
export function builtPaths(mainDir: string): {
  preload: string;
  rendererDir: string;
  localServer: string;
} {
  return {
    preload: path.join(mainDir, '../preload/index.cjs'),
    rendererDir: path.join(mainDir, '../renderer'),
    localServer: path.join(mainDir, 'localServer.js'),
  };
}

export interface DefaultsLocation {
  isPackaged: boolean;
  /** app.getPath('exe') */
  exePath: string;
  /** app.getAppPath(): the project folder in development. */
  appPath: string;
}

/**
 * The administrator's environments.json (shared sandbox and production addresses). Packaged,
 * it is read from next to the executable rather than from process.resourcesPath: on Windows and
 * Linux that is the install folder, the obvious place to drop a file after installing; on macOS
 * both candidates are inside the signed bundle (Contents/MacOS here), so there it ships with the
 * app. In development it is the project folder's environments.json.
 */
export function environmentsDefaultsFile(location: DefaultsLocation): string {
  const folder = location.isPackaged ? path.dirname(location.exePath) : location.appPath;
  return path.join(folder, 'environments.json');
}
