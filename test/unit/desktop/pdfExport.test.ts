import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  createPdfExport,
  PDF_OPTIONS,
  withPdfExtension,
  type PdfWindow,
} from '../../../electron/main/pdfExport.ts';
import type { AppLocale } from '../../../i18n/locales.ts';
import { createTranslator } from '../../../i18n/translator.ts';

/** The report's "Save as PDF" in Electron, with fakes for the window, the dialog and the disk. */

const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46]); // %PDF

function fakes(
  choice: { canceled: boolean; filePath?: string },
  window?: PdfWindow | null,
  locale: AppLocale = 'en',
) {
  const target: PdfWindow = window ?? { webContents: { printToPDF: vi.fn(async () => PDF) } };
  const deps = {
    window: vi.fn(() => (window === null ? undefined : target)),
    showSaveDialog: vi.fn(async (_window: PdfWindow, _options: { defaultPath: string }) => choice),
    writeFile: vi.fn(
      async (_path: string, _data: Uint8Array, _options: { exclusive: boolean }) => {},
    ),
    defaultDirectory: vi.fn((): string | undefined => '/home/installer/Documents'),
    t: () => createTranslator(locale),
  };
  return { deps, target, save: createPdfExport(deps) };
}

describe('saving the report as PDF', () => {
  it('asks where, in Documents under the suggested name, then prints A4 with backgrounds and writes it', async () => {
    const chosen = '/home/installer/Documents/Commissioning Roof 2026-11-18.pdf';
    const { deps, target, save } = fakes({ canceled: false, filePath: chosen });

    await expect(save('Commissioning Roof 2026-11-18.pdf')).resolves.toEqual({
      saved: true,
      path: chosen,
    });
    expect(deps.showSaveDialog).toHaveBeenCalledWith(target, {
      title: 'Save the commissioning report as PDF',
      defaultPath: path.join('/home/installer/Documents', 'Commissioning Roof 2026-11-18.pdf'),
      filters: [{ name: 'PDF document', extensions: ['pdf'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    expect(target.webContents.printToPDF).toHaveBeenCalledWith({
      printBackground: true,
      pageSize: 'A4',
    });
    expect(PDF_OPTIONS).toEqual({ printBackground: true, pageSize: 'A4' });
    // The dialog confirmed replacing this very path.
    expect(deps.writeFile).toHaveBeenCalledWith(chosen, PDF, { exclusive: false });
  });

  it('answers saved: false and neither prints nor writes when the dialog is cancelled', async () => {
    const { deps, target, save } = fakes({ canceled: true, filePath: '' });
    await expect(save('Commissioning.pdf')).resolves.toEqual({ saved: false });
    expect(target.webContents.printToPDF).not.toHaveBeenCalled();
    expect(deps.writeFile).not.toHaveBeenCalled();
  });

  it('adds .pdf to a name typed without it', async () => {
    const { deps, save } = fakes({ canceled: false, filePath: '/tmp/report' });
    await expect(save('Commissioning.pdf')).resolves.toEqual({
      saved: true,
      path: '/tmp/report.pdf',
    });
    // The dialog never asked about /tmp/report.pdf: an existing file is not replaced.
    expect(deps.writeFile).toHaveBeenCalledWith('/tmp/report.pdf', PDF, { exclusive: true });
    expect(withPdfExtension('/tmp/Report.PDF')).toBe('/tmp/Report.PDF');
  });

  it('refuses, with a message, to replace a file the dialog did not ask about', async () => {
    const { deps, save } = fakes({ canceled: false, filePath: '/tmp/report' });
    deps.writeFile.mockRejectedValue(Object.assign(new Error('EEXIST'), { code: 'EEXIST' }));
    const error = await save('Commissioning.pdf').catch((caught: unknown) => caught);
    expect((error as { toSerialized(): unknown }).toSerialized()).toEqual({
      kind: 'invalidArguments',
      message: 'report.pdf already exists there: save again and choose another name',
    });
  });

  it('opens the dialog on the bare name when the Documents folder is unknown', async () => {
    const { deps, save } = fakes({ canceled: true });
    deps.defaultDirectory.mockReturnValue(undefined);
    await save('Commissioning.pdf');
    expect(deps.showSaveDialog.mock.calls[0]![1]).toMatchObject({
      defaultPath: 'Commissioning.pdf',
    });
  });

  it('fails with a message when no window is open, and when writing fails', async () => {
    await expect(fakes({ canceled: false }, null).save('x.pdf')).rejects.toThrow(
      'No PlantDesk window is open',
    );
    const { deps, save } = fakes({ canceled: false, filePath: '/read-only/x.pdf' });
    deps.writeFile.mockRejectedValue(new Error('EACCES: permission denied'));
    await expect(save('x.pdf')).rejects.toThrow('EACCES');
  });

  it('speaks the user’s language: the dialog, its filter and the refusal in German', async () => {
    const { deps, save } = fakes({ canceled: false, filePath: '/tmp/bericht' }, undefined, 'de');
    deps.writeFile.mockRejectedValue(Object.assign(new Error('EEXIST'), { code: 'EEXIST' }));
    const error = await save('Inbetriebnahme.pdf').catch((caught: unknown) => caught);
    expect(deps.showSaveDialog.mock.calls[0]![1]).toMatchObject({
      title: 'Inbetriebnahmeprotokoll als PDF speichern',
      filters: [{ name: 'PDF-Dokument', extensions: ['pdf'] }],
    });
    expect((error as Error).message).toBe(
      'bericht.pdf ist dort bereits vorhanden: Speichern Sie erneut und wählen Sie einen anderen Namen',
    );
  });
});
