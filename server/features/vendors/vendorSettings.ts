import type { SettingValue, Vendor, VendorConfigField } from '../../../api/index.ts';
import { unprocessable } from '../../http/errors.ts';
import { SettingsCipher } from './settingsCipher.ts';

/**
 * The settings of a vendor integration for one plant, checked against the vendor's
 * configSchema. Secret fields are write-only: stored with the others, never answered.
 */

export type StoredSettings = Record<string, SettingValue>;

/** Stored settings as read back from JSON; anything that is not a setting value is dropped. */
export function storedSettingsOf(json: Record<string, unknown>): StoredSettings {
  const settings: StoredSettings = {};
  for (const [name, value] of Object.entries(json)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      settings[name] = value;
    }
  }
  return settings;
}

/** The settings that may be answered: every non-secret field of the schema holding a value. */
export function visibleSettings(vendor: Vendor, stored: StoredSettings): StoredSettings {
  const visible: StoredSettings = {};
  for (const field of vendor.configSchema.fields) {
    const value = stored[field.name];
    if (field.type !== 'secret' && value !== undefined) visible[field.name] = value;
  }
  return visible;
}

/** Names of the secret fields holding a value; the values themselves never leave the server. */
export function secretFieldsSet(vendor: Vendor, stored: StoredSettings): string[] {
  return vendor.configSchema.fields
    .filter((field) => field.type === 'secret' && stored[field.name] !== undefined)
    .map((field) => field.name);
}

/**
 * The settings to store after a PUT. The body states the whole configuration, except that a
 * secret field left out keeps its stored value (a client cannot resend what it cannot read);
 * `null` removes a field, secret or not. 422 for an unknown field, a value of the wrong type
 * or a required field left without a value. Messages name fields, never values.
 */
export function resolveSettings(
  vendor: Vendor,
  stored: StoredSettings,
  given: Record<string, SettingValue | null>,
): StoredSettings {
  const fields = vendor.configSchema.fields;
  assertKnownFields(vendor, Object.keys(given));
  const next: StoredSettings = {};
  for (const field of fields) {
    const value = Object.hasOwn(given, field.name) ? given[field.name] : undefined;
    if (value === undefined) {
      const kept = field.type === 'secret' ? stored[field.name] : undefined;
      if (kept !== undefined) next[field.name] = kept;
    } else if (value !== null) {
      assertFieldType(vendor, field, value);
      next[field.name] = value;
    }
    if (field.required && next[field.name] === undefined) {
      throw unprocessable(
        `Setting '${field.name}' of vendor ${vendor.code} is required${value === null ? ' and cannot be removed' : ''}`,
      );
    }
  }
  return next;
}

function assertKnownFields(vendor: Vendor, names: readonly string[]): void {
  const known = vendor.configSchema.fields.map((field) => field.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const accepted =
    known.length === 0 ? 'it takes no settings' : `its settings are ${known.join(', ')}`;
  throw unprocessable(
    `Unknown setting${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `'${name}'`).join(', ')} for vendor ${vendor.code}; ${accepted}`,
  );
}

const EXPECTED: Record<VendorConfigField['type'], string> = {
  string: 'a non-empty string',
  secret: 'a non-empty string (secret)',
  number: 'a number',
  boolean: 'true or false',
};

function assertFieldType(vendor: Vendor, field: VendorConfigField, value: SettingValue): void {
  const fits =
    field.type === 'number'
      ? typeof value === 'number' && Number.isFinite(value)
      : field.type === 'boolean'
        ? typeof value === 'boolean'
        : typeof value === 'string' && value.trim().length > 0;
  if (!fits) {
    throw unprocessable(
      `Setting '${field.name}' of vendor ${vendor.code} must be ${EXPECTED[field.type]}`,
    );
  }
}

/**
 * The settings as stored: every secret field's value sealed for this plant and vendor (a value
 * kept from before is sealed already).
 */
export function sealSecrets(
  vendor: Vendor,
  plantUuid: string,
  settings: StoredSettings,
  cipher: SettingsCipher,
): StoredSettings {
  const sealed: StoredSettings = { ...settings };
  for (const field of vendor.configSchema.fields) {
    const value = sealed[field.name];
    if (field.type !== 'secret' || value === undefined || SettingsCipher.isSealed(value)) continue;
    sealed[field.name] = cipher.seal(value, {
      plantUuid,
      vendorUuid: vendor.vendorUuid,
      field: field.name,
    });
  }
  return sealed;
}
