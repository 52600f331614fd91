import {
  startPlantDesk,
  type PlantDesk,
  type PlantDeskOptions,
} from '../../electron/services/plantDesk.ts';
import { createMemoryStore } from '../../electron/services/secrets.ts';
import { idleSandbox } from './idleSandbox.ts';

/**
 * The host services for tests that bring their own server: a Local sandbox that never listens,
 * a working keychain in memory, no log, no browser. Options override any of these.
 */
export function startTestPlantDesk(
  options: Pick<PlantDeskOptions, 'dataDir'> & Partial<PlantDeskOptions>,
): Promise<PlantDesk> {
  return startPlantDesk({
    host: 'web',
    version: 'test',
    spawnServer: idleSandbox,
    secrets: { store: { ...createMemoryStore(), available: true }, status: { available: true } },
    log: { info() {}, warn() {}, error() {} },
    openExternal: async () => {},
    ...options,
  });
}
