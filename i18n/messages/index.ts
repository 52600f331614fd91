import type { AppLocale } from '../locales.ts';
import enAcceptance from './en/acceptance.json' with { type: 'json' };
import deAcceptance from './de/acceptance.json' with { type: 'json' };
import itAcceptance from './it/acceptance.json' with { type: 'json' };
import enAlerts from './en/alerts.json' with { type: 'json' };
import deAlerts from './de/alerts.json' with { type: 'json' };
import itAlerts from './it/alerts.json' with { type: 'json' };
import enAnalytics from './en/analytics.json' with { type: 'json' };
import deAnalytics from './de/analytics.json' with { type: 'json' };
import itAnalytics from './it/analytics.json' with { type: 'json' };
import enApp from './en/app.json' with { type: 'json' };
import deApp from './de/app.json' with { type: 'json' };
import itApp from './it/app.json' with { type: 'json' };
import enCatalogs from './en/catalogs.json' with { type: 'json' };
import deCatalogs from './de/catalogs.json' with { type: 'json' };
import itCatalogs from './it/catalogs.json' with { type: 'json' };
import enCharts from './en/charts.json' with { type: 'json' };
import deCharts from './de/charts.json' with { type: 'json' };
import itCharts from './it/charts.json' with { type: 'json' };
import enChecks from './en/checks.json' with { type: 'json' };
import deChecks from './de/checks.json' with { type: 'json' };
import itChecks from './it/checks.json' with { type: 'json' };
import enCommissioning from './en/commissioning.json' with { type: 'json' };
import deCommissioning from './de/commissioning.json' with { type: 'json' };
import itCommissioning from './it/commissioning.json' with { type: 'json' };
import enCommon from './en/common.json' with { type: 'json' };
import deCommon from './de/common.json' with { type: 'json' };
import itCommon from './it/common.json' with { type: 'json' };
import enComparison from './en/comparison.json' with { type: 'json' };
import deComparison from './de/comparison.json' with { type: 'json' };
import itComparison from './it/comparison.json' with { type: 'json' };
import enDashboard from './en/dashboard.json' with { type: 'json' };
import deDashboard from './de/dashboard.json' with { type: 'json' };
import itDashboard from './it/dashboard.json' with { type: 'json' };
import enDataHealth from './en/dataHealth.json' with { type: 'json' };
import deDataHealth from './de/dataHealth.json' with { type: 'json' };
import itDataHealth from './it/dataHealth.json' with { type: 'json' };
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
import enHost from './en/host.json' with { type: 'json' };
import deHost from './de/host.json' with { type: 'json' };
import itHost from './it/host.json' with { type: 'json' };
import enMenu from './en/menu.json' with { type: 'json' };
import deMenu from './de/menu.json' with { type: 'json' };
import itMenu from './it/menu.json' with { type: 'json' };
import enMonitor from './en/monitor.json' with { type: 'json' };
import deMonitor from './de/monitor.json' with { type: 'json' };
import itMonitor from './it/monitor.json' with { type: 'json' };
import enNotes from './en/notes.json' with { type: 'json' };
import deNotes from './de/notes.json' with { type: 'json' };
import itNotes from './it/notes.json' with { type: 'json' };
import enPlants from './en/plants.json' with { type: 'json' };
import dePlants from './de/plants.json' with { type: 'json' };
import itPlants from './it/plants.json' with { type: 'json' };
import enProxy from './en/proxy.json' with { type: 'json' };
import deProxy from './de/proxy.json' with { type: 'json' };
import itProxy from './it/proxy.json' with { type: 'json' };
import enReport from './en/report.json' with { type: 'json' };
import deReport from './de/report.json' with { type: 'json' };
import itReport from './it/report.json' with { type: 'json' };
import enReports from './en/reports.json' with { type: 'json' };
import deReports from './de/reports.json' with { type: 'json' };
import itReports from './it/reports.json' with { type: 'json' };
import enSensors from './en/sensors.json' with { type: 'json' };
import deSensors from './de/sensors.json' with { type: 'json' };
import itSensors from './it/sensors.json' with { type: 'json' };
import enShell from './en/shell.json' with { type: 'json' };
import deShell from './de/shell.json' with { type: 'json' };
import itShell from './it/shell.json' with { type: 'json' };
import enSignIn from './en/signIn.json' with { type: 'json' };
import deSignIn from './de/signIn.json' with { type: 'json' };
import itSignIn from './it/signIn.json' with { type: 'json' };
import enSupport from './en/support.json' with { type: 'json' };
import deSupport from './de/support.json' with { type: 'json' };
import itSupport from './it/support.json' with { type: 'json' };
import enVendors from './en/vendors.json' with { type: 'json' };
import deVendors from './de/vendors.json' with { type: 'json' };
import itVendors from './it/vendors.json' with { type: 'json' };
import enWiring from './en/wiring.json' with { type: 'json' };
import deWiring from './de/wiring.json' with { type: 'json' };
import itWiring from './it/wiring.json' with { type: 'json' };

