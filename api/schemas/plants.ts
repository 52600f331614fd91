import { z } from 'zod';
import { Metadata, Name, UtcTimestamp, Uuid } from './common.ts';
import { isIanaTimeZone } from './timezone.ts';

export const TimeZoneName = z
  .string()
  .refine(isIanaTimeZone, { error: 'timezone must be an IANA time-zone name such as Europe/Rome' })
  .meta({ description: 'IANA time-zone name', example: 'Europe/Rome' });

export const Location = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    timezone: TimeZoneName,
    altitudeM: z.number().min(-500).max(9000).nullable().optional(),
  })
  .meta({ id: 'Location', description: 'Where the plant is; every local date is in `timezone`' });
export type Location = z.infer<typeof Location>;

export const PvSettings = z
  .object({
    peakPowerKw: z.number().positive().max(1_000_000),
    tiltDeg: z.number().min(0).max(90).default(30),
    azimuthDeg: z
      .number()
      .min(0)
      .max(360)
      .default(180)
      .meta({ description: 'Compass bearing of the array: 90 east, 180 south, 270 west' }),
    lossesPercent: z.number().min(0).max(100).default(14),
  })
  .meta({ id: 'PvSettings', description: 'Photovoltaic array of the plant' });
export type PvSettings = z.infer<typeof PvSettings>;

export const ExternalIds = z
  .array(z.string().trim().min(1).max(100))
  .max(50)
  .refine((ids) => new Set(ids).size === ids.length, { error: 'externalIds must be unique' });

export const Plant = z
  .object({
    plantUuid: Uuid,
    name: z.string(),
    externalIds: z.array(z.string()),
    location: Location,
    pv: PvSettings.nullable(),
    metadata: Metadata,
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  })
  .meta({ id: 'Plant' });
export type Plant = z.infer<typeof Plant>;

export const PlantCreateDto = z
  .object({
    name: Name,
    externalIds: ExternalIds.optional(),
    location: Location,
    pv: PvSettings.nullable().optional(),
    metadata: Metadata.optional(),
  })
  .meta({ id: 'PlantCreateDto' });
export type PlantCreateDto = z.infer<typeof PlantCreateDto>;

/** PUT merges: a field left out keeps its value; `pv: null` removes the PV settings. */
export const PlantUpdateDto = z
  .object({
    name: Name.optional(),
    externalIds: ExternalIds.optional(),
    location: Location.optional(),
    pv: PvSettings.nullable().optional(),
    metadata: Metadata.optional(),
  })
  .meta({ id: 'PlantUpdateDto' });
export type PlantUpdateDto = z.infer<typeof PlantUpdateDto>;
