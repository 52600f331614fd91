import type { AppLocale } from '../locales.ts';
import enAcceptance from './en/acceptance.json' with { type: 'json' };
import deAcceptance from './de/acceptance.json' with { type: 'json' };
import itAcceptance from './it/acceptance.json' with { type: 'json' };
import enApp from './en/app.json' with { type: 'json' };
import deApp from './de/app.json' with { type: 'json' };
import itApp from './it/app.json' with { type: 'json' };
import enHost from './en/host.json' with { type: 'json' };
import deHost from './de/host.json' with { type: 'json' };
import itHost from './it/host.json' with { type: 'json' };
import enMenu from './en/menu.json' with { type: 'json' };
import deMenu from './de/menu.json' with { type: 'json' };
import itMenu from './it/menu.json' with { type: 'json' };
import enMonitor from './en/monitor.json' with { type: 'json' };
import deMonitor from './de/monitor.json' with { type: 'json' };
import itMonitor from './it/monitor.json' with { type: 'json' };

/**
 * Every message of PlantDesk, the renderer's and the main process's, by language and then by
 * area: a file per area and language (`en/app.json` holds the `app.*` keys), so that areas are
 * translated and reviewed on their own. English is the source and the schema; vue-i18n's message
 * syntax throughout (`{name}` placeholders, `one | other` plurals, `{'@'}` for a literal @).
 * Adding an area: its three files, and one line per language below.
 */
const en = {
  acceptance: enAcceptance,
  app: enApp,
  host: enHost,
  menu: enMenu,
  monitor: enMonitor,
};

export type MessageSchema = typeof en;

/** The same keys as English, whatever the words: a missing or extra key fails to compile. */
type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

const de: SameKeys<MessageSchema> = {
  acceptance: deAcceptance,
  app: deApp,
  host: deHost,
  menu: deMenu,
  monitor: deMonitor,
};

const it: SameKeys<MessageSchema> = {
  acceptance: itAcceptance,
  app: itApp,
  host: itHost,
  menu: itMenu,
  monitor: itMonitor,
};

export const MESSAGES: Readonly<Record<AppLocale, SameKeys<MessageSchema>>> = { en, de, it };
