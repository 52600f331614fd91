import fs from 'node:fs';
import path from 'node:path';

/**
 * The newest lines of the host's log for a support bundle: the log folder's `.log` files
 * (`main.log` and the files rotation made of it, fileLog.ts), oldest first. Only the two newest
 * files are read: each is capped at a megabyte, and a bundle wants the recent past.
 */

export const BUNDLE_LOG_LINES = 500;

export function recentLogLines(logDir: string | undefined, maxLines = BUNDLE_LOG_LINES): string[] {
  if (!logDir) return [];
  let names: string[];
  try {
    names = fs.readdirSync(logDir).filter((name) => name.endsWith('.log'));
  } catch {
    return [];
  }
  const newest = names
    .map((name) => {
      const file = path.join(logDir, name);
      try {
        return { file, modified: fs.statSync(file).mtimeMs };
      } catch {
        return undefined;
      }
    })
    .filter((entry) => entry !== undefined)
    .sort((a, b) => a.modified - b.modified)
    .slice(-2);
  const lines = newest.flatMap(({ file }) => {
    try {
      return fs.readFileSync(file, 'utf8').split('\n');
    } catch {
      return [];
    }
  });
  return lines.filter((line) => line.length > 0).slice(-maxLines);
}
