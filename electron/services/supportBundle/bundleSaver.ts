import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SupportBundleSaveResult } from '../../ipc/contract.ts';
import { writeFileDurably } from '../durableFile.ts';
import { HostError } from '../hostError.ts';
import { askWhereToSave, type SaveDialogDeps } from '../saveDialog.ts';

/**
 * Electron's half of saving a support bundle: the save dialog, then the app's durable write (an
 * exclusive temporary file, flushed, renamed into place; mode 0600, as the data folder's files
 * are). The folder is the user's choice and keeps its own mode.
 */

export interface BundleSaverDeps<W> extends SaveDialogDeps<W> {
  /** Default: writeFileDurably. */
  write?(filePath: string, data: Uint8Array): void;
}

export function createBundleSaver<W>(
  deps: BundleSaverDeps<W>,
): (fileName: string, zip: Uint8Array) => Promise<SupportBundleSaveResult> {
  const write = deps.write ?? ((filePath, data) => writeFileDurably(filePath, data));
  return async (fileName, zip) => {
    const t = deps.t();
    const target = await askWhereToSave(
      deps,
      {
        suggestedName: fileName,
        extension: '.zip',
        title: t('host.bundle.title'),
        filter: t('host.bundle.filter'),
      },
      () => new HostError('invalidArguments', t('host.bundle.noWindow')),
    );
    if (!target) return { saved: false };
    const { filePath, extensionAdded } = target;
    if (extensionAdded && existsSync(filePath)) {
      throw new HostError(
        'invalidArguments',
        t('host.bundle.exists', { file: path.basename(filePath) }),
      );
    }
    write(filePath, zip);
    return { saved: true, path: filePath };
  };
}
