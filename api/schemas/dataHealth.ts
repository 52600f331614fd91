import { z } from 'zod';
import { Uuid, UtcTimestamp } from './common.ts';
import { SensorStatus } from './fleet.ts';

/** The data-health map of a plant (extension): how complete and plausible each sensor's data is. */

const OffsetTimestamp = z.iso.datetime({ offset: true });

/** Days a data-health answer covers by default, and at most (as the summaries allow). */
export const DATA_HEALTH_DEFAULT_DAYS = 90;
/** Each list of a sensor (gaps, issues, frozen periods) names at most this many, latest first. */
export const DATA_HEALTH_LIST_LIMIT = 100;

/**
 * What a day's coverage of a sensor rests on: its raw readings, or, where raw retention
 * (`--raw-retention-days`) dropped them, the sample counts of its 15-minute rollups.
 */
export const DATA_HEALTH_RESOLUTIONS = ['raw', '15min'] as const;
export type DataHealthResolution = (typeof DATA_HEALTH_RESOLUTIONS)[number];

export const COUNTER_ISSUE_KINDS = ['RESET', 'NEGATIVE_DELTA'] as const;
export const SUSPICION_CODES = [
  'POWER_LOOKS_LIKE_KILOWATTS',
  'POWER_LOOKS_LIKE_MILLIWATTS',
  'PRODUCTION_NEGATIVE_BY_DAY',
] as const;

export const DataHealthDay = z
  .object({
    date: z.string().meta({ description: 'Local date, yyyy-MM-dd' }),
    hours: z.number().meta({ description: 'Length of the local day: 23, 24 or 25 (DST)' }),
    elapsedHours: z.number().min(0).meta({
      description:
        'The part of the day up to now that coverage judges: `hours` for past days, 0 for days to come',
    }),
  })
  .meta({ id: 'DataHealthDay' });

export const DataHealthGap = z
  .object({
    start: OffsetTimestamp.meta({
      description:
        "The last reading before the gap (or the range start). On days resting on 15-minute rollups, at the rollups' resolution: the counted samples of a bucket are taken one sampling interval apart from its start",
    }),
    end: OffsetTimestamp.meta({
      description: 'The next reading (or the range end); on days on rollups, at their resolution',
    }),
    durationSeconds: z.number().min(0),
  })
  .meta({ id: 'DataHealthGap' });
export type DataHealthGap = z.infer<typeof DataHealthGap>;

export const CounterIssue = z
  .object({
    kind: z.enum(COUNTER_ISSUE_KINDS).meta({
      description:
        'RESET: fell to near 0 (a new or restarted meter); NEGATIVE_DELTA: any other drop',
    }),
    at: OffsetTimestamp,
    before: z.number().meta({ description: 'The reading before, kWh' }),
    after: z.number().meta({ description: 'The reading at `at`, kWh' }),
  })
  .meta({ id: 'CounterIssue' });
export type CounterIssue = z.infer<typeof CounterIssue>;

export const FrozenPeriod = z
  .object({
    start: OffsetTimestamp,
    end: OffsetTimestamp,
    value: z.number(),
    countedSeconds: z.number().min(0).meta({
      description: 'The part that counted: legitimate rest (PV at 0 W at night) left out',
    }),
  })
  .meta({ id: 'FrozenPeriod' });
export type FrozenPeriod = z.infer<typeof FrozenPeriod>;

export const Suspicion = z
  .object({
    code: z.enum(SUSPICION_CODES),
    observed: z.number().meta({
      description:
        'The largest |reading| in W for units; the share of negative readings by day for the sign',
    }),
    reference: z.number().meta({ description: 'The rating in W, or the share allowed' }),
  })
  .meta({ id: 'Suspicion' });
export type Suspicion = z.infer<typeof Suspicion>;

export const SensorDataHealth = z
  .object({
    ...SensorStatus.pick({
      sensorUuid: true,
      name: true,
      deviceUuid: true,
      flow: true,
      dataType: true,
    }).shape,
    samplingIntervalSeconds: z.int().min(1),
    coverage: z.array(z.number().min(0).max(1).nullable()).meta({
      description:
        'Per day of `days`: the share with data (so far, for today); null for days to come',
    }),
    resolution: z.array(z.enum(DATA_HEALTH_RESOLUTIONS).nullable()).optional().meta({
      description:
        "Per day of `days`: what its coverage and gaps rest on. `15min`: the raw readings are gone (raw retention), so coverage counts the 15-minute rollups' samples against the sampling interval, gaps are found at that resolution, and counter issues, frozen values and suspicions are not assessed that day. Null for days to come; absent from servers that only know `raw`",
    }),
    rawFrom: OffsetTimestamp.nullable().optional().meta({
      description:
        'Where the raw readings in the range start when days before rest on 15-minute rollups: counter issues, frozen values and suspicions are assessed from here on only. Null (or absent) when every day rests on raw readings',
    }),
    coverageTotal: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'The share of the whole range (to now)' }),
    gapCount: z.int().min(0),
    gaps: z
      .array(DataHealthGap)
      .meta({ description: `The latest ${DATA_HEALTH_LIST_LIMIT} at most, oldest first` }),
    counterIssueCount: z.int().min(0),
    counterIssues: z.array(CounterIssue),
    frozenCount: z.int().min(0),
    frozen: z.array(FrozenPeriod),
    suspicions: z.array(Suspicion),
  })
  .meta({ id: 'SensorDataHealth' });
export type SensorDataHealth = z.infer<typeof SensorDataHealth>;

export const PlantDataHealth = z
  .object({
    plantUuid: Uuid,
    timezone: z.string(),
    evaluatedAt: UtcTimestamp,
    from: OffsetTimestamp.meta({ description: 'Start of the first day' }),
    to: OffsetTimestamp.meta({ description: 'End of the last day (exclusive)' }),
    days: z.array(DataHealthDay),
    sensors: z.array(SensorDataHealth),
  })
  .meta({ id: 'PlantDataHealth', description: "A plant's data health (extension)" });
export type PlantDataHealth = z.infer<typeof PlantDataHealth>;
