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
