import path from 'node:path';
import type { PdfSaveResult, SerializedError } from '../ipc/contract.ts';
import type { BridgeableError } from '../ipc/dispatch.ts';
import { askWhereToSave, withExtension, type SaveDialogDeps } from '../services/saveDialog.ts';

/**
 * "Save as PDF" of the commissioning report: the page of the window that asked (the focused
 * PlantDesk window, else the first), printed with the page's print styles (only the report
 * prints), saved where the user chooses. Electron is reached through the dependencies, so this
 * is unit tested without it.
 */

/** What printToPDF is asked: A4 with the report's colours (the pass/fail marks). */
export const PDF_OPTIONS = { printBackground: true, pageSize: 'A4' } as const;

export interface PdfWindow {
  webContents: { printToPDF(options: typeof PDF_OPTIONS): Promise<Uint8Array> };
}

export interface PdfExportDeps<W extends PdfWindow> extends SaveDialogDeps<W> {
  /** `exclusive`: fail with EEXIST rather than replace an existing file. */
  writeFile(filePath: string, data: Uint8Array, options: { exclusive: boolean }): Promise<void>;
}

export function createPdfExport<W extends PdfWindow>(
  deps: PdfExportDeps<W>,
): (suggestedName: string) => Promise<PdfSaveResult> {
  return async (suggestedName) => {
    const t = deps.t();
    const target = await askWhereToSave(
      deps,
      {
        suggestedName,
        extension: '.pdf',
        title: t('host.pdf.title'),
        filter: t('host.pdf.filter'),
      },
      () => new Error(t('host.pdf.noWindow')),
    );
    if (!target) return { saved: false };
    const { window, filePath, extensionAdded } = target;
    const pdf = await window.webContents.printToPDF(PDF_OPTIONS);
    try {
      await deps.writeFile(filePath, pdf, { exclusive: extensionAdded });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new PdfExportError(t('host.pdf.exists', { file: path.basename(filePath) }));
      }
      throw error;
    }
    return { saved: true, path: filePath };
  };
}

/** A refusal the user can act on, shown as it is. */
export class PdfExportError extends Error implements BridgeableError {
  toSerialized(): SerializedError {
    return { kind: 'invalidArguments', message: this.message };
  }
}

/** A name typed without the extension still saves a `.pdf` (Linux dialogs do not add it). */
export function withPdfExtension(filePath: string): string {
  return withExtension(filePath, '.pdf');
}
