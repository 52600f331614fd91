import type { DataTypeCode, ReadingsBatch } from '../../api/index.ts';
import { badRequest, unprocessable } from '../http/errors.ts';
import { valueProblem } from './readingKinds.ts';

/**
 * Checks a batch of the readings endpoint as a whole (all or nothing) and turns it into columns
 * in time order. The schema has already refused malformed timestamps and values; what is left:
 * - two readings at one instant (to the millisecond, whatever their offsets): 400 naming both,
 *   since a batch that contradicts itself has no "last one" a client could rely on;
 * - a value the sensor's primary data type cannot take: 422 naming its index.
 */
export function parseReadingsBatch(
  readings: ReadingsBatch['readings'],
  dataType: DataTypeCode,
): { takenAt: Float64Array; values: Float64Array } {
  const count = readings.length;
  const times = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const time = Date.parse(readings[index]!.timestamp);
    if (Number.isNaN(time)) {
      throw badRequest(
        `Invalid body field 'readings.${index}.timestamp': not an ISO 8601 date-time`,
      );
    }
    times[index] = time;
  }

  const order = timeOrder(times);
  for (let position = 1; position < count; position++) {
    const earlier = order[position - 1]!;
    const later = order[position]!;
    if (times[earlier] === times[later]) {
      const [first, second] = earlier < later ? [earlier, later] : [later, earlier];
      throw badRequest(
        `Invalid body field 'readings.${second}.timestamp': ${readings[second]!.timestamp} is the ` +
          `same instant as readings.${first}.timestamp; send one reading per timestamp`,
      );
    }
  }

  for (let index = 0; index < count; index++) {
    const value = readings[index]!.value;
    const problem = valueProblem(dataType, value);
    if (problem) {
      throw unprocessable(`Reading readings.${index}.value = ${value} is impossible: ${problem}`);
    }
  }

  const takenAt = new Float64Array(count);
  const values = new Float64Array(count);
  order.forEach((index, position) => {
    takenAt[position] = times[index]!;
    values[position] = readings[index]!.value;
  });
  return { takenAt, values };
}

/** Indexes of `times` in time order (ties by index); batches usually come sorted already. */
function timeOrder(times: Float64Array): Uint32Array {
  const order = Uint32Array.from({ length: times.length }, (_, index) => index);
  let sorted = true;
  for (let index = 1; index < times.length && sorted; index++) {
    sorted = times[index - 1]! <= times[index]!;
  }
  if (!sorted) order.sort((a, b) => times[a]! - times[b]! || a - b);
  return order;
}
