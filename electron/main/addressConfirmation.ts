import type { BrowserWindow, MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import type { AddressChange } from '../services/plantDesk.ts';

export interface AddressConfirmationDeps {
  /** The window the dialog belongs to, if any. */
  window(): BrowserWindow | undefined;
  showMessageBox(
    window: BrowserWindow | undefined,
    options: MessageBoxOptions,
  ): Promise<MessageBoxReturnValue>;
}

/**
 * A native dialog, drawn by the main process, so that no page can answer it: moving a production
 * environment to another server sends the next password there. "Keep" is the default and the
 * answer to Escape.
 */
export function createAddressConfirmation(deps: AddressConfirmationDeps) {
  return async (change: AddressChange): Promise<boolean> => {
    const { response } = await deps.showMessageBox(deps.window(), {
      type: 'warning',
      title: 'Change a production address',
      message: `Point ${change.name} to ${change.to}?`,
      detail:
        `It now connects to ${change.from}. You will be signed out there, and your password ` +
        `will be asked for and sent to ${change.to}. Change it only if your administrator told you to.`,
      buttons: ['Keep the current address', 'Change the address'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return response === 1;
  };
}
