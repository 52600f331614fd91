import { z } from 'zod';
import { Metadata, Name, UtcTimestamp, Uuid } from './common.ts';

export const DeviceRecord = z
  .object({
    deviceUuid: Uuid,
    plantUuid: Uuid,
    name: z.string(),
    deviceTypeUuid: Uuid,
    vendorUuid: Uuid.nullable(),
    model: z.string().nullable(),
    serialNumber: z.string().nullable(),
    ratedPowerW: z.number().nullable(),
    loadSignatureUuid: Uuid.nullable(),
    metadata: Metadata,
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  })
  .meta({ id: 'DeviceRecord' });
export type DeviceRecord = z.infer<typeof DeviceRecord>;

const Text = z.string().trim().max(200);

export const DevicesCreateDto = z
  .object({
    name: Name.optional().meta({ description: "Defaults to the device type's name" }),
    deviceTypeUuid: Uuid,
    vendorUuid: Uuid.nullable().optional(),
    model: Text.nullable().optional(),
    serialNumber: Text.min(1).nullable().optional().meta({
      description: 'Unique within the plant',
    }),
    ratedPowerW: z.number().min(0).max(1e9).nullable().optional(),
    loadSignatureUuid: Uuid.nullable().optional(),
    metadata: Metadata.optional(),
  })
  .meta({ id: 'DevicesCreateDto' });
export type DevicesCreateDto = z.infer<typeof DevicesCreateDto>;

/** PUT merges: a field left out keeps its value; `null` clears an optional one. */
export const DevicesUpdateDto = DevicesCreateDto.partial().meta({ id: 'DevicesUpdateDto' });
export type DevicesUpdateDto = z.infer<typeof DevicesUpdateDto>;
