import { z } from 'zod';
import { Code, Description, Name, UtcTimestamp, Uuid } from './common.ts';

export const DATA_TYPE_CODES = [
  'POWER',
  'ENERGY',
  'TEMPERATURE',
  'STATE_OF_CHARGE',
  'IRRADIANCE',
  'VOLTAGE',
  'CURRENT',
] as const;
export type DataTypeCode = (typeof DATA_TYPE_CODES)[number];

export const DataTypesCollect = z
  .object({
    dataTypesCollectUuid: Uuid,
    code: z.string(),
    name: z.string(),
    unit: z.string(),
  })
  .meta({ id: 'DataTypesCollect', description: 'Kind of data a sensor collects (read-only)' });
export type DataTypesCollect = z.infer<typeof DataTypesCollect>;

/**
 * Extension: whether an entry is one of the reference entries every organization shares (only
 * the platform writes those) or its organization's own. A server with only the specification's
 * routes leaves it out.
 */
export const SharedEntry = z.boolean().meta({
  description:
    'Extension: true for a reference entry shared by every organization (written with the platform permissions REFERENCE_CATALOGS), false for an entry of the caller’s organization, visible only to it',
});

/** Extension: asks for a shared reference entry; needs REFERENCE_CATALOGS CREATE. */
const CreateShared = z.boolean().optional().meta({
  description:
    'Extension: create a reference entry shared by every organization (needs REFERENCE_CATALOGS CREATE); default: an entry of the caller’s organization only',
});

export const SensorType = z
  .object({
    sensorTypeUuid: Uuid,
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    dataTypesCollectUuids: z.array(Uuid),
    shared: SharedEntry.optional(),
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  })
  .meta({ id: 'SensorType' });
export type SensorType = z.infer<typeof SensorType>;

const UuidSet = z
  .array(Uuid)
  .max(50)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
    error: 'identifiers must be unique',
  });

export const SensorTypeCreateDto = z
  .object({
    code: Code,
    name: Name.optional().meta({ description: 'Defaults to the code' }),
    description: Description.nullable().optional(),
    dataTypesCollectUuids: UuidSet.optional().meta({
      description: 'Data types a sensor of this type may collect',
    }),
    shared: CreateShared,
  })
  .meta({ id: 'SensorTypeCreateDto' });
export type SensorTypeCreateDto = z.infer<typeof SensorTypeCreateDto>;

export const SensorTypeUpdateDto = SensorTypeCreateDto.omit({ shared: true }).partial().meta({
  id: 'SensorTypeUpdateDto',
});
export type SensorTypeUpdateDto = z.infer<typeof SensorTypeUpdateDto>;

export const DEVICE_CATEGORIES = ['PRODUCER', 'CONSUMER', 'STORAGE', 'GRID'] as const;
export const DeviceCategory = z.enum(DEVICE_CATEGORIES);
export type DeviceCategory = z.infer<typeof DeviceCategory>;

export const DeviceType = z
  .object({
    deviceTypeUuid: Uuid,
    code: z.string(),
    name: z.string(),
    category: DeviceCategory,
    description: z.string().nullable(),
    shared: SharedEntry.optional(),
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  })
  .meta({ id: 'DeviceType' });
export type DeviceType = z.infer<typeof DeviceType>;

export const DeviceTypeCreateDto = z
  .object({
    code: Code,
    name: Name.optional().meta({ description: 'Defaults to the code' }),
    category: DeviceCategory.default('CONSUMER'),
    description: Description.nullable().optional(),
    shared: CreateShared,
  })
  .meta({ id: 'DeviceTypeCreateDto' });
export type DeviceTypeCreateDto = z.infer<typeof DeviceTypeCreateDto>;

export const DeviceTypeUpdateDto = z
  .object({
    code: Code.optional(),
    name: Name.optional(),
    category: DeviceCategory.optional(),
    description: Description.nullable().optional(),
  })
  .meta({ id: 'DeviceTypeUpdateDto' });
export type DeviceTypeUpdateDto = z.infer<typeof DeviceTypeUpdateDto>;

/** Share of a day's energy per local hour: 24 non-negative numbers summing to 1. */
export const HourlyProfile = z
  .array(z.number().min(0).max(1))
  .length(24)
  .meta({ description: '24 shares of the daily energy, one per local hour, summing to 1' });

export const HOURLY_PROFILE_SUM_TOLERANCE = 1e-6;
export function hourlyProfileSumsToOne(profile: readonly number[]): boolean {
  const sum = profile.reduce((total, share) => total + share, 0);
  return Math.abs(sum - 1) <= HOURLY_PROFILE_SUM_TOLERANCE;
}

export const LoadSignatureRecord = z
  .object({
    loadSignatureUuid: Uuid,
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    deviceTypeUuid: Uuid.nullable(),
    hourlyProfile: z.array(z.number()),
    typicalDailyKwh: z.number().nullable(),
    shared: SharedEntry.optional(),
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  })
  .meta({ id: 'LoadSignatureRecord' });
export type LoadSignatureRecord = z.infer<typeof LoadSignatureRecord>;

export const LoadSignatureCreateDto = z
  .object({
    code: Code,
    name: Name.optional().meta({ description: 'Defaults to the code' }),
    description: Description.nullable().optional(),
    deviceTypeUuid: Uuid.nullable().optional(),
    hourlyProfile: HourlyProfile.optional().meta({ description: 'Defaults to a flat profile' }),
    typicalDailyKwh: z.number().min(0).max(1_000_000).nullable().optional(),
    shared: CreateShared,
  })
  .meta({ id: 'LoadSignatureCreateDto' });
export type LoadSignatureCreateDto = z.infer<typeof LoadSignatureCreateDto>;

export const LoadSignatureUpdateDto = LoadSignatureCreateDto.omit({ shared: true }).partial().meta({
  id: 'LoadSignatureUpdateDto',
});
export type LoadSignatureUpdateDto = z.infer<typeof LoadSignatureUpdateDto>;
