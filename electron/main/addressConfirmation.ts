import type { BrowserWindow, MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import type { Translate } from '../../i18n/translator.ts';
import type { AddressChange } from '../services/plantDesk.ts';

export interface AddressConfirmationDeps {
  /** The window the dialog belongs to, if any. */
  window(): BrowserWindow | undefined;
  showMessageBox(
    window: BrowserWindow | undefined,
    options: MessageBoxOptions,
  ): Promise<MessageBoxReturnValue>;
  /** The user's language at the moment of asking. */
  t(): Translate;
}

/**
 * A native dialog, drawn by the main process, so that no page can answer it: moving a production
 * environment to another server sends the next password there. "Keep" is the default and the
 * answer to Escape.
 */
export function createAddressConfirmation(deps: AddressConfirmationDeps) {
  return async (change: AddressChange): Promise<boolean> => {
    const t = deps.t();
    const addresses = { environment: change.name, from: change.from, to: change.to };
    const { response } = await deps.showMessageBox(deps.window(), {
      type: 'warning',
      title: t('host.addressChange.title'),
      message: t('host.addressChange.message', addresses),
      detail: t('host.addressChange.detail', addresses),
      buttons: [t('host.addressChange.keep'), t('host.addressChange.change')],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return response === 1;
  };
}
