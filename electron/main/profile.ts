import path from 'node:path';
import { DEFAULT_KEYCHAIN_SERVICE } from '../services/secrets.ts';

/**
 * Which PlantDesk this process is: the installed app, or a development run (`npm run dev`, not
 * packaged), which must never share the installed app's data folder (environments, the Local
 * sandbox's database), its single-instance lock (held per data folder) or its keychain entries.
 */
export interface AppProfile {
  /** The data folder to use; undefined keeps Electron's (appData/PlantDesk). */
  userData?: string;
  keychainService: string;
}

export const DEV_PROFILE_NAME = 'PlantDesk Dev';

export function appProfile(options: {
  isPackaged: boolean;
  /** app.getPath('appData') */
  appData: string;
  /** PLANTDESK_USER_DATA_DIR: a data folder of its own (tests, a second profile). */
  userDataOverride?: string;
}): AppProfile {
  const keychainService = options.isPackaged ? DEFAULT_KEYCHAIN_SERVICE : DEV_PROFILE_NAME;
  if (options.userDataOverride) {
    return { userData: path.resolve(options.userDataOverride), keychainService };
  }
  if (options.isPackaged) return { keychainService };
  return { userData: path.join(options.appData, DEV_PROFILE_NAME), keychainService };
}
