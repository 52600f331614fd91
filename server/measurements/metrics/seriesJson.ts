import type { Series } from '../../../api/index.ts';
import type { PlantRow } from '../../db/tables.ts';
import { EncodedJson } from '../../http/encodedJson.ts';
import type { Combined } from './flowMeasures.ts';
import { LocalTimestamps, type TimeRange } from './localTime.ts';
import { metricText } from './metricText.ts';

/**
 * A series (`seriesEnvelope.ts`) written as JSON text straight from its numbers: the bytes
 * `JSON.stringify(seriesOf(...))` gives, without building an object per point and serialising
 * it afterwards, which was most of the time of a 720-point power history.
 *
 * Byte for byte: keys in `seriesOf`'s order; strings of the envelope through JSON.stringify;
 * timestamps need no escaping (digits, `-`, `:`, `.`, `T`, `+`); a finite number is written
 * as `String` writes it (`metricText.ts`), exactly as JSON.stringify (`-0` as `0`), and a
 * non-finite one as `null`.
 */
export function seriesJson(
  plant: Pick<PlantRow, 'plant_uuid' | 'timezone'>,
  unit: string,
  span: TimeRange,
  /** Where each point starts: its bucket, or the point itself. */
  starts: readonly { start: number }[],
  points: readonly Combined[],
): EncodedJson<Series> {
  const timestamps = LocalTimestamps.of(plant.timezone);
  let text = seriesHead(plant, unit, span);
  for (let index = 0; index < points.length; index++) {
    const point = pointJson(timestamps, starts[index]!.start, points[index]!);
    text += index === 0 ? point : `,${point}`;
  }
  return EncodedJson.ofJsonText(`${text}]}`, isAscii(plant.plant_uuid + plant.timezone + unit));
}

/** One point of a series, as `seriesJson` writes it. */
export const pointJson = (timestamps: LocalTimestamps, start: number, point: Combined): string =>
  '{"timestamp":"' +
  timestamps.format(start) +
  '","value":' +
  jsonNumber(point.value) +
  ',"coverage":' +
  jsonNumber(point.coverage) +
  '}';

/**
 * The same series from runs of its points' texts (`pointJson`, commas between), joined by
 * commas: written to bytes without first joining them and the envelope into one text
 * (`EncodedJson.ofAsciiParts`).
 */
export function seriesJsonOfPointRuns(
  plant: Pick<PlantRow, 'plant_uuid' | 'timezone'>,
  unit: string,
  span: TimeRange,
  runs: readonly string[],
): EncodedJson<Series> {
  const head = seriesHead(plant, unit, span);
  return isAscii(plant.plant_uuid + plant.timezone + unit)
    ? EncodedJson.ofAsciiParts(head, runs, ',', ']}')
    : EncodedJson.ofJsonText(`${head}${runs.join(',')}]}`);
}

/** Everything of the series before its points. */
function seriesHead(
  plant: Pick<PlantRow, 'plant_uuid' | 'timezone'>,
  unit: string,
  span: TimeRange,
): string {
  const zone = plant.timezone;
  const timestamps = LocalTimestamps.of(zone);
  return (
    `{"plantUuid":${JSON.stringify(plant.plant_uuid)},"timezone":${JSON.stringify(zone)}` +
    `,"unit":${JSON.stringify(unit)},"from":"${timestamps.format(span.start)}"` +
    `,"to":"${timestamps.format(span.end)}","points":[`
  );
}

// The envelope's strings are all the text holds besides ASCII digits, punctuation and keys.
const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

const jsonNumber = (value: number | null): string =>
  value !== null && Number.isFinite(value) ? metricText(value) : 'null';
