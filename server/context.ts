import type { Db } from './db/database.ts';
import type { SettingsCipher } from './features/vendors/settingsCipher.ts';
import type { FamilyRevocations } from './auth/familyRevocations.ts';
import type { LoginLimiter } from './auth/loginThrottle.ts';
import type { PasswordChecker } from './auth/passwords.ts';
import type { TokenService } from './auth/tokens.ts';
import type { ConnectionTester } from './integrations/connectionTester.ts';
import type { PlantLookup } from './features/plants/plantLookup.ts';
import type { PlantDirectory } from './features/plants/plantDirectory.ts';
import type { SearchIndexUpkeep } from './features/plants/searchIndexUpkeep.ts';
import type { PvHealthThresholds } from './pvHealth/pvHealthThresholds.ts';
import type { IngestionObserver } from './ops/serverMetrics.ts';
import type { RawRetention } from './measurements/rawRetentionSchedule.ts';

/** What route handlers need; built once per server and passed down explicitly. */
export interface ServerContext {
  db: Db;
  /** Encrypts vendor secret settings at rest. */
  settingsCipher: SettingsCipher;
  tokens: TokenService;
  /** Revoked sign-ins (refresh-token families): their access tokens are refused. */
  revocations: FamilyRevocations;
  passwords: PasswordChecker;
  loginThrottle: LoginLimiter;
  connections: ConnectionTester;
  /** Plants by uuid for the ownership check, remembered until the next write. */
  plants: PlantLookup;
  /** Told of plant writes: keeps the plant search's index compact (SQLite). */
  searchUpkeep: SearchIndexUpkeep;
  /** Each organization's plants in memory while unchanged: the plant list's answers. */
  plantDirectory: PlantDirectory;
  /** Moves on every write to the database: caches of derived answers compare against it. */
  writes: { readonly value: number };
  /** Wall clock, injectable for tests. */
  now: () => Date;
  /** PV health thresholds overriding the defaults (README, "PV health"). */
  pvHealth?: Partial<PvHealthThresholds>;
  /** Told of readings accepted through the API (metrics), when metrics are on. */
  ingestion?: IngestionObserver;
  /** Raw retention, when on: readings older than its horizon are refused. */
  rawRetention?: Pick<RawRetention, 'days' | 'horizonMs'>;
}
