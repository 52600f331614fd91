import { z } from 'zod';
import { Metadata, Name, UtcTimestamp, Uuid } from './common.ts';
import { booleanParam } from './query.ts';

export const SENSOR_FLOWS = ['CONSUMPTION', 'PRODUCTION', 'GRID', 'STORAGE', 'AMBIENT'] as const;
export const SensorFlow = z.enum(SENSOR_FLOWS).meta({
  description:
    'GRID: positive = import, negative = export. STORAGE: positive = discharge, negative = charge.',
});
export type SensorFlow = z.infer<typeof SensorFlow>;

/**
 * Extension: the primary data types whose readings are signed flows, which a meter mounted
 * backwards (a current transformer around the wire the wrong way) reports negated. An ENERGY
 * counter has no such fix (a reversed bidirectional meter swaps its import and export
 * registers, it does not count down), nor has a STATE_OF_CHARGE, a temperature, an irradiance
 * or a voltage magnitude.
 */
export const SIGN_INVERTIBLE_DATA_TYPES = ['POWER', 'CURRENT'] as const;

const SIGN_INVERTED_DESCRIPTION = `Extension (PlantDesk): the meter is mounted backwards. The server negates every reading of this sensor as it arrives, and setting or clearing it negates the readings and rollups already stored, in the same transaction, so metrics and history answer as if the meter had always been mounted right. Only for sensors whose readings (primary data type) are ${SIGN_INVERTIBLE_DATA_TYPES.join(' or ')}; true on any other (ENERGY counters, STATE_OF_CHARGE, ...) answers 422. A server with only the specification's routes leaves it out: absent means false.`;

export const SignInverted = z.boolean().meta({ description: SIGN_INVERTED_DESCRIPTION });

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
    signInverted: SignInverted.optional(),
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
    signInverted: z
      .boolean()
      .optional()
      .meta({ description: `${SIGN_INVERTED_DESCRIPTION} Defaults to false.` }),
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
