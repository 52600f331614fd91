import { z } from 'zod';
import { FRESHNESS_STATES } from '../freshness.ts';
import { UtcTimestamp, Uuid } from './common.ts';
import { PV_HEALTH_STATUSES } from './metrics.ts';
import { Location } from './plants.ts';
import { SensorFlow } from './sensors.ts';

/** Fleet monitoring (extensions): every plant at a glance, and the freshness of its sensors. */

export const FreshnessStateSchema = z.enum(FRESHNESS_STATES).meta({
  id: 'FreshnessState',
  description:
    'REPORTING: last reading at most 3 sampling intervals old; LATE: older; SILENT: older than 3 intervals and 15 minutes; NEVER: no reading',
});

export const SensorStateCounts = z
  .object({
    total: z.int().min(0),
    REPORTING: z.int().min(0),
    LATE: z.int().min(0),
    SILENT: z.int().min(0),
    NEVER: z.int().min(0),
  })
  .meta({ id: 'SensorStateCounts', description: "The plant's sensors by freshness state" });
export type SensorStateCounts = z.infer<typeof SensorStateCounts>;

export const PlantSummary = z
  .object({
    plantUuid: Uuid,
    name: z.string(),
    externalIds: z.array(z.string()),
    location: Location,
    timezone: z.string().meta({ description: "The plant's zone (as in location)" }),
    peakPowerKw: z.number().nullable().meta({ description: 'From the pv settings; null without' }),
    localDate: z
      .string()
      .meta({ description: "Today in the plant's zone, yyyy-MM-dd: the day of the today figures" }),
    productionKwh: z.number().nullable().meta({
      description:
        'Produced today (local day so far), as daily-power-productions answers for today. Null without PLANT_POWER_PRODUCTION READ or production data',
    }),
    consumptionKwh: z.number().nullable().meta({
      description:
        'Consumed today (local day so far). Null without PLANT_POWER_CONSUMPTION READ or consumption data',
    }),
    expectedProductionKwh: z.number().nullable().meta({
      description:
        "What clear sky allows from local midnight until now × the plant's clear-sky index of the last 7 full days (measured over clear-sky energy; 0.6 without history). Null without pv settings or PLANT_POWER_PRODUCTION READ",
    }),
    productionPercentOfExpected: z.number().nullable().meta({
      description:
        'productionKwh / expectedProductionKwh × 100; null while less than 0.01 kWh per kWp is expected (night, dawn)',
    }),
    specificYieldKwhPerKwp: z
      .number()
      .nullable()
      .meta({ description: 'productionKwh / peakPowerKw (today)' }),
    specificYield7DaysKwhPerKwp: z.number().nullable().meta({
      description: 'Energy produced over the last 7 full local days / peakPowerKw',
    }),
    status: z.enum(PV_HEALTH_STATUSES).nullable().meta({
      description:
        'PV health status of the last 7 full local days, as pv-health answers by default. Null without PLANT_HEALTH READ',
    }),
    performancePercent: z.number().nullable().meta({
      description: 'PV health performance of the same days; null without PLANT_HEALTH READ',
    }),
    lastReadingAt: UtcTimestamp.nullable().meta({
      description: 'The latest reading of any of its sensors; null when none has one',
    }),
    sensorCounts: SensorStateCounts,
  })
  .meta({ id: 'PlantSummary', description: 'A plant at a glance (extension)' });
export type PlantSummary = z.infer<typeof PlantSummary>;

/** `sort` properties of the plant summaries: every scalar field, and each sensor count. */
export const PLANT_SUMMARY_SORT = [
  'plantUuid',
  'name',
  'timezone',
  'peakPowerKw',
  'localDate',
  'productionKwh',
  'consumptionKwh',
  'expectedProductionKwh',
  'productionPercentOfExpected',
  'specificYieldKwhPerKwp',
  'specificYield7DaysKwhPerKwp',
  'status',
  'performancePercent',
  'lastReadingAt',
  'sensorCounts.total',
  'sensorCounts.REPORTING',
  'sensorCounts.LATE',
  'sensorCounts.SILENT',
  'sensorCounts.NEVER',
] as const;
export type PlantSummarySortProperty = (typeof PLANT_SUMMARY_SORT)[number];

/**
 * How `status` sorts: by severity, so `sort=status,desc` is worst first. A plant without PV
 * data is worse than a healthy one and better than a degraded one.
 */
export const PV_HEALTH_SEVERITY: Record<(typeof PV_HEALTH_STATUSES)[number], number> = {
  HEALTHY: 0,
  NO_DATA: 1,
  DEGRADED: 2,
  FAULT: 3,
};

export const RecentReading = z
  .object({
    at: UtcTimestamp.meta({ description: 'When the reading was taken' }),
    value: z.number(),
  })
  .meta({ id: 'RecentReading', description: 'A reading for a live view (extension)' });
export type RecentReading = z.infer<typeof RecentReading>;

export const SensorStatus = z
  .object({
    sensorUuid: Uuid,
    name: z.string(),
    deviceUuid: Uuid.nullable(),
    flow: SensorFlow,
    dataType: z
      .string()
      .nullable()
      .meta({ description: 'The primary data type code: what the readings are' }),
    unit: z.string().nullable().meta({ description: 'Unit of lastValue (W, kWh, %, °C, ...)' }),
    expectedIntervalSeconds: z.int().meta({ description: "The sensor's sampling interval" }),
    state: FreshnessStateSchema,
    lastReadingAt: UtcTimestamp.nullable(),
    lastValue: z.number().nullable(),
    lastChangedAt: UtcTimestamp.nullable().meta({
      description:
        'When the value last changed: the first reading of the run of equal values that ends with the last one (its first reading ever when the value never changed). "Not reporting" (state) and "reporting the same value" (an old lastChangedAt while REPORTING) are different problems',
    }),
    valueAtRest: z.boolean().meta({
      description:
        "The last value is the quantity's rest value: 0 W or 0 A (PV at night, an idle load or battery), 0 W/m² (night), or an energy counter that has stopped counting. Such a value legitimately stays unchanged for hours: it is not a stuck sensor",
    }),
    coverage24h: z.number().min(0).max(1).meta({
      description:
        'Share of the last 24 hours with data: each reading covers until the next when that comes within 3 intervals, else one interval',
    }),
    recent: z.array(RecentReading).optional().meta({
      description:
        'Only with `recent=true`: the readings of the 15 minutes up to evaluatedAt, oldest first, at most one a minute (the last of each minute-long slice counted back from evaluatedAt; a sparser sensor keeps all its readings). Values in `unit`, as stored (after signInverted)',
    }),
  })
  .meta({ id: 'SensorStatus', description: 'Freshness of one sensor (extension)' });
export type SensorStatus = z.infer<typeof SensorStatus>;

export const PlantSensorStatuses = z
  .object({
    plantUuid: Uuid,
    timezone: z.string(),
    evaluatedAt: UtcTimestamp.meta({ description: "The server's clock when the states were set" }),
    sensors: z.array(SensorStatus).meta({ description: 'Every sensor of the plant, by name' }),
  })
  .meta({ id: 'PlantSensorStatuses' });
export type PlantSensorStatuses = z.infer<typeof PlantSensorStatuses>;
