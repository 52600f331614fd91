/** The message the app posts to the Local sandbox's utility process to stop it gracefully. */
export const STOP_MESSAGE = 'stop';

/** Electron's process.parentPort in a utility process, as far as used here. */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

/** Calls `stop` when the parent posts STOP_MESSAGE; without a parent port (plain Node) nothing. */
export function stopOnParentMessage(port: ParentPortLike | undefined, stop: () => void): void {
  port?.on('message', (event) => {
    if (event.data === STOP_MESSAGE) stop();
  });
}
