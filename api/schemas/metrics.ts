import { z } from 'zod';
import { Uuid } from './common.ts';

/** Timestamps of series are ISO 8601 with the plant's local offset: `2026-03-29T03:00:00+02:00`. */
const OffsetTimestamp = z.iso.datetime({ offset: true });

export const SeriesPoint = z
  .object({
    timestamp: OffsetTimestamp.meta({ description: 'Bucket start, plant local time' }),
    value: z.number().nullable().meta({ description: 'null where the bucket has no data' }),
    coverage: z.number().min(0).max(1).meta({ description: 'Share of the bucket that has data' }),
  })
  .meta({ id: 'SeriesPoint' });
export type SeriesPoint = z.infer<typeof SeriesPoint>;

export const ENERGY_UNIT = 'kWh';
export const POWER_UNIT = 'W';

export const Series = z
  .object({
    plantUuid: Uuid,
    timezone: z.string(),
    unit: z.string().meta({ description: 'kWh for energy, W for power' }),
    from: OffsetTimestamp.meta({ description: 'Start of the first bucket (inclusive)' }),
    to: OffsetTimestamp.meta({ description: 'End of the last bucket (exclusive)' }),
    points: z.array(SeriesPoint),
  })
  .meta({ id: 'Series' });
export type Series = z.infer<typeof Series>;

export const ForecastPoint = z
  .object({
    timestamp: OffsetTimestamp,
    value: z.number(),
    lower: z.number().meta({ description: 'Lower bound of the 80% interval' }),
    upper: z.number().meta({ description: 'Upper bound of the 80% interval' }),
  })
  .meta({ id: 'ForecastPoint' });
export type ForecastPoint = z.infer<typeof ForecastPoint>;

export const ForecastSeries = z
  .object({
    plantUuid: Uuid,
    timezone: z.string(),
    unit: z.string(),
    from: OffsetTimestamp,
    to: OffsetTimestamp,
    method: z.string().meta({ description: 'The model that made the forecast' }),
    points: z.array(ForecastPoint),
  })
  .meta({ id: 'ForecastSeries' });
export type ForecastSeries = z.infer<typeof ForecastSeries>;

export const DeviceTypeForecast = z
  .object({
    plantUuid: Uuid,
    date: z.string().meta({ description: 'The local day forecast, yyyy-MM-dd' }),
    timezone: z.string(),
    unit: z.literal(ENERGY_UNIT),
    method: z.string(),
    series: z
      .record(z.string(), z.array(ForecastPoint))
      .meta({ description: 'Hourly energy per device type code' }),
  })
  .meta({ id: 'DeviceTypeForecast' });
export type DeviceTypeForecast = z.infer<typeof DeviceTypeForecast>;

export const EnergyShare = z
  .object({
    name: z.string(),
    sensorUuid: Uuid.nullable(),
    deviceUuid: Uuid.nullable(),
    deviceTypeCode: z.string().nullable(),
    energyKwh: z.number(),
    percentage: z.number(),
  })
  .meta({ id: 'EnergyShare' });
export type EnergyShare = z.infer<typeof EnergyShare>;

export const EnergyBreakdown = z
  .object({
    plantUuid: Uuid,
    timezone: z.string(),
    from: OffsetTimestamp,
    to: OffsetTimestamp,
    unit: z.literal(ENERGY_UNIT),
    loads: z.array(EnergyShare).meta({
      description: 'Consumers, with an Unmeasured entry; percentages sum to 100',
    }),
    sources: z
      .array(EnergyShare)
      .meta({ description: 'Production, grid import, battery discharge' }),
  })
  .meta({ id: 'EnergyBreakdown' });
export type EnergyBreakdown = z.infer<typeof EnergyBreakdown>;

export const PV_HEALTH_STATUSES = ['HEALTHY', 'DEGRADED', 'FAULT', 'NO_DATA'] as const;
export const INDICATOR_LEVELS = ['INFO', 'WARNING', 'CRITICAL'] as const;

export const PvHealth = z
  .object({
    plantUuid: Uuid,
    timezone: z.string(),
    from: OffsetTimestamp,
    to: OffsetTimestamp,
    energyProducedKwh: z.number(),
    expectedEnergyKwh: z.number().nullable(),
    performancePercent: z.number().nullable(),
    performanceRatio: z.number().nullable().meta({
      description: 'IEC 61724-1 final yield over reference yield, when irradiance is measured',
    }),
    status: z.enum(PV_HEALTH_STATUSES),
    indicators: z.array(
      z.object({ code: z.string(), level: z.enum(INDICATOR_LEVELS), message: z.string() }),
    ),
  })
  .meta({ id: 'PvHealth' });
export type PvHealth = z.infer<typeof PvHealth>;

export const MAX_READINGS_PER_REQUEST = 10_000;

export const ReadingsBatch = z
  .object({
    readings: z
      .array(
        z.object({
          timestamp: z.iso
            .datetime({ offset: true })
            .meta({ description: 'ISO 8601 with offset or Z' }),
          value: z.number(),
        }),
      )
      .min(1)
      .max(MAX_READINGS_PER_REQUEST),
  })
  .meta({ id: 'ReadingsBatch' });
export type ReadingsBatch = z.infer<typeof ReadingsBatch>;

export const ReadingsAccepted = z
  .object({ accepted: z.int().min(0) })
  .meta({ id: 'ReadingsAccepted' });
export type ReadingsAccepted = z.infer<typeof ReadingsAccepted>;

export const GRANULARITIES = ['seconds', 'minutes', 'hours', 'days'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const MAX_HISTORY_POINTS = 100_000;
export const MAX_SUMMARY_DAYS = 366;
