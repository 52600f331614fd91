import { z } from 'zod';
import { UtcTimestamp, Uuid } from './common.ts';

export const VENDOR_KINDS = ['DEVICE_BRAND', 'PLATFORM', 'SIMULATOR'] as const;
export const VendorKind = z.enum(VENDOR_KINDS);

export const CONFIG_FIELD_TYPES = ['string', 'number', 'boolean', 'secret'] as const;

export const VendorConfigField = z
  .object({
    name: z.string(),
    label: z.string(),
    type: z.enum(CONFIG_FIELD_TYPES),
    required: z.boolean(),
  })
  .meta({ id: 'VendorConfigField' });
export type VendorConfigField = z.infer<typeof VendorConfigField>;

export const VendorConfigSchema = z
  .object({ fields: z.array(VendorConfigField) })
  .meta({ id: 'VendorConfigSchema' });
export type VendorConfigSchema = z.infer<typeof VendorConfigSchema>;

export const Vendor = z
  .object({
    vendorUuid: Uuid,
    code: z.string(),
    name: z.string(),
    kind: VendorKind,
    configSchema: VendorConfigSchema,
  })
  .meta({ id: 'Vendor' });
export type Vendor = z.infer<typeof Vendor>;

/** A setting value as stored for a plant. Secret fields are write-only. */
export const SettingValue = z.union([z.string(), z.number(), z.boolean()]);
export type SettingValue = z.infer<typeof SettingValue>;

export const PlantVendor = Vendor.extend({
  configured: z.boolean(),
  settings: z
    .record(z.string(), SettingValue)
    .nullable()
    .meta({ description: 'Non-secret settings; null when not configured' }),
  secretFieldsSet: z
    .array(z.string())
    .meta({ description: 'Names of secret fields that hold a value (values are never returned)' }),
  configuredAt: UtcTimestamp.nullable(),
}).meta({ id: 'PlantVendor' });
export type PlantVendor = z.infer<typeof PlantVendor>;

export const PlantVendorConfigureDto = z
  .object({
    settings: z.record(z.string(), SettingValue.nullable()).default({}).meta({
      description:
        'Checked against the vendor configSchema. A secret field left out keeps its stored value.',
    }),
  })
  .meta({ id: 'PlantVendorConfigureDto' });
export type PlantVendorConfigureDto = z.infer<typeof PlantVendorConfigureDto>;

export const VENDOR_LIST_MODES = ['config', 'not_config'] as const;
