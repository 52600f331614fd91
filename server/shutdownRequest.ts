/**
 * A stop asked for from inside the server's process, handled as SIGTERM is (requests in flight
 * finish, the database closes): what a parent that cannot send signals uses. An Electron
 * utility process's kill() is SIGTERM then SIGKILL within 2 s on POSIX and TerminateProcess on
 * Windows, so the desktop app asks over the parent port instead (electron/main/localServerEntry.ts).
 */

type Listener = () => void;

export interface ShutdownRequest {
  /** Asks for the stop; one asked before the server listens is kept until it does. */
  request(): void;
  /** The server's shutdown, once it can run. */
  onRequest(listener: Listener): void;
}

export function createShutdownRequest(): ShutdownRequest {
  let listener: Listener | undefined;
  let requested = false;
  return {
    request() {
      requested = true;
      listener?.();
    },
    onRequest(next) {
      listener = next;
      if (requested) next();
    },
  };
}

/** The one of this process: server/cli.ts listens to it, an entry that wraps the CLI asks it. */
export const shutdownRequest = createShutdownRequest();
