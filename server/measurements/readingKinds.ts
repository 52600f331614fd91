import type { DataTypeCode } from '../../api/index.ts';

/**
 * What a sensor's readings mean. A sensor may collect several data types, but its readings are
 * of one: its primary data type. That type decides how readings turn into energy.
 *
 * - `power`: instantaneous W; energy is the integral over time.
 * - `counter`: cumulative kWh; energy is the increase (a decrease is a counter reset).
 * - `level`: any other instantaneous value (temperature, irradiance, state of charge, ...);
 *   it has a mean, a minimum and a maximum, but no energy.
 */
export type ReadingKind = 'power' | 'counter' | 'level';

/**
 * POWER if the sensor collects it, else ENERGY if it collects that, else the first of its data
 * types by code order. `undefined` only for a sensor that collects nothing.
 */
export function primaryDataType(collected: readonly DataTypeCode[]): DataTypeCode | undefined {
  if (collected.includes('POWER')) return 'POWER';
  if (collected.includes('ENERGY')) return 'ENERGY';
  return [...collected].sort()[0];
}

export function readingKindOf(dataType: DataTypeCode): ReadingKind {
  if (dataType === 'POWER') return 'power';
  if (dataType === 'ENERGY') return 'counter';
  return 'level';
}

/**
 * Beyond this magnitude no reading of any type is physical (a terawatt, a billion MWh), and sums
 * of such values could overflow to Infinity, which neither JSON nor the metrics could carry.
 */
export const MAX_READING_MAGNITUDE = 1e12;

const ABSOLUTE_ZERO_CELSIUS = -273.15;

/**
 * Why `value` cannot be a reading of `dataType`, or `undefined` when it can. Only what physics
 * excludes is refused: power, voltage and current are signed (export, charge, direction), and
 * pyranometers report slightly negative irradiance at night, so those have no lower bound.
 */
export function valueProblem(dataType: DataTypeCode, value: number): string | undefined {
  if (!Number.isFinite(value)) return 'a reading must be a finite number';
  if (Math.abs(value) > MAX_READING_MAGNITUDE) {
    return `a reading's magnitude must be at most ${MAX_READING_MAGNITUDE}`;
  }
  switch (dataType) {
    case 'ENERGY':
      return value < 0 ? 'an ENERGY counter (cumulative kWh) cannot be negative' : undefined;
    case 'STATE_OF_CHARGE':
      return value < 0 || value > 100 ? 'a STATE_OF_CHARGE must be between 0 and 100 %' : undefined;
    case 'TEMPERATURE':
      return value < ABSOLUTE_ZERO_CELSIUS
        ? `a TEMPERATURE cannot be below absolute zero (${ABSOLUTE_ZERO_CELSIUS} °C)`
        : undefined;
    default:
      return undefined;
  }
}
