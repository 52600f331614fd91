import type { RouteResult } from '../../../api/routeInput.ts';
import type { Plant } from '../../../api/schemas/plants.ts';
import type { PlantVendor } from '../../../api/schemas/vendors.ts';
import type { DataHealthSummary } from '../../../server/domain/dataHealth/summary.ts';
import type { Alert, SupportBundleFile, SupportBundlePart } from '../../ipc/contract.ts';
import { REDACTED, REDACTED_EMAIL, redactLines, redactValue } from '../redaction.ts';

/**
 * What a support bundle holds, file by file, every file redacted. Pure: the service gathers the
 * sources (API, alert store, log), this decides names and contents. Contents are in English,
 * for the support staff who read them, whatever the user's language.
 */

/** A part read from the server: its answer, or why there is none (an extension not served). */
export type Part<T> = { available: true; value: T } | { available: false; reason: string };

/** A plant's part: the model (plant, devices, sensors, vendors), statuses and data health. */
export interface PlantSources {
  plant: Plant;
  devices: Part<RouteResult<'listDevices'>['content']>;
  sensors: Part<RouteResult<'listSensors'>['content']>;
  vendors: Part<PlantVendor[]>;
  sensorStatuses: Part<unknown>;
  dataHealth: Part<DataHealthSummary>;
}

export interface BundleSources {
  createdAt: string;
  app: {
    name: string;
    version: string;
    host: 'electron' | 'web';
    platform: string;
    arch: string;
    versions: Record<string, string>;
    language: string;
  };
  environment: { name: string; kind: string; origin: string };
  /** Absent for the app-wide bundle (Help), which has no plant. */
  plant?: PlantSources;
  /** The environment's alerts (the plant's, for a plant's bundle), open ones first. */
  alerts: readonly Alert[];
  /** The newest lines of the app's log, oldest first. */
  logLines: readonly string[];
}

export interface BundleFile {
  name: string;
  text: string;
}

/** How many resolved alerts a bundle keeps besides every open one. */
export const RECENT_RESOLVED_ALERTS = 50;

export const MANIFEST_FILE = 'manifest.json';

const json = (value: unknown): string => `${JSON.stringify(redactValue(value), null, 2)}\n`;

/**
 * A vendor as support needs it: its non-secret settings, and of each secret field only whether
 * it holds a value. A secret field is dropped from `settings` even if a server sent it.
 */
export function vendorForBundle(vendor: PlantVendor) {
  const secretFields = vendor.configSchema.fields
    .filter((field) => field.type === 'secret')
    .map((field) => field.name);
  const settings = Object.fromEntries(
    Object.entries(vendor.settings ?? {}).filter(([name]) => !secretFields.includes(name)),
  );
  return {
    vendorUuid: vendor.vendorUuid,
    code: vendor.code,
    name: vendor.name,
    kind: vendor.kind,
    configured: vendor.configured,
    configuredAt: vendor.configuredAt,
    settings: vendor.settings === null ? null : settings,
    secretSettingsSet: Object.fromEntries(
      secretFields.map((name) => [name, vendor.secretFieldsSet.includes(name)]),
    ),
  };
}

function partFile<T>(
  name: string,
  part: Part<T>,
  shape: (value: T) => unknown = (value) => value,
): BundleFile {
  return part.available
    ? { name: `${name}.json`, text: json(shape(part.value)) }
    : { name: `${name}.unavailable.txt`, text: `Not available: ${part.reason}\n` };
}

/** Open alerts, then the newest resolved ones, without their long history of events. */
export function alertsForBundle(alerts: readonly Alert[]) {
  const open = alerts.filter((alert) => alert.status === 'open');
  const resolved = alerts
    .filter((alert) => alert.status === 'resolved')
    .sort((a, b) => (b.resolvedAt ?? '').localeCompare(a.resolvedAt ?? ''))
    .slice(0, RECENT_RESOLVED_ALERTS);
  return { open, recentlyResolved: resolved };
}

/** The plant's parts that are not in the bundle, as the page names them. */
export function missingParts(plant: PlantSources | undefined): SupportBundlePart[] {
  if (!plant) return [];
  const parts = ['devices', 'sensors', 'vendors', 'sensorStatuses', 'dataHealth'] as const;
  return parts.filter((part) => !plant[part].available);
}

/** Every file of the bundle but the manifest, redacted, in the order they are listed. */
export function bundleFiles(sources: BundleSources): BundleFile[] {
  const files: BundleFile[] = [
    { name: 'app.json', text: json({ ...sources.app, createdAt: sources.createdAt }) },
    { name: 'environment.json', text: json(sources.environment) },
  ];
  if (sources.plant) {
    const plant = sources.plant;
    files.push(
      { name: 'plant/plant.json', text: json(plant.plant) },
      partFile('plant/devices', plant.devices),
      partFile('plant/sensors', plant.sensors),
      partFile('plant/vendors', plant.vendors, (vendors) => vendors.map(vendorForBundle)),
      partFile('plant/sensor-statuses', plant.sensorStatuses),
      partFile('plant/data-health', plant.dataHealth),
    );
  }
  files.push(
    { name: 'alerts.json', text: json(alertsForBundle(sources.alerts)) },
    {
      name: 'logs/recent.log',
      text: redactLines(sources.logLines.map((line) => `${line}\n`).join('')),
    },
  );
  return files;
}

const encoder = new TextEncoder();

/** The list the user sees before saving, and the bundle's own manifest.json. */
export function manifestOf(files: readonly BundleFile[]): SupportBundleFile[] {
  return files.map((file) => ({ name: file.name, bytes: encoder.encode(file.text).length }));
}

/** The files with manifest.json first: what is zipped. */
export function withManifest(sources: BundleSources, files: readonly BundleFile[]): BundleFile[] {
  const manifest: BundleFile = {
    name: MANIFEST_FILE,
    text: json({
      createdAt: sources.createdAt,
      plantUuid: sources.plant?.plant.plantUuid ?? null,
      redacted: `Secrets, tokens, passwords, API keys and e-mail addresses are replaced by ${REDACTED} or ${REDACTED_EMAIL}.`,
      files: manifestOf(files),
    }),
  };
  return [manifest, ...files];
}
