import type { AppLocale } from '../locales.ts';
import enApp from './en/app.json' with { type: 'json' };
import deApp from './de/app.json' with { type: 'json' };
import itApp from './it/app.json' with { type: 'json' };
import enCatalogs from './en/catalogs.json' with { type: 'json' };
import deCatalogs from './de/catalogs.json' with { type: 'json' };
import itCatalogs from './it/catalogs.json' with { type: 'json' };
import enChecks from './en/checks.json' with { type: 'json' };
import deChecks from './de/checks.json' with { type: 'json' };
import itChecks from './it/checks.json' with { type: 'json' };
import enCommissioning from './en/commissioning.json' with { type: 'json' };
import deCommissioning from './de/commissioning.json' with { type: 'json' };
import itCommissioning from './it/commissioning.json' with { type: 'json' };
import enDevices from './en/devices.json' with { type: 'json' };
import deDevices from './de/devices.json' with { type: 'json' };
import itDevices from './it/devices.json' with { type: 'json' };
import enMenu from './en/menu.json' with { type: 'json' };
import deMenu from './de/menu.json' with { type: 'json' };
import itMenu from './it/menu.json' with { type: 'json' };
import enPlants from './en/plants.json' with { type: 'json' };
import dePlants from './de/plants.json' with { type: 'json' };
import itPlants from './it/plants.json' with { type: 'json' };
import enSensors from './en/sensors.json' with { type: 'json' };
import deSensors from './de/sensors.json' with { type: 'json' };
import itSensors from './it/sensors.json' with { type: 'json' };
import enVendors from './en/vendors.json' with { type: 'json' };
import deVendors from './de/vendors.json' with { type: 'json' };
import itVendors from './it/vendors.json' with { type: 'json' };

/**
 * Every message of PlantDesk, the renderer's and the main process's, by language and then by
 * area: a file per area and language (`en/app.json` holds the `app.*` keys), so that areas are
 * translated and reviewed on their own. English is the source and the schema; vue-i18n's message
 * syntax throughout (`{name}` placeholders, `one | other` plurals, `{'@'}` for a literal @).
 * Adding an area: its three files, and one line per language below.
 */
const en = {
  app: enApp,
  catalogs: enCatalogs,
  checks: enChecks,
  commissioning: enCommissioning,
  devices: enDevices,
  menu: enMenu,
  plants: enPlants,
  sensors: enSensors,
  vendors: enVendors,
};

export type MessageSchema = typeof en;

/** The same keys as English, whatever the words: a missing or extra key fails to compile. */
type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

const de: SameKeys<MessageSchema> = {
  app: deApp,
  catalogs: deCatalogs,
  checks: deChecks,
  commissioning: deCommissioning,
  devices: deDevices,
  menu: deMenu,
  plants: dePlants,
  sensors: deSensors,
  vendors: deVendors,
};

const it: SameKeys<MessageSchema> = {
  app: itApp,
  catalogs: itCatalogs,
  checks: itChecks,
  commissioning: itCommissioning,
  devices: itDevices,
  menu: itMenu,
  plants: itPlants,
  sensors: itSensors,
  vendors: itVendors,
};

export const MESSAGES: Readonly<Record<AppLocale, SameKeys<MessageSchema>>> = { en, de, it };
