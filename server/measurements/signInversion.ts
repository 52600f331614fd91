import { SIGN_INVERTIBLE_DATA_TYPES, type DataTypeCode } from '../../api/index.ts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { zonesOfSensors } from './coarseRollupStore.ts';
import { repackHourDays } from './hourDays.ts';
import type { SampleColumns } from './rollups.ts';

/**
 * A sensor mounted backwards (`signInverted`, migration 0013): the server stores its readings
 * as if it were mounted right. Incoming readings are negated here, once, inside the ingestion
 * transaction under the sensor's row lock (readingsStore.ts); a change of the setting negates
 * what is already stored, raw readings and every rollup, in the transaction that changes it.
 *
 * Negation is exact in IEEE arithmetic and every rollup of a signed flow (power integral, mean,
 * minimum, maximum) is odd in the values, so negating stored rows gives bit for bit what
 * rolling up the negated readings would: no recomputation, and rollups whose raw readings raw
 * retention has dropped are turned too.
 */

const INVERTIBLE: ReadonlySet<DataTypeCode> = new Set(SIGN_INVERTIBLE_DATA_TYPES);

/** Why a sensor whose readings are `dataType` cannot be sign-inverted, or undefined when it can. */
export function signInversionRefusal(dataType: DataTypeCode | undefined): string | undefined {
  if (dataType !== undefined && INVERTIBLE.has(dataType)) return undefined;
  return (
    `signInverted: applies to sensors whose readings are ${SIGN_INVERTIBLE_DATA_TYPES.join(' or ')} ` +
    `(signed flows); this sensor's readings are ${dataType ?? 'of no data type'}` +
    (dataType === 'ENERGY'
      ? ' (a cumulative counter: a reversed meter swaps its registers, it does not count down)'
      : '')
  );
}

/** The readings as the meter would have reported them mounted right. */
export function asMountedRight<T extends SampleColumns>(batch: T, signInverted: boolean): T {
  if (!signInverted) return batch;
  return { ...batch, values: Float64Array.from(batch.values, negated) };
}

/**
 * Whether the sensor is mounted backwards, read under its row lock, which the caller's
 * transaction keeps: as ingestion reads it (readingsStore.ts), so the two never interleave.
 * False for a sensor deleted meanwhile (the caller's own update then finds nothing).
 */
export async function lockedSignInversion(trx: Db, sensorUuid: string): Promise<boolean> {
  const locked = await trx
    .updateTable('sensors')
    .set((eb) => ({ sign_inverted: eb.ref('sign_inverted') }))
    .where('sensor_uuid', '=', sensorUuid)
    .returning('sign_inverted')
    .executeTakeFirst();
  return locked?.sign_inverted === 1;
}

/**
 * `0 - value` rather than `-value`: a zero stays +0, as any rollup of negated readings that sums
 * to zero is, so no -0 turns up where a correctly mounted sensor would have +0 (1 / -0 is
 * -Infinity). Exact otherwise. SQL computes it the same way.
 */
const negated = (value: number): number => 0 - value;
const negatedColumn = (column: string) => sql<number>`0 - ${sql.ref(column)}`;

/**
 * Negates the sensor's stored readings and all its rollups (15-minute, hourly, daily, hours
 * packed by day).
 */
export async function negateStoredReadings(trx: Db, sensorUuid: string): Promise<void> {
  await trx
    .updateTable('readings')
    .set({ value: negatedColumn('value') })
    .where('sensor_uuid', '=', sensorUuid)
    .execute();
  for (const table of ROLLUP_TABLES) {
    // Every right-hand side reads the row as it was: minimum and maximum swap.
    await trx
      .updateTable(table)
      .set({
        energy_kwh: negatedColumn('energy_kwh'),
        mean_value: negatedColumn('mean_value'),
        min_value: negatedColumn('max_value'),
        max_value: negatedColumn('min_value'),
      })
      .where('sensor_uuid', '=', sensorUuid)
      .execute();
  }
  // Packed bytes and their points cannot be negated in SQL: made anew from the hours just negated.
  const zone = (await zonesOfSensors(trx, [sensorUuid])).get(sensorUuid)!;
  await repackHourDays(trx, sensorUuid, zone, {
    start: Number.MIN_SAFE_INTEGER,
    end: Number.MAX_SAFE_INTEGER,
  });
}

const ROLLUP_TABLES = ['sensor_rollups', 'sensor_hourly_rollups', 'sensor_daily_rollups'] as const;
