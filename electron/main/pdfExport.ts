import path from 'node:path';
import type { Translate } from '../../i18n/translator.ts';
import type { PdfSaveResult, SerializedError } from '../ipc/contract.ts';
import type { BridgeableError } from '../ipc/dispatch.ts';

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

export interface PdfExportDeps<W extends PdfWindow> {
  /** The focused PlantDesk window, else the first one; undefined when none is open. */
  window(): W | undefined;
  /** Electron's dialog.showSaveDialog, modal to the window. */
  showSaveDialog(
    window: W,
    options: {
      title: string;
      defaultPath: string;
      filters: { name: string; extensions: string[] }[];
      properties: ['createDirectory', 'showOverwriteConfirmation'];
    },
  ): Promise<{ canceled: boolean; filePath?: string }>;
  /** `exclusive`: fail with EEXIST rather than replace an existing file. */
  writeFile(filePath: string, data: Uint8Array, options: { exclusive: boolean }): Promise<void>;
  /** Where the dialog opens (the Documents folder); undefined when unknown. */
  defaultDirectory(): string | undefined;
  /** The user's language at the moment of saving. */
  t(): Translate;
}

export function createPdfExport<W extends PdfWindow>(
  deps: PdfExportDeps<W>,
): (suggestedName: string) => Promise<PdfSaveResult> {
  return async (suggestedName) => {
    const t = deps.t();
    const window = deps.window();
    if (!window) throw new Error(t('host.pdf.noWindow'));
    const directory = deps.defaultDirectory();
    const choice = await deps.showSaveDialog(window, {
      title: t('host.pdf.title'),
      defaultPath: directory ? path.join(directory, suggestedName) : suggestedName,
      filters: [{ name: t('host.pdf.filter'), extensions: ['pdf'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    if (choice.canceled || !choice.filePath) return { saved: false };
    const filePath = withPdfExtension(choice.filePath);
    // The dialog asked before replacing the name it returned, not the one with .pdf added.
    const extensionAdded = filePath !== choice.filePath;
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
  return path.extname(filePath).toLowerCase() === '.pdf' ? filePath : `${filePath}.pdf`;
}
