import { SENSOR_FLOWS, type SensorFlow } from '../../../../api/schemas/sensors.ts';
import { translate } from '../../i18n.ts';

/**
 * Words by key, read in the language of the moment: each property translates when it is read
 * (in a render or a computed, so a change of language shows at once); the map holds no words.
 */
function translatedByKey<K extends string>(
  keys: readonly K[],
  word: (key: K) => string,
): Readonly<Record<K, string>> {
  const words = {} as Record<K, string>;
  for (const key of keys) {
    Object.defineProperty(words, key, { enumerable: true, get: () => word(key) });
  }
  return words;
}

/** How each flow reads in selects and tables, sign conventions included (`sensors.flows`). */
export const FLOW_LABELS = translatedByKey(SENSOR_FLOWS, (flow) =>
  translate(`sensors.flows.${flow}`),
);

/** Short names for table cells (`sensors.flowShort`). */
export const FLOW_SHORT: Readonly<Record<SensorFlow, string>> = translatedByKey(
  SENSOR_FLOWS,
  (flow) => translate(`sensors.flowShort.${flow}`),
);

/**
 * What became of a saved sensor's connection test: run and passed, skipped on request, not run
 * because the connection did not change, or no connection at all. `failed` is never emitted
 * with `saved` (the save fails); forms show it while the user corrects the address.
 */
export type ConnectionOutcome = 'passed' | 'skipped' | 'unchanged' | 'none' | 'failed';

export const CONNECTION_OUTCOME_TEXT = translatedByKey<ConnectionOutcome>(
  ['passed', 'skipped', 'unchanged', 'none', 'failed'],
  (outcome) => translate(`sensors.connectionOutcome.${outcome}`),
);

/** The sensor form's fields: where a refusal of the server lands (by the field it names). */
export const SENSOR_FORM_FIELDS = [
  'name',
  'sensorTypeUuid',
  'dataTypesCollectUuids',
  'flow',
  'connection',
  'samplingIntervalSeconds',
  'deviceUuid',
  'signInverted',
] as const;
