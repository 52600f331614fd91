import { join } from 'node:path';
import { readJsonFile, writeJsonFileAtomic } from './dataFolder.ts';
import { silentLogger, type Logger } from './logger.ts';

/**
 * Whether the user stopped the Local sandbox, remembered in the data folder: support staff who
 * stop it (to work as if the server were down) find it still stopped at the next launch, until
 * they start it again. Anything unreadable counts as "not stopped": the app's default is a
 * running sandbox.
 */
export interface LocalSandboxChoice {
  stoppedByUser(): boolean;
  remember(stopped: boolean): void;
}

export function createLocalSandboxChoice(
  dataDir: string,
  log: Logger = silentLogger,
): LocalSandboxChoice {
  const file = join(dataDir, 'local-sandbox-choice.json');
  return {
    stoppedByUser() {
      const read = readJsonFile(file);
      if (read.status === 'unreadable') {
        log.warn('Local sandbox: the stop/start choice could not be read; starting it', {
          error: read.error.message,
        });
      }
      return (
        read.status === 'ok' &&
        typeof read.value === 'object' &&
        read.value !== null &&
        (read.value as { stopped?: unknown }).stopped === true
      );
    },
    remember(stopped) {
      try {
        writeJsonFileAtomic(file, { stopped });
      } catch (error) {
        // Not worth failing the stop or start for: only the next launch would differ.
        log.warn('Local sandbox: the stop/start choice could not be saved', {
          error: (error as Error).message,
        });
      }
    },
  };
}
