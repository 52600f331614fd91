import type { AppLocale } from '../locales.ts';
import enAlerts from './en/alerts.json' with { type: 'json' };
import deAlerts from './de/alerts.json' with { type: 'json' };
import itAlerts from './it/alerts.json' with { type: 'json' };
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
import enCommon from './en/common.json' with { type: 'json' };
import deCommon from './de/common.json' with { type: 'json' };
import itCommon from './it/common.json' with { type: 'json' };
import enDevices from './en/devices.json' with { type: 'json' };
import deDevices from './de/devices.json' with { type: 'json' };
import itDevices from './it/devices.json' with { type: 'json' };
import enDrafts from './en/drafts.json' with { type: 'json' };
import deDrafts from './de/drafts.json' with { type: 'json' };
import itDrafts from './it/drafts.json' with { type: 'json' };
import enEnvironments from './en/environments.json' with { type: 'json' };
import deEnvironments from './de/environments.json' with { type: 'json' };
import itEnvironments from './it/environments.json' with { type: 'json' };
import enFleet from './en/fleet.json' with { type: 'json' };
import deFleet from './de/fleet.json' with { type: 'json' };
import itFleet from './it/fleet.json' with { type: 'json' };
import enMenu from './en/menu.json' with { type: 'json' };
import deMenu from './de/menu.json' with { type: 'json' };
import itMenu from './it/menu.json' with { type: 'json' };
import enNotes from './en/notes.json' with { type: 'json' };
import deNotes from './de/notes.json' with { type: 'json' };
import itNotes from './it/notes.json' with { type: 'json' };
import enPlants from './en/plants.json' with { type: 'json' };
import dePlants from './de/plants.json' with { type: 'json' };
import itPlants from './it/plants.json' with { type: 'json' };
import enReport from './en/report.json' with { type: 'json' };
import deReport from './de/report.json' with { type: 'json' };
import itReport from './it/report.json' with { type: 'json' };
import enSensors from './en/sensors.json' with { type: 'json' };
import deSensors from './de/sensors.json' with { type: 'json' };
import itSensors from './it/sensors.json' with { type: 'json' };
import enShell from './en/shell.json' with { type: 'json' };
import deShell from './de/shell.json' with { type: 'json' };
import itShell from './it/shell.json' with { type: 'json' };
import enSignIn from './en/signIn.json' with { type: 'json' };
import deSignIn from './de/signIn.json' with { type: 'json' };
import itSignIn from './it/signIn.json' with { type: 'json' };
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
  alerts: enAlerts,
  app: enApp,
  catalogs: enCatalogs,
  checks: enChecks,
  commissioning: enCommissioning,
  common: enCommon,
  devices: enDevices,
  drafts: enDrafts,
  environments: enEnvironments,
  fleet: enFleet,
  menu: enMenu,
  notes: enNotes,
  plants: enPlants,
  report: enReport,
  sensors: enSensors,
  shell: enShell,
  signIn: enSignIn,
  vendors: enVendors,
};

export type MessageSchema = typeof en;

/** The same keys as English, whatever the words: a missing or extra key fails to compile. */
type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

const de: SameKeys<MessageSchema> = {
  alerts: deAlerts,
  app: deApp,
  catalogs: deCatalogs,
  checks: deChecks,
  commissioning: deCommissioning,
  common: deCommon,
  devices: deDevices,
  drafts: deDrafts,
  environments: deEnvironments,
  fleet: deFleet,
  menu: deMenu,
  notes: deNotes,
  plants: dePlants,
  report: deReport,
  sensors: deSensors,
  shell: deShell,
  signIn: deSignIn,
  vendors: deVendors,
};

const it: SameKeys<MessageSchema> = {
  alerts: itAlerts,
  app: itApp,
  catalogs: itCatalogs,
  checks: itChecks,
  commissioning: itCommissioning,
  common: itCommon,
  devices: itDevices,
  drafts: itDrafts,
  environments: itEnvironments,
  fleet: itFleet,
  menu: itMenu,
  notes: itNotes,
  plants: itPlants,
  report: itReport,
  sensors: itSensors,
  shell: itShell,
  signIn: itSignIn,
  vendors: itVendors,
};

export const MESSAGES: Readonly<Record<AppLocale, SameKeys<MessageSchema>>> = { en, de, it };
