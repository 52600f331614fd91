import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SettingValue } from '../../../api/index.ts';

/**
 * Vendor secret settings at rest: AES-256-GCM with the server's settings key (kept outside the
 * database, see keys.ts), bound to the plant, vendor and field they belong to, so a sealed
 * value copied to another row does not open. Sealed values are stored as
 * `enc:v1:<iv|tag|ciphertext, base64url>` strings in the settings JSON.
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretPlace {
  plantUuid: string;
  vendorUuid: string;
  field: string;
}

export class SettingsCipher {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The settings key must be 32 bytes');
    this.#key = key;
  }

  static isSealed(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(PREFIX);
  }

  seal(value: SettingValue, place: SecretPlace): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(aadOf(place));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The value, or an error when it was sealed with another key or for another place. */
  open(sealed: string, place: SecretPlace): SettingValue {
    if (!SettingsCipher.isSealed(sealed)) throw new Error('Not a sealed setting');
    const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(aadOf(place));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    return JSON.parse(text) as SettingValue;
  }
}

function aadOf(place: SecretPlace): Buffer {
  return Buffer.from(`${place.plantUuid}/${place.vendorUuid}/${place.field}`, 'utf8');
}
