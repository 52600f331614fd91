import type { Series } from '../../../api/index.ts';
import type { PlantRow } from '../../db/tables.ts';
import { EncodedJson } from '../../http/encodedJson.ts';
import { forEachCombined, type Combined, type FlowMeasures } from './flowMeasures.ts';
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
  return seriesText(plant, unit, span, (write) => {
    for (let index = 0; index < points.length; index++) {
      const point = points[index]!;
      write(starts[index]!.start, point.value, point.coverage);
    }
  });
}

/**
 * The same series of a flow's measures, its points combined as `combineFlow` combines them
 * (`forEachCombined`) and written at once, without an object per point.
 */
export const seriesJsonOfMeasures = (
  plant: Pick<PlantRow, 'plant_uuid' | 'timezone'>,
  unit: string,
  span: TimeRange,
  measures: FlowMeasures,
  perSensor: (energyKwh: number, coveredSeconds: number) => number,
): EncodedJson<Series> =>
  seriesText(plant, unit, span, (write) =>
    forEachCombined(measures, perSensor, (bucket, value, coverage) =>
      write(measures.buckets[bucket]!.start, value, coverage),
    ),
  );

type PointWriter = (start: number, value: number | null, coverage: number) => void;

/** The envelope, then each point `forEachPoint` writes, in turn. */
function seriesText(
  plant: SeriesPlant,
  unit: string,
  span: TimeRange,
  forEachPoint: (write: PointWriter) => void,
): EncodedJson<Series> {
  const envelope = envelopeOf(plant, unit);
  let text = seriesHead(envelope, LocalTimestamps.of(plant.timezone), span);
  const heads = LocalTimestamps.of(plant.timezone, POINT_BEFORE, POINT_AFTER);
  let first = true;
  forEachPoint((start, value, coverage) => {
    const point = heads.format(start) + pointEnd(value, coverage);
    text += first ? point : `,${point}`;
    first = false;
  });
  return EncodedJson.ofJsonText(`${text}]}`, envelope.ascii);
}

/** One point of a series, as `seriesJson` writes it. */
export const pointJson = (timestamps: LocalTimestamps, start: number, point: Combined): string =>
  POINT_BEFORE + timestamps.format(start) + POINT_AFTER + pointEnd(point.value, point.coverage);

/** What a point's timestamp is written between. */
const POINT_BEFORE = '{"timestamp":"';
const POINT_AFTER = '","value":';

/** A point from its value on. Most points are fully covered: their end is one piece. */
const pointEnd = (value: number | null, coverage: number): string =>
  jsonNumber(value) + (coverage === 1 ? FULLY_COVERED : `,"coverage":${jsonNumber(coverage)}}`);

const FULLY_COVERED = ',"coverage":1}';

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
  const envelope = envelopeOf(plant, unit);
  const head = seriesHead(envelope, LocalTimestamps.of(plant.timezone), span);
  return envelope.ascii
    ? EncodedJson.ofAsciiParts(head, runs, ',', ']}')
    : EncodedJson.ofJsonText(`${head}${runs.join(',')}]}`);
}

/** What a series of a plant in a unit starts with, up to its `from`, and whether it is ASCII. */
interface Envelope {
  plantUuid: string;
  zone: string;
  start: string;
  ascii: boolean;
}

type SeriesPlant = Pick<PlantRow, 'plant_uuid' | 'timezone'>;

/**
 * Per plant row (the plant lookup keeps one frozen row per plant until the database is written)
 * and unit: the same JSON texts and check would otherwise be made again for every answer. A row
 * someone changed since is seen by its uuid and zone, and its envelope made again.
 */
const envelopes = new WeakMap<SeriesPlant, Map<string, Envelope>>();

function envelopeOf(plant: SeriesPlant, unit: string): Envelope {
  let byUnit = envelopes.get(plant);
  if (!byUnit) envelopes.set(plant, (byUnit = new Map()));
  let envelope = byUnit.get(unit);
  if (envelope?.plantUuid !== plant.plant_uuid || envelope.zone !== plant.timezone) {
    envelope = {
      plantUuid: plant.plant_uuid,
      zone: plant.timezone,
      start:
        `{"plantUuid":${JSON.stringify(plant.plant_uuid)},"timezone":${JSON.stringify(plant.timezone)}` +
        `,"unit":${JSON.stringify(unit)},"from":"`,
      ascii: isAscii(plant.plant_uuid + plant.timezone + unit),
    };
    byUnit.set(unit, envelope);
  }
  return envelope;
}

/** Everything of the series before its points. */
const seriesHead = (envelope: Envelope, timestamps: LocalTimestamps, span: TimeRange): string =>
  `${envelope.start}${timestamps.format(span.start)}","to":"${timestamps.format(span.end)}","points":[`;

// The envelope's strings are all the text holds besides ASCII digits, punctuation and keys.
const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);

const jsonNumber = (value: number | null): string =>
  value !== null && Number.isFinite(value) ? metricText(value) : 'null';
