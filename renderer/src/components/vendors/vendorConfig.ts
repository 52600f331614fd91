import type {
  PlantVendor,
  PlantVendorConfigureDto,
  SettingValue,
  VendorConfigField,
} from '../../../../api/schemas/vendors.ts';
import type { Translate } from '../../../../i18n/translator.ts';

/**
 * The vendor configuration form, as plain data: what each field starts with, what the user's
 * input means for the `PUT /plants/{plantUuid}/vendors/{vendorUuid}` body, and which required
 * field is missing. Secrets are write-only: never prefilled, and left out of the body when left
 * empty so the server keeps what it stores.
 */

/** What the form holds per field: text for strings and secrets, a number or null, a boolean. */
export type FieldValue = string | number | boolean | null;
export type FormValues = Record<string, FieldValue>;

/** The form's starting values: the stored non-secret settings; secrets always start empty. */
export function initialValues(vendor: Pick<PlantVendor, 'configSchema' | 'settings'>): FormValues {
  const values: FormValues = {};
  for (const field of vendor.configSchema.fields) {
    const stored = field.type === 'secret' ? undefined : vendor.settings?.[field.name];
    switch (field.type) {
      case 'number':
        values[field.name] = typeof stored === 'number' ? stored : null;
        break;
      case 'boolean':
        values[field.name] = typeof stored === 'boolean' ? stored : false;
        break;
      default:
        values[field.name] = typeof stored === 'string' ? stored : '';
    }
  }
  return values;
}

/** Whether the server holds a value for this secret field (its value is never answered). */
export function secretIsStored(
  vendor: Pick<PlantVendor, 'secretFieldsSet'>,
  field: Pick<VendorConfigField, 'name' | 'type'>,
): boolean {
  return field.type === 'secret' && vendor.secretFieldsSet.includes(field.name);
}

/**
 * The required fields the user left without a value, with the message to show under each. A
 * required secret already stored may stay empty (the server keeps it). The field's label is
 * the server's; the sentence around it is worded with `t`.
 */
export function missingRequired(
  vendor: Pick<PlantVendor, 'configSchema' | 'secretFieldsSet'>,
  values: FormValues,
  t: Translate,
  removeSecrets: readonly string[] = [],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of vendor.configSchema.fields) {
    if (!field.required) continue;
    const value = values[field.name];
    const keptSecret = secretIsStored(vendor, field) && !removeSecrets.includes(field.name);
    const empty =
      field.type === 'number'
        ? typeof value !== 'number' || !Number.isFinite(value)
        : field.type === 'boolean'
          ? typeof value !== 'boolean'
          : typeof value !== 'string' || value.trim() === '';
    if (empty && !keptSecret)
      errors[field.name] = t('vendors.config.isRequired', { field: field.label });
  }
  return errors;
}

/**
 * The body of the configure call. The body states the whole configuration: a non-secret field
 * without a value is left out (the server drops it); a secret left empty is left out (the server
 * keeps it); a secret the user chose to remove is sent as `null`.
 */
export function configureBody(
  vendor: Pick<PlantVendor, 'configSchema' | 'secretFieldsSet'>,
  values: FormValues,
  removeSecrets: readonly string[] = [],
): PlantVendorConfigureDto {
  const settings: Record<string, SettingValue | null> = {};
  for (const field of vendor.configSchema.fields) {
    const value = values[field.name];
    if (field.type === 'secret') {
      if (typeof value === 'string' && value !== '') settings[field.name] = value;
      else if (removeSecrets.includes(field.name) && secretIsStored(vendor, field)) {
        settings[field.name] = null;
      }
    } else if (field.type === 'number') {
      if (typeof value === 'number' && Number.isFinite(value)) settings[field.name] = value;
    } else if (field.type === 'boolean') {
      settings[field.name] = value === true;
    } else if (typeof value === 'string' && value.trim() !== '') {
      settings[field.name] = value.trim();
    }
  }
  return { settings };
}

/**
 * The field a server message is about: the API names settings as `Setting 'siteId' of vendor …`
 * (and unknown ones as `Unknown setting 'x'`); null when it names none of the form's fields.
 */
export function fieldOfMessage(
  fields: readonly Pick<VendorConfigField, 'name'>[],
  message: string,
): string | null {
  const names = [...message.matchAll(/'([^']+)'/g)].map((match) => match[1]);
  return fields.find((field) => names.includes(field.name))?.name ?? null;
}

/** A settings summary for the table: non-secret values as stored, secrets only as "stored". */
export function settingsSummary(
  vendor: Pick<PlantVendor, 'configSchema' | 'settings' | 'secretFieldsSet'>,
  t: Translate,
): { label: string; value: string; secret: boolean }[] {
  const entries: { label: string; value: string; secret: boolean }[] = [];
  for (const field of vendor.configSchema.fields) {
    if (field.type === 'secret') {
      if (secretIsStored(vendor, field)) {
        entries.push({ label: field.label, value: t('vendors.config.storedSecret'), secret: true });
      }
      continue;
    }
    const value = vendor.settings?.[field.name];
    if (value === undefined) continue;
    const shown =
      typeof value === 'boolean'
        ? t(value ? 'vendors.config.yes' : 'vendors.config.no')
        : String(value);
    entries.push({ label: field.label, value: shown, secret: false });
  }
  return entries;
}

/** What kind of integration a vendor is, in words. */
export function vendorKindLabel(kind: PlantVendor['kind'], t: Translate): string {
  return t(`vendors.kinds.${kind}`);
}
