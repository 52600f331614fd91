import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Db } from './db/database.ts';
import { engineOfLocation } from './db/engine.ts';

/**
 * The server's two secrets: the JWT signing secret and the key that encrypts vendor secret
 * settings at rest. Neither lives in the database, so a copy of the database (a backup, a
 * support upload, a file left world-readable) can neither forge tokens nor read credentials:
 * - from the environment (`PLANTDESK_JWT_SECRET`, `PLANTDESK_SETTINGS_KEY`) when given;
 * - else from a key file next to the database (`<database>.keys`, mode 0600), written once;
 * - for an in-memory database, made up for the process (nothing outlives it anyway);
 * - on PostgreSQL there is no folder of the database to keep a key file in, and every instance
 *   on the database must sign and decrypt alike: both must come from the environment.
 * A database that still holds a signing secret in its `settings` table (versions before this
 * one) has it moved to the key file, so tokens issued before stay valid, and deleted there.
 */
export interface ServerKeys {
  jwtSecret: Uint8Array;
  /** 32 bytes, for AES-256-GCM. */
  settingsKey: Buffer;
}

export interface KeySources {
  /** The database file, `:memory:`, or a `postgres://` URL. */
  databasePath: string;
  /** PLANTDESK_JWT_SECRET: at least 32 bytes. */
  jwtSecret?: string;
  /** PLANTDESK_SETTINGS_KEY: at least 32 bytes. */
  settingsKey?: string;
}

export const MIN_SECRET_BYTES = 32;
const LEGACY_JWT_SETTING = 'jwt_secret';

interface KeyFile {
  jwtSecret: string;
  settingsKey: string;
}

export function keyFilePath(databasePath: string): string {
  return `${databasePath}.keys`;
}

/** A secret given as text: its UTF-8 bytes, refused below 32 of them. */
export function secretFromText(name: string, text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new Error(
      `${name} must be at least ${MIN_SECRET_BYTES} bytes long (it has ${bytes.length}); ` +
        "make one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"",
    );
  }
  return bytes;
}

export async function loadServerKeys(db: Db, sources: KeySources): Promise<ServerKeys> {
  if (engineOfLocation(sources.databasePath) === 'postgres') return givenKeys(sources);
  const legacy = await legacySigningSecret(db);
  const givenJwt = sources.jwtSecret && secretFromText('PLANTDESK_JWT_SECRET', sources.jwtSecret);
  const givenSettings =
    sources.settingsKey && secretFromText('PLANTDESK_SETTINGS_KEY', sources.settingsKey);
  const stored =
    sources.databasePath === ':memory:'
      ? undefined
      : storedKeys(keyFilePath(sources.databasePath), legacy);
  // Only once the key file holds it (or the environment gives another) does it leave the table.
  if (legacy) await db.deleteFrom('settings').where('key', '=', LEGACY_JWT_SETTING).execute();
  return {
    jwtSecret: givenJwt || stored?.jwtSecret || legacy || randomBytes(32),
    settingsKey: givenSettings
      ? settingsKeyFrom(givenSettings)
      : (stored?.settingsKey ?? randomBytes(32)),
  };
}

function givenKeys(sources: KeySources): ServerKeys {
  if (!sources.jwtSecret || !sources.settingsKey) {
    throw new Error(
      'On PostgreSQL the server needs PLANTDESK_JWT_SECRET and PLANTDESK_SETTINGS_KEY: there is no ' +
        'key file beside the database, and every instance on it must use the same keys',
    );
  }
  return {
    jwtSecret: secretFromText('PLANTDESK_JWT_SECRET', sources.jwtSecret),
    settingsKey: settingsKeyFrom(secretFromText('PLANTDESK_SETTINGS_KEY', sources.settingsKey)),
  };
}

const settingsKeyFrom = (given: Buffer) =>
  Buffer.from(hkdfSync('sha256', given, 'plantdesk', 'vendor settings', 32));

/**
 * The key file's keys, creating the file (exclusively: two servers starting on one database
 * agree on the one that got there first) when it does not exist. A file readable by others is
 * tightened to 0600.
 */
function storedKeys(
  file: string,
  legacyJwtSecret: Buffer | undefined,
): { jwtSecret: Buffer; settingsKey: Buffer } {
  const fresh: KeyFile = {
    jwtSecret: (legacyJwtSecret ?? randomBytes(32)).toString('base64url'),
    settingsKey: randomBytes(32).toString('base64url'),
  };
  try {
    writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeyFile>;
  if (typeof parsed.jwtSecret !== 'string' || typeof parsed.settingsKey !== 'string') {
    throw new Error(`The key file ${file} is not one this server wrote`);
  }
  return {
    jwtSecret: Buffer.from(parsed.jwtSecret, 'base64url'),
    settingsKey: Buffer.from(parsed.settingsKey, 'base64url'),
  };
}

/** The signing secret earlier versions kept in the database. */
async function legacySigningSecret(db: Db): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', LEGACY_JWT_SETTING)
    .executeTakeFirst();
  return row ? Buffer.from(row.value, 'base64url') : undefined;
}
