import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  ensurePrivateFolder,
  environmentFileName as fileNameOf,
  readJsonFile,
  setAsideCorruptFile,
  writeJsonFileAtomic,
} from '../dataFolder.ts';
import type { Logger } from '../logger.ts';
import type { StoredAcceptanceRecheck } from './acceptanceWording.ts';

/**
 * Where acceptance re-checks outlive a restart (one due while the app was closed runs at the
 * next start): `<data folder>/acceptance/<environment id>.json`, 0600 in a 0700 folder, as the
 * alerts are kept. A damaged file is set aside and the environment starts with none.
 */

const Stored = z.object({
  version: z.literal(1),
  rechecks: z.array(
    z.looseObject({
      plantUuid: z.string(),
      commissionedAt: z.string(),
      dueAt: z.string(),
      status: z.enum(['pending', 'done']),
    }),
  ),
});

export interface AcceptanceStore {
  load(environmentId: string): StoredAcceptanceRecheck[];
  save(environmentId: string, rechecks: readonly StoredAcceptanceRecheck[]): void;
  /** Environments with a file: those whose re-checks may be due at start. */
  environments(): string[];
  /** The environment was removed: its re-checks go with it. */
  remove(environmentId: string): void;
}

export function createAcceptanceStore(dataDir: string, log: Logger): AcceptanceStore {
  const folder = join(dataDir, 'acceptance');
  return {
    load(environmentId) {
      const path = join(folder, fileNameOf(environmentId));
      const read = readJsonFile(path);
      if (read.status === 'missing') return [];
      const parsed = read.status === 'ok' ? Stored.safeParse(read.value) : undefined;
      if (parsed?.success) return parsed.data.rechecks as unknown as StoredAcceptanceRecheck[];
      log.warn('Set aside an unreadable acceptance file', {
        path,
        copy: setAsideCorruptFile(path),
      });
      return [];
    },
    save(environmentId, rechecks) {
      ensurePrivateFolder(folder);
      writeJsonFileAtomic(join(folder, fileNameOf(environmentId)), { version: 1, rechecks });
    },
    remove(environmentId) {
      rmSync(join(folder, fileNameOf(environmentId)), { force: true });
    },
    environments() {
      try {
        return readdirSync(folder)
          .filter((name) => name.endsWith('.json'))
          .map((name) => name.slice(0, -'.json'.length));
      } catch {
        return [];
      }
    },
  };
}
