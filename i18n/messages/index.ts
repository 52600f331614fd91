import type { AppLocale } from '../locales.ts';
import enApp from './en/app.json' with { type: 'json' };
import deApp from './de/app.json' with { type: 'json' };
import itApp from './it/app.json' with { type: 'json' };
import enChecks from './en/checks.json' with { type: 'json' };
import deChecks from './de/checks.json' with { type: 'json' };
import itChecks from './it/checks.json' with { type: 'json' };
import enCommissioning from './en/commissioning.json' with { type: 'json' };
import deCommissioning from './de/commissioning.json' with { type: 'json' };
import itCommissioning from './it/commissioning.json' with { type: 'json' };
import enMenu from './en/menu.json' with { type: 'json' };
import deMenu from './de/menu.json' with { type: 'json' };
import itMenu from './it/menu.json' with { type: 'json' };

/**
 * Every message of PlantDesk, the renderer's and the main process's, by language and then by
 * area: a file per area and language (`en/app.json` holds the `app.*` keys), so that areas are
 * translated and reviewed on their own. English is the source and the schema; vue-i18n's message
 * syntax throughout (`{name}` placeholders, `one | other` plurals, `{'@'}` for a literal @).
 * Adding an area: its three files, and one line per language below.
 */
const en = {
  app: enApp,
  checks: enChecks,
  commissioning: enCommissioning,
  menu: enMenu,
};

export type MessageSchema = typeof en;

/** The same keys as English, whatever the words: a missing or extra key fails to compile. */
type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

const de: SameKeys<MessageSchema> = {
  app: deApp,
  checks: deChecks,
  commissioning: deCommissioning,
  menu: deMenu,
};

const it: SameKeys<MessageSchema> = {
  app: itApp,
  checks: itChecks,
  commissioning: itCommissioning,
  menu: itMenu,
};

export const MESSAGES: Readonly<Record<AppLocale, SameKeys<MessageSchema>>> = { en, de, it };
