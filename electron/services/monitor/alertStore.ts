import { join } from 'node:path';
import { z } from 'zod';
import type { MonitorSettings } from '../../ipc/contract.ts';
import {
  ensurePrivateFolder,
  environmentFileName as fileNameOf,
  readJsonFile,
  setAsideCorruptFile,
  writeJsonFileAtomic,
} from '../dataFolder.ts';
import type { Logger } from '../logger.ts';
import { NO_ALERTS, type EnvironmentAlerts } from './alertLifecycle.ts';

/**
 * Where alerts outlive a restart: `<data folder>/alerts/<environment id>.json` per environment
 * (0600 in a 0700 folder: they name plants and people), and the monitor's settings in
 * `<data folder>/monitor-settings.json`. A damaged file is set aside and the app starts empty.
 */

export const DEFAULT_MONITOR_SETTINGS: MonitorSettings = {
  intervalMinutes: 5,
  notifications: true,
  keepInTray: false,
};

const StoredAlerts = z.object({
  version: z.literal(1),
  alerts: z.array(z.looseObject({ id: z.string(), status: z.enum(['open', 'resolved']) })),
  pending: z.array(z.object({ key: z.string(), since: z.string() })),
  mutes: z.array(z.looseObject({ plantUuid: z.string(), until: z.string() })),
});
const StoredSettings = z.object({
  intervalMinutes: z.int().min(1).max(1440),
  notifications: z.boolean(),
  keepInTray: z.boolean(),
});

export interface AlertStore {
  load(environmentId: string): EnvironmentAlerts;
  save(environmentId: string, alerts: EnvironmentAlerts): void;
  remove(environmentId: string): void;
  loadSettings(): MonitorSettings;
  saveSettings(settings: MonitorSettings): void;
}

export function createAlertStore(dataDir: string, log: Logger): AlertStore {
  const folder = join(dataDir, 'alerts');
  const settingsFile = join(dataDir, 'monitor-settings.json');
  const ensureFolder = () => ensurePrivateFolder(folder);

  function readOrSetAside<T>(path: string, schema: z.ZodType<T>, fallback: T): T {
    const read = readJsonFile(path);
    if (read.status === 'missing') return fallback;
    const parsed = read.status === 'ok' ? schema.safeParse(read.value) : undefined;
    if (parsed?.success) return parsed.data;
    const copy = setAsideCorruptFile(path);
    log.warn('Set aside an unreadable monitor file', { path, copy });
    return fallback;
  }

  return {
    load(environmentId) {
      const stored = readOrSetAside(join(folder, fileNameOf(environmentId)), StoredAlerts, null);
      return stored ? (stored as unknown as EnvironmentAlerts) : NO_ALERTS;
    },
    save(environmentId, alerts) {
      ensureFolder();
      writeJsonFileAtomic(join(folder, fileNameOf(environmentId)), { version: 1, ...alerts });
    },
    remove(environmentId) {
      ensureFolder();
      writeJsonFileAtomic(join(folder, fileNameOf(environmentId)), { version: 1, ...NO_ALERTS });
    },
    loadSettings() {
      return readOrSetAside(settingsFile, StoredSettings, DEFAULT_MONITOR_SETTINGS);
    },
    saveSettings(settings) {
      ensurePrivateFolder(dataDir);
      writeJsonFileAtomic(settingsFile, settings);
    },
  };
}
