import { z } from 'zod';
import { Metadata, Name, UtcTimestamp, Uuid } from './common.ts';
import { booleanParam } from './query.ts';

export const SENSOR_FLOWS = ['CONSUMPTION', 'PRODUCTION', 'GRID', 'STORAGE', 'AMBIENT'] as const;
export const SensorFlow = z.enum(SENSOR_FLOWS).meta({
  description:
    'GRID: positive = import, negative = export. STORAGE: positive = discharge, negative = charge.',
});
export type SensorFlow = z.infer<typeof SensorFlow>;

export const SensorConnection = z
  .object({
    vendorUuid: Uuid,
    address: z.string().trim().min(1).max(500).meta({ example: 'sim://demo-home/pv' }),
  })
  .meta({ id: 'SensorConnection' });
export type SensorConnection = z.infer<typeof SensorConnection>;

export const SensorRecord = z
  .object({
    sensorUuid: Uuid,
    plantUuid: Uuid,
    deviceUuid: Uuid.nullable(),
    name: z.string(),
    sensorTypeUuid: Uuid,
    dataTypesCollectUuids: z.array(Uuid),
    flow: SensorFlow,
    samplingIntervalSeconds: z.int(),
    connection: SensorConnection.nullable(),
    metadata: Metadata,
    createdAt: UtcTimestamp,
    updatedAt: UtcTimestamp,
  })
  .meta({ id: 'SensorRecord' });
export type SensorRecord = z.infer<typeof SensorRecord>;

export const DEFAULT_SAMPLING_INTERVAL_SECONDS = 60;

export const SensorCreateDto = z
  .object({
    name: Name.optional().meta({ description: "Defaults to the sensor type's name" }),
    sensorTypeUuid: Uuid,
    dataTypesCollectUuids: z.array(Uuid).max(20).optional().meta({
      description:
        'Non-empty; each allowed by the sensor type (else 422). Defaults to every data type the sensor type allows.',
    }),
    deviceUuid: Uuid.nullable().optional(),
    flow: SensorFlow.optional().meta({
      description: 'Defaults to CONSUMPTION for power or energy sensors, AMBIENT otherwise',
    }),
    samplingIntervalSeconds: z
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .meta({
        description: `Defaults to ${DEFAULT_SAMPLING_INTERVAL_SECONDS}`,
      }),
    connection: SensorConnection.nullable().optional(),
    metadata: Metadata.optional(),
  })
  .meta({ id: 'SensorCreateDto' });
export type SensorCreateDto = z.infer<typeof SensorCreateDto>;

/** PUT merges: a field left out keeps its value; `deviceUuid: null` unlinks the device. */
export const SensorUpdateDto = SensorCreateDto.partial().meta({ id: 'SensorUpdateDto' });
export type SensorUpdateDto = z.infer<typeof SensorUpdateDto>;

/** The answer of a sensor's connection test: a failed test is a result, not an error. */
export const SensorConnectionTest = z
  .object({
    ok: z.boolean(),
    /** What was found: "Connected to 10.0.0.5:502", "No answer from … within 3000 ms". */
    message: z.string(),
    address: z.string().nullable(),
    testedAt: UtcTimestamp,
  })
  .meta({ id: 'SensorConnectionTest' });
export type SensorConnectionTest = z.infer<typeof SensorConnectionTest>;

export const connectionTestQueryShape = {
  ignoreConnectionsTest: booleanParam('ignoreConnectionsTest').meta({
    description: 'Skip the connection test of the sensor connection',
  }),
};
