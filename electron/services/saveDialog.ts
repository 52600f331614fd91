import path from 'node:path';
import type { Translate } from '../../i18n/translator.ts';

/**
 * "Where shall I save it?" for the files the desktop app writes (the commissioning report's
 * PDF, a support bundle): Electron's save dialog, modal to the window that asked. Electron is
 * reached through the dependencies, so callers are tested without it.
 */

export interface SaveDialogOptions {
  title: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
  properties: ['createDirectory', 'showOverwriteConfirmation'];
}

export interface SaveDialogDeps<W> {
  /** The focused PlantDesk window, else the first one; undefined when none is open. */
  window(): W | undefined;
  /** Electron's dialog.showSaveDialog, modal to the window. */
  showSaveDialog(
    window: W,
    options: SaveDialogOptions,
  ): Promise<{ canceled: boolean; filePath?: string }>;
  /** Where the dialog opens (the Documents folder); undefined when unknown. */
  defaultDirectory(): string | undefined;
  /** The user's language at the moment of saving. */
  t(): Translate;
}

export interface SaveTarget<W> {
  window: W;
  filePath: string;
  /**
   * The extension was added to the name chosen: the dialog asked before replacing the name it
   * returned, not this one, so an existing file must not be replaced silently.
   */
  extensionAdded: boolean;
}

/** The file the user chose, with `extension` (`.pdf`); undefined when they cancelled. */
export async function askWhereToSave<W>(
  deps: SaveDialogDeps<W>,
  ask: { suggestedName: string; extension: string; title: string; filter: string },
  noWindow: () => Error,
): Promise<SaveTarget<W> | undefined> {
  const window = deps.window();
  if (window === undefined) throw noWindow();
  const directory = deps.defaultDirectory();
  const choice = await deps.showSaveDialog(window, {
    title: ask.title,
    defaultPath: directory ? path.join(directory, ask.suggestedName) : ask.suggestedName,
    filters: [{ name: ask.filter, extensions: [ask.extension.slice(1)] }],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  });
  if (choice.canceled || !choice.filePath) return undefined;
  const filePath = withExtension(choice.filePath, ask.extension);
  return { window, filePath, extensionAdded: filePath !== choice.filePath };
}

/** A name typed without the extension still gets it (Linux dialogs do not add it). */
export function withExtension(filePath: string, extension: string): string {
  return path.extname(filePath).toLowerCase() === extension ? filePath : `${filePath}${extension}`;
}
