import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appProfile, DEV_PROFILE_NAME } from '../../../electron/main/profile.ts';
import { DEFAULT_KEYCHAIN_SERVICE } from '../../../electron/services/secrets.ts';

describe('appProfile', () => {
  const appData = path.join('/home/ops/.config');

  it("keeps the installed app's data folder and keychain service", () => {
    expect(appProfile({ isPackaged: true, appData })).toEqual({
      keychainService: DEFAULT_KEYCHAIN_SERVICE,
    });
  });

  it('gives a development run a data folder (so a lock) and keychain entries of its own', () => {
    const dev = appProfile({ isPackaged: false, appData });
    expect(dev).toEqual({
      userData: path.join(appData, 'PlantDesk Dev'),
      keychainService: DEV_PROFILE_NAME,
    });
    expect(dev.userData).not.toBe(path.join(appData, 'PlantDesk'));
    expect(dev.keychainService).not.toBe(DEFAULT_KEYCHAIN_SERVICE);
  });

  it('takes PLANTDESK_USER_DATA_DIR as the data folder, packaged or not', () => {
    for (const isPackaged of [true, false]) {
      expect(appProfile({ isPackaged, appData, userDataOverride: 'tmp/profile' }).userData).toBe(
        path.resolve('tmp/profile'),
      );
    }
  });
});
