import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Alert } from '../../ipc/contract.ts';
import type { ApiClient } from '../api/apiClient.ts';
import { ApiError } from '../api/apiError.ts';
import { ensurePrivateFolder, readJsonFile, writeJsonFileAtomic } from '../dataFolder.ts';
import type { ReportScheduleDeps } from './reportScheduleService.ts';

/**
 * The schedule's ties to this machine: its settings file (`<data folder>/reports/schedule.json`,
 * 0600 in a 0700 folder, per OS user as the data folder is), the report files, the host's
 * local day and real timers, and the active environment's signed-in API client.
 */

/** The host's local day, `yyyy-MM-dd` ('en-CA' writes dates in that order). */
export const hostLocalDay = (at: Date): string => new Intl.DateTimeFormat('en-CA').format(at);

export interface ActiveEnvironment {
  name: string;
  client: ApiClient | null;
  alerts: readonly Alert[];
}

export function reportScheduleHostDeps(
  dataDir: string,
  active: () => ActiveEnvironment,
): Pick<
  ReportScheduleDeps,
  | 'file'
  | 'readJson'
  | 'writeJson'
  | 'writeFile'
  | 'localDay'
  | 'setInterval'
  | 'clearInterval'
  | 'source'
> {
  return {
    file: join(dataDir, 'reports', 'schedule.json'),
    readJson: readJsonFile,
    writeJson(path, value) {
      ensurePrivateFolder(dirname(path));
      writeJsonFileAtomic(path, value);
    },
    writeFile: (path, data) =>
      typeof data === 'string' ? writeFile(path, data, 'utf8') : writeFile(path, data),
    localDay: hostLocalDay,
    setInterval(run, ms) {
      const timer = setInterval(run, ms);
      // The schedule never keeps the app running by itself.
      timer.unref();
      return timer;
    },
    clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
    source() {
      const environment = active();
      const client = environment.client;
      if (!client) return null;
      return {
        environmentName: environment.name,
        deps: {
          call: (route, input) => client.call(route as never, input as never),
          statusOf: (error) => (error instanceof ApiError ? error.status : undefined),
          alertsOf: (plantUuid) =>
            environment.alerts.filter((alert) => alert.plantUuid === plantUuid),
        },
      };
    },
  };
}