/**
 * Every message of PlantDesk, the renderer's and the main process's, by language and then by
 * area: a file per area and language (`en/app.json` holds the `app.*` keys), so that areas are
 * translated and reviewed on their own. English is the source and the schema; vue-i18n's message
 * syntax throughout (`{name}` placeholders, `one | other` plurals, `{'@'}` for a literal @).
 * Adding an area: its three files, and one line per language below.
 */
const en = {
  acceptance: enAcceptance,
  alerts: enAlerts,
  analytics: enAnalytics,
  app: enApp,
  catalogs: enCatalogs,
  charts: enCharts,
  checks: enChecks,
  commissioning: enCommissioning,
  common: enCommon,
  comparison: enComparison,
  dashboard: enDashboard,
  dataHealth: enDataHealth,
  devices: enDevices,
  drafts: enDrafts,
  environments: enEnvironments,
  fleet: enFleet,
  host: enHost,
  menu: enMenu,
  monitor: enMonitor,
  notes: enNotes,
  plants: enPlants,
  proxy: enProxy,
  report: enReport,
  reports: enReports,
  sensors: enSensors,
  shell: enShell,
  signIn: enSignIn,
  support: enSupport,
  vendors: enVendors,
  wiring: enWiring,
};

export type MessageSchema = typeof en;

/** The same keys as English, whatever the words: a missing or extra key fails to compile. */
type SameKeys<T> = { [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };

const de: SameKeys<MessageSchema> = {
  acceptance: deAcceptance,
  alerts: deAlerts,
  analytics: deAnalytics,
  app: deApp,
  catalogs: deCatalogs,
  charts: deCharts,
  checks: deChecks,
  commissioning: deCommissioning,
  common: deCommon,
  comparison: deComparison,
  dashboard: deDashboard,
  dataHealth: deDataHealth,
  devices: deDevices,
  drafts: deDrafts,
  environments: deEnvironments,
  fleet: deFleet,
  host: deHost,
  menu: deMenu,
  monitor: deMonitor,
  notes: deNotes,
  plants: dePlants,
  proxy: deProxy,
  report: deReport,
  reports: deReports,
  sensors: deSensors,
  shell: deShell,
  signIn: deSignIn,
  support: deSupport,
  vendors: deVendors,
  wiring: deWiring,
};

const it: SameKeys<MessageSchema> = {
  acceptance: itAcceptance,
  alerts: itAlerts,
  analytics: itAnalytics,
  app: itApp,
  catalogs: itCatalogs,
  charts: itCharts,
  checks: itChecks,
  commissioning: itCommissioning,
  common: itCommon,
  comparison: itComparison,
  dashboard: itDashboard,
  dataHealth: itDataHealth,
  devices: itDevices,
  drafts: itDrafts,
  environments: itEnvironments,
  fleet: itFleet,
  host: itHost,
  menu: itMenu,
  monitor: itMonitor,
  notes: itNotes,
  plants: itPlants,
  proxy: itProxy,
  report: itReport,
  reports: itReports,
  sensors: itSensors,
  shell: itShell,
  signIn: itSignIn,
  support: itSupport,
  vendors: itVendors,
  wiring: itWiring,
};

export const MESSAGES: Readonly<Record<AppLocale, SameKeys<MessageSchema>>> = { en, de, it };
