import { join } from 'node:path';
import { type AppLocale, isAppLocale, pickLocale } from '../../i18n/locales.ts';
import { createTranslator, type Translate } from '../../i18n/translator.ts';
import type { LanguageState } from '../ipc/contract.ts';
import {
  ensurePrivateFolder,
  readJsonFile,
  setAsideCorruptFile,
  writeJsonFileAtomic,
} from './dataFolder.ts';
import type { Logger } from './logger.ts';

/**
 * The user's language: chosen in the app (kept in `language.json` in the data folder, so per
 * OS user, and applied at once) or, until one is chosen, the system's. The host's own texts
 * (menu, dialogs, notifications, alert messages) follow `effective()`; the renderer learns both
 * through `app.info` and `app.setLanguage`.
 */
export interface LanguagePreference {
  state(): LanguageState;
  effective(): AppLocale;
  /** null: follow the system again. */
  choose(locale: AppLocale | null): LanguageState;
  /** A translator for the current language (a new one after each change). */
  translator(): Translate;
}

export interface LanguagePreferenceDeps {
  dataDir: string;
  /** The system's preferred languages, most preferred first (Electron: app.getPreferredSystemLanguages()). */
  systemLanguages: () => readonly string[];
  log: Logger;
  /** Called after a change of the effective language. */
  onChange?(locale: AppLocale): void;
}

const FILE = 'language.json';

export function createLanguagePreference(deps: LanguagePreferenceDeps): LanguagePreference {
  const path = join(deps.dataDir, FILE);
  let chosen = readChoice();
  let current: { locale: AppLocale; translate: Translate } | undefined;

  function readChoice(): AppLocale | null {
    const read = readJsonFile(path);
    if (read.status === 'missing') return null;
    const value =
      read.status === 'ok' ? (read.value as { locale?: unknown } | null)?.locale : undefined;
    if (value === null || isAppLocale(value)) return value;
    const copy = setAsideCorruptFile(path);
    deps.log.warn(
      `${FILE} is not a language choice; following the system${copy ? ` (kept as ${copy})` : ''}`,
    );
    return null;
  }

  const system = (): AppLocale => pickLocale(deps.systemLanguages());
  const effective = (): AppLocale => chosen ?? system();

  return {
    state: () => ({ chosen, system: system() }),
    effective,
    choose(locale) {
      const before = effective();
      ensurePrivateFolder(deps.dataDir);
      writeJsonFileAtomic(path, { locale });
      chosen = locale;
      if (effective() !== before) deps.onChange?.(effective());
      return { chosen, system: system() };
    },
    translator() {
      const locale = effective();
      if (current?.locale !== locale) current = { locale, translate: createTranslator(locale) };
      return current.translate;
    },
  };
}
