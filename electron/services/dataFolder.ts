import { chmodSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { writeFileDurably } from './durableFile.ts';

/**
 * Makes `path` (and its parents) a folder only its owner may enter, 0700: mkdir's mode is
 * narrowed by the umask and never applied to a folder that already exists, hence the chmod.
 */
export function ensurePrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

/** The file of an environment's records: environment ids are ours, but a name is never a path. */
export const environmentFileName = (environmentId: string): string =>
  `${environmentId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;

/** What reading a JSON file from the data folder found. */
export type JsonFileRead =
  { status: 'missing' } | { status: 'ok'; value: unknown } | { status: 'unreadable'; error: Error };

/**
 * Reads and parses a JSON file. A missing file is an ordinary first run, not an error; a file
 * that cannot be read or parsed is reported as `unreadable` so that the caller decides what to
 * keep. Synchronous on purpose: these files are a few kilobytes, read once at start-up.
 */
export function readJsonFile(path: string): JsonFileRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'unreadable', error: error as Error };
  }
  try {
    return { status: 'ok', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { status: 'unreadable', error: error as Error };
  }
}

/** Writes a file durably (see durableFile.ts), 0600 unless told otherwise. */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  writeFileDurably(path, text, mode);
}

export function writeJsonFileAtomic(path: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}

/**
 * Moves a damaged file aside as `<path>.corrupt` (replacing an older copy) so that the app can
 * start from defaults while the user or support can still look at what was there. Answers the
 * copy's path, or undefined when even that failed.
 */
export function setAsideCorruptFile(path: string): string | undefined {
  const copy = `${path}.corrupt`;
  try {
    renameSync(path, copy);
    return copy;
  } catch {
    return undefined;
  }
}
