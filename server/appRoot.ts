import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder of the app's package.json, found by walking up from `fromDir`: the repository in
 * development, app.asar once packaged (Electron's fs reads inside it). A built file's own place
 * depends on how the bundler splits chunks (out/main, out/main/chunks …), so paths are resolved
 * from here rather than relative to the file that needs them.
 */
export function appRoot(fromDir: string, exists: (file: string) => boolean = existsSync): string {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${fromDir}`);
  }
}
