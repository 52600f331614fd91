import { FIRST_YEAR, LAST_YEAR, type DataTypeCode, type ReadingsBatch } from '../../api/index.ts';
import { badRequest, unprocessable } from '../http/errors.ts';
import { valueProblem } from './readingKinds.ts';

/**
 * Checks a batch of the readings endpoint as a whole (all or nothing) and turns it into columns
 * in time order. The schema has already refused malformed timestamps and values; what is left:
 * - two readings at one instant (to the millisecond, whatever their offsets): 400 naming both,
 *   since a batch that contradicts itself has no "last one" a client could rely on;
 * - a value the sensor's primary data type cannot take: 422 naming its index;
 * - an instant outside the years the metrics routes answer for (a day of margin either side,
 *   for the zones ahead of and behind UTC): 422 naming its index, rather than data no query
 *   could ever return;
 * - with raw retention on, an instant before its horizon (`keptFrom`): 422 naming its index,
 *   since the raw reading would be dropped at once and its rollup is final (rawRetention.ts).
 */

/** Raw retention's horizon, for the message: the first instant kept, and the days kept. */
export interface KeptFrom {
  ms: number;
  days: number;
}

const DAY_MS = 86_400_000;
const EARLIEST_MS = Date.UTC(FIRST_YEAR, 0, 1) - DAY_MS;
const LATEST_MS = Date.UTC(LAST_YEAR + 1, 0, 1) + DAY_MS;
export function parseReadingsBatch(
  readings: ReadingsBatch['readings'],
  dataType: DataTypeCode,
  keptFrom?: KeptFrom,
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
    if (time < EARLIEST_MS || time >= LATEST_MS) {
      throw unprocessable(
        `Reading readings.${index}.timestamp = ${readings[index]!.timestamp} is outside the ` +
          `years ${FIRST_YEAR} to ${LAST_YEAR} the metrics cover`,
      );
    }
    if (keptFrom && time < keptFrom.ms) {
      throw unprocessable(
        `Reading readings.${index}.timestamp = ${readings[index]!.timestamp} is older than the ` +
          `server keeps raw readings (${keptFrom.days} days): send readings from ` +
          `${new Date(keptFrom.ms).toISOString()} on`,
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
