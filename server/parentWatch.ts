/**
 * `--exit-with-parent`: notices that the process that started the server is gone (killed, crashed)
 * so that a server never outlives the desktop app holding its database. On POSIX an orphan is
 * re-parented, so its parent id changes; on Windows it never does, so the parent's own pid is
 * also checked for life. Both work for a child process and an Electron utility process alike.
 */

export interface ParentWatchOptions {
  /** Default: process.ppid at the call. */
  parentPid?: number;
  /** Default: process.ppid now. */
  currentParentPid?: () => number;
  /** Default: process.kill(pid, 0). */
  isAlive?: (pid: number) => boolean;
  /** Default 1 s. */
  intervalMs?: number;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Calls `onGone` once when the parent is gone; returns a function that stops watching. */
export function watchParent(onGone: () => void, options: ParentWatchOptions = {}): () => void {
  const parent = options.parentPid ?? process.ppid;
  const currentParentPid = options.currentParentPid ?? (() => process.ppid);
  const isAlive = options.isAlive ?? isProcessAlive;
  const timer = setInterval(() => {
    if (currentParentPid() === parent && isAlive(parent)) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
