import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file-system calls a durable write makes, in their order (replaceable in tests). */
export interface DurableWriteOps {
  openSync(file: string, flags: string, mode: number): number;
  writeSync(fd: number, data: Uint8Array): number;
  fsyncSync(fd: number): void;
  fchmodSync(fd: number, mode: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(file: string, options: { force: true }): void;
}

const nodeOps: DurableWriteOps = fs;

/**
 * Writes a file so that neither a crash nor a power cut leaves it empty or half written: the
 * bytes go to a temporary file beside it (same folder, so the rename stays on one file system),
 * created exclusively with the final mode, written and flushed to the disk (fsync), and only then
 * renamed over the old file; the folder is flushed too, so that the rename itself survives. A
 * rename without the file's fsync may reach the disk before the data does, and a power cut then
 * leaves an empty file where the old one was.
 *
 * The mode is set on the open descriptor as well, because a umask can narrow it.
 */
export function writeFileDurably(
  file: string,
  data: string | Uint8Array,
  mode = 0o600,
  ops: DurableWriteOps = nodeOps,
): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  sweepFolderOnce(path.dirname(file));
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = ops.openSync(temporary, 'wx', mode);
  try {
    try {
      ops.fchmodSync(fd, mode);
      for (let written = 0; written < bytes.length;) {
        written += ops.writeSync(fd, bytes.subarray(written));
      }
      ops.fsyncSync(fd);
    } finally {
      ops.closeSync(fd);
    }
    ops.renameSync(temporary, file);
  } catch (error) {
    ops.rmSync(temporary, { force: true });
    throw error;
  }
  flushFolder(path.dirname(file), ops);
}

/**
 * Flushes a folder's entries (the rename) to the disk. Windows cannot open a folder for this
 * (EPERM, EISDIR); its file system journals renames itself, so there is nothing more to do.
 */
function flushFolder(folder: string, ops: DurableWriteOps): void {
  let fd: number;
  try {
    fd = ops.openSync(folder, 'r', 0);
  } catch {
    return;
  }
  try {
    ops.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder (EINVAL): the data itself is already flushed.
  } finally {
    ops.closeSync(fd);
  }
}

/** A temporary file of writeFileDurably: `<file>.<pid>.<8 hex digits>.tmp`. */
const TEMPORARY_NAME = /^.+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** No durable write takes this long: an older temporary file is a leftover whoever holds the pid. */
export const STALE_TEMPORARY_MS = 3_600_000;

export interface SweepOptions {
  now?: number;
  /** Whether a process with this id runs (it may be an unrelated one that reused the id). */
  isRunning?: (pid: number) => boolean;
}

/**
 * Removes the temporary files a writer killed mid-way left in a folder, and nothing else: only
 * names of writeFileDurably's pattern, and only when their process is gone, when they are older
 * than any write takes, or when they carry this process's own id. This process writes
 * synchronously, so a temporary file with its id can only be an earlier process's that had the
 * same id (ids repeat after a restart). A running writer's fresh temporary file is kept.
 * Answers the names removed.
 */
export function sweepStaleTemporaries(folder: string, options: SweepOptions = {}): string[] {
  const now = options.now ?? Date.now();
  const isRunning = options.isRunning ?? processIsRunning;
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = TEMPORARY_NAME.exec(name)?.[1];
    if (pid === undefined) continue;
    const file = path.join(folder, name);
    try {
      const stat = fs.lstatSync(file);
      if (!stat.isFile()) continue;
      const owner = Number(pid);
      const stale =
        owner === process.pid || !isRunning(owner) || now - stat.mtimeMs > STALE_TEMPORARY_MS;
      if (!stale) continue;
      fs.rmSync(file, { force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove: a leftover is untidy, never a reason to fail.
    }
  }
  return removed;
}

function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

const sweptFolders = new Set<string>();

/**
 * Sweeps a folder once per process (at start, or at its first write): leftovers are an earlier
 * run's, so a folder swept at start is not swept again at its first write. Answers the names
 * removed (none when already swept).
 */
export function sweepFolderOnce(folder: string): string[] {
  if (sweptFolders.has(folder)) return [];
  sweptFolders.add(folder);
  return sweepStaleTemporaries(folder);
}
